package io.sputnikmq.conformance;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Sending with DefaultMQProducer and receiving with DefaultMQPushConsumer, for the scenarios that
 * route messages through the name server under test. Every call starts a fresh client with its own
 * instance name, so its routes come from the name server, not from a cache, and shuts it down.
 *
 * Message bodies are "PREFIX-i"; a consumer counts only bodies with its prefix, so a topic reused
 * on a long-lived cluster cannot confuse it.
 */
final class MessagingOps {
    private final AtomicLong seq = new AtomicLong();

    private String instanceName(String kind) {
        return "conformance-" + kind + "-" + ProcessHandle.current().pid() + "-" + seq.incrementAndGet();
    }

    /**
     * Sends count messages with bodies prefix-0 … prefix-(count-1), synchronously, one at a time:
     * [{body, status, brokerName, queueId, msgId}] in send order. A failed send throws.
     */
    List<Map<String, Object>> produce(String ns, String topic, String group, String prefix, int count)
        throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(group);
        p.setNamesrvAddr(ns);
        p.setInstanceName(instanceName("producer"));
        p.setSendMsgTimeout(5000);
        p.start();
        try {
            List<Map<String, Object>> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String body = prefix + "-" + i;
                Message m = new Message(topic, "conformance", body, body.getBytes(StandardCharsets.UTF_8));
                SendResult r = p.send(m);
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("body", body);
                s.put("status", r.getSendStatus().name());
                s.put("brokerName", r.getMessageQueue().getBrokerName());
                s.put("queueId", r.getMessageQueue().getQueueId());
                s.put("msgId", r.getMsgId());
                out.add(s);
            }
            return out;
        } finally {
            p.shutdown();
        }
    }

    /**
     * Starts a DefaultMQPushConsumer of group (clustering, CONSUME_FROM_FIRST_OFFSET) on topic and
     * waits until count distinct bodies with the prefix arrived or timeoutMs passed:
     * {"complete": bool, "messages": [{body, brokerName, queueId, queueOffset, msgId}]} sorted by
     * broker, queue and offset.
     */
    Map<String, Object> consume(String ns, String topic, String group, String prefix, int count, long timeoutMs)
        throws Exception {
        Map<String, Map<String, Object>> got = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(1);
        String want = prefix + "-";
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(ns);
        c.setInstanceName(instanceName("consumer"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                if (body.startsWith(want)) {
                    got.putIfAbsent(body, received(m, body, ctx.getMessageQueue().getBrokerName()));
                }
            }
            if (got.size() >= count) {
                done.countDown();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        boolean complete;
        try {
            complete = done.await(timeoutMs, TimeUnit.MILLISECONDS);
        } finally {
            c.shutdown();
        }
        List<Map<String, Object>> msgs = new ArrayList<>(got.values());
        msgs.sort(Comparator.comparing((Map<String, Object> m) -> (String) m.get("brokerName"))
            .thenComparingInt(m -> (Integer) m.get("queueId"))
            .thenComparingLong(m -> (Long) m.get("queueOffset")));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("complete", complete);
        out.put("messages", msgs);
        return out;
    }

    private static Map<String, Object> received(MessageExt m, String body, String brokerName) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("body", body);
        r.put("brokerName", brokerName);
        r.put("queueId", m.getQueueId());
        r.put("queueOffset", m.getQueueOffset());
        r.put("msgId", m.getMsgId());
        return r;
    }
}
