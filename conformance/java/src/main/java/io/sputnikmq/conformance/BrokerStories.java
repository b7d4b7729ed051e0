package io.sputnikmq.conformance;

import org.apache.rocketmq.client.consumer.MessageSelector;

import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.impl.CommunicationMode;
import org.apache.rocketmq.client.impl.consumer.PullResultExt;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.sysflag.PullSysFlag;

/** The longer stories of {@link BrokerOps}: rebalance, lite pull, raw pull, mqadmin with live clients. */
final class BrokerStories {
    private BrokerStories() {
    }

    /**
     * rebalance {ns, topic, group, prefix, count, timeoutMs, readyTimeoutMs, produceGroup}: two
     * consumers of one group (clustering) split the queues; messages prefix-a-* go to both; consumer
     * 1 shuts down gracefully; consumer 0 takes every queue and alone gets prefix-b-*.
     */
    static Map<String, Object> rebalance(JSONObject req) throws Exception {
        BrokerGroup g = new BrokerGroup(req);
        Map<String, Object> out = new LinkedHashMap<>();
        String prefix = req.getString("prefix");
        int count = req.getIntValue("count");
        long timeout = req.getLongValue("timeoutMs");
        long readyMs = req.getLongValue("readyTimeoutMs");
        DefaultMQProducer p = BrokerMessaging.startProducer(g.ns, req.getString("produceGroup"));
        try {
            g.start(2);
            out.put("splitReady", g.awaitReady(2, readyMs));
            out.put("split", g.assignment());
            BrokerMessaging.produceWith(p, g.topic, "sync", specs(prefix + "-a", count));
            out.put("firstComplete", g.awaitCount(prefix + "-a", count, timeout, -1));
            g.shutdownOne(1);
            out.put("takeoverReady", g.awaitReady(1, readyMs));
            out.put("takeover", g.assignment());
            BrokerMessaging.produceWith(p, g.topic, "sync", specs(prefix + "-b", count));
            out.put("secondComplete", g.awaitCount(prefix + "-b", count, timeout, 0));
            g.quiet(req.getLongValue("quietMs"));
        } finally {
            p.shutdown();
            g.shutdown();
        }
        out.put("messages", g.messages());
        return out;
    }

    private static List<JSONObject> specs(String prefix, int n) {
        List<JSONObject> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JSONObject s = new JSONObject();
            s.put("body", prefix + "-" + i);
            s.put("tags", "rebalance");
            out.add(s);
        }
        return out;
    }

    /**
     * litePull {ns, topic, group, sub, prefix, count, timeoutMs}: a DefaultLitePullConsumer
     * (subscribe, CONSUME_FROM_FIRST_OFFSET) polls until count distinct prefixed bodies arrived:
     * {complete, messages}.
     */
    static Map<String, Object> litePull(JSONObject req) throws Exception {
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(req.getString("group"), BrokerOps.rpcHook(req));
        c.setNamesrvAddr(req.getString("ns"));
        c.setInstanceName(BrokerMessaging.instanceName("lite"));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        String sub = req.getString("sub");
        String sql = req.getString("sql");
        if (sql != null) {
            c.subscribe(req.getString("topic"), MessageSelector.bySql(sql));
        } else {
            c.subscribe(req.getString("topic"), sub == null ? "*" : sub);
        }
        c.start();
        List<Map<String, Object>> got = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        String want = req.getString("prefix") + "-";
        int count = req.getIntValue("count");
        long deadline = System.currentTimeMillis() + req.getLongValue("timeoutMs");
        try {
            while (seen.size() < count && System.currentTimeMillis() < deadline) {
                for (MessageExt m : c.poll(500)) {
                    got.add(BrokerMessaging.received(0, m, m.getBrokerName()));
                    String b = BrokerGroup.body(m);
                    if (b.startsWith(want)) {
                        seen.add(b);
                    }
                }
            }
        } finally {
            c.shutdown();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("complete", seen.size() >= count);
        out.put("messages", got);
        return out;
    }

    /**
     * pull {ns, topic, group, sub, max}: for every queue of the topic (sorted), what
     * DefaultMQPullConsumer.pull(mq, sub, 0, max) returns (tags filtered by the client too) as
     * "client", and what the broker returns to a raw PULL_MESSAGE with the same subscription,
     * decoded with MessageDecoder and not filtered by the client, as "raw".
     */
    static Map<String, Object> pull(JSONObject req) throws Exception {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(req.getString("group"), BrokerOps.rpcHook(req));
        c.setNamesrvAddr(req.getString("ns"));
        c.setInstanceName(BrokerMessaging.instanceName("pull"));
        c.start();
        String sub = req.getString("sub") == null ? "*" : req.getString("sub");
        int max = req.getIntValue("max") > 0 ? req.getIntValue("max") : 32;
        List<Map<String, Object>> client = new ArrayList<>();
        List<Map<String, Object>> raw = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        try {
            List<MessageQueue> mqs = new ArrayList<>(c.fetchSubscribeMessageQueues(req.getString("topic")));
            mqs.sort(Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId));
            MQClientInstance f = c.getDefaultMQPullConsumerImpl().getRebalanceImpl().getmQClientFactory();
            f.updateTopicRouteInfoFromNameServer(req.getString("topic"));
            for (MessageQueue mq : mqs) {
                PullResult r = c.pull(mq, sub, 0, max);
                statuses.add(mq.getBrokerName() + ":" + mq.getQueueId() + " " + r.getPullStatus()
                    + " next=" + r.getNextBeginOffset() + " min=" + r.getMinOffset() + " max=" + r.getMaxOffset());
                if (r.getPullStatus() == PullStatus.FOUND) {
                    for (MessageExt m : r.getMsgFoundList()) {
                        client.add(stored(m, mq.getBrokerName()));
                    }
                }
                raw.addAll(rawPull(f, req.getString("group"), mq, sub, max));
            }
        } finally {
            c.shutdown();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("statuses", statuses);
        out.put("client", client);
        out.put("raw", raw);
        return out;
    }

    private static List<Map<String, Object>> rawPull(MQClientInstance f, String group, MessageQueue mq, String sub,
        int max) throws Exception {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(mq.getTopic());
        h.setQueueId(mq.getQueueId());
        h.setQueueOffset(0L);
        h.setMaxMsgNums(max);
        h.setSysFlag(PullSysFlag.buildSysFlag(false, false, true, false));
        h.setCommitOffset(0L);
        h.setSuspendTimeoutMillis(0L);
        h.setSubscription(sub);
        h.setSubVersion(0L);
        h.setExpressionType(ExpressionType.TAG);
        String addr = f.findBrokerAddressInPublish(mq.getBrokerName());
        PullResult r = f.getMQClientAPIImpl().pullMessage(addr, h, 5000, CommunicationMode.SYNC, null);
        List<Map<String, Object>> out = new ArrayList<>();
        if (r.getPullStatus() == PullStatus.FOUND) {
            byte[] bin = ((PullResultExt) r).getMessageBinary();
            for (MessageExt m : MessageDecoder.decodes(ByteBuffer.wrap(bin))) {
                out.add(stored(m, mq.getBrokerName()));
            }
        }
        return out;
    }

    /** A stored message with every property (UNIQ_KEY masked) and the stable header fields. */
    static Map<String, Object> stored(MessageExt m, String brokerName) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("body", new String(m.getBody(), StandardCharsets.UTF_8));
        r.put("brokerName", brokerName);
        r.put("queueId", m.getQueueId());
        r.put("queueOffset", m.getQueueOffset());
        r.put("flag", m.getFlag());
        r.put("sysFlag", m.getSysFlag());
        r.put("storeSize", m.getStoreSize());
        r.put("bodyCRC", m.getBodyCRC());
        r.put("reconsumeTimes", m.getReconsumeTimes());
        Map<String, String> props = new TreeMap<>(m.getProperties());
        if (props.containsKey("UNIQ_KEY")) {
            props.put("UNIQ_KEY", "<uniq>");
        }
        r.put("properties", props);
        return r;
    }

    /**
     * mqadminLive {ns, topic, producerGroup, consumerGroup, prefix, count, timeoutMs, commands: [[args]]}:
     * a producer and a push consumer stay connected in this JVM (the consumer consumed count messages
     * and persisted its offsets) while each mqadmin command line runs: {consumed, outputs: [{args,
     * out, err}]}. With redeliver, it then waits until the consumer got the count messages a second
     * time (a reset of the group's offsets): {redelivered}.
     */
    static Map<String, Object> mqadminLive(JSONObject req) throws Exception {
        JSONObject creq = new JSONObject();
        creq.putAll(req);
        creq.put("group", req.getString("consumerGroup"));
        BrokerGroup g = new BrokerGroup(creq);
        Map<String, Object> out = new LinkedHashMap<>();
        DefaultMQProducer p = BrokerMessaging.startProducer(g.ns, req.getString("producerGroup"));
        try {
            String prefix = req.getString("prefix");
            int count = req.getIntValue("count");
            List<JSONObject> specs = specs(prefix, count);
            for (JSONObject s : specs) {
                s.put("shardingKey", s.getString("body"));
            }
            out.put("sent", BrokerMessaging.produceWith(p, g.topic, "sync", specs));
            g.start(1);
            out.put("consumed", g.awaitCount(prefix, count, req.getLongValue("timeoutMs"), -1));
            g.quiet(1000);
            g.persist();
            List<Map<String, Object>> outputs = new ArrayList<>();
            JSONArray cmds = req.getJSONArray("commands");
            for (int i = 0; i < cmds.size(); i++) {
                outputs.add(BrokerOps.mqadmin(BrokerOps.strings(cmds.getJSONArray(i))));
            }
            out.put("outputs", outputs);
            if (req.getBooleanValue("redeliver")) {
                out.put("redelivered", g.awaitDeliveries(prefix, 2 * count, req.getLongValue("timeoutMs")));
            }
        } finally {
            p.shutdown();
            g.shutdown();
        }
        return out;
    }

    /**
     * requestReply {ns, topic, group, count, timeoutMs}: a push consumer of group answers every
     * request on topic with MessageUtil.createReplyMessage("reply to " + body), sent by a producer of
     * its own; a requester sends count requests "req-i" with DefaultMQProducer.request and waits
     * for each reply: {replies: [{request, reply, propKeys}], errors: [...]}.
     */
    static Map<String, Object> requestReply(JSONObject req) throws Exception {
        String ns = req.getString("ns");
        String topic = req.getString("topic");
        long timeout = req.getLongValue("timeoutMs");
        Map<String, Object> out = new LinkedHashMap<>();
        DefaultMQProducer replier = BrokerMessaging.startProducer(ns, req.getString("group") + "_REPLIER");
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(req.getString("group"));
        DefaultMQProducer requester = null;
        try {
            pushFromFirst(consumer, ns, "replier", topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    try {
                        String body = new String(m.getBody(), StandardCharsets.UTF_8);
                        Message reply = MessageUtil.createReplyMessage(m, ("reply to " + body).getBytes(StandardCharsets.UTF_8));
                        replier.send(reply);
                    } catch (Exception e) {
                        return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            requester = BrokerMessaging.startProducer(ns, req.getString("group") + "_REQUESTER");
            List<Map<String, Object>> replies = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < req.getIntValue("count"); i++) {
                String body = "req-" + i;
                try {
                    Message r = requester.request(new Message(topic, body.getBytes(StandardCharsets.UTF_8)), timeout);
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("request", body);
                    e.put("reply", new String(r.getBody(), StandardCharsets.UTF_8));
                    e.put("propKeys", new TreeMap<>(r.getProperties()).keySet());
                    replies.add(e);
                } catch (Exception e) {
                    errors.add(body + ": " + e);
                }
            }
            out.put("replies", replies);
            out.put("errors", errors);
        } finally {
            if (requester != null) {
                requester.shutdown();
            }
            consumer.shutdown();
            replier.shutdown();
        }
        return out;
    }

    /**
     * traced {ns, topic, group, count, timeoutMs}: a producer (group_PG) and a push consumer
     * (group_CG) with message trace on (the default trace topic) send and consume count messages
     * "trace-i" (tag TagTrace, key "tk-i"); settleMs after the last arrives both are shut down:
     * {sent: [{body, msgId, status}], received: [body, ...]}.
     */
    static Map<String, Object> traced(JSONObject req) throws Exception {
        String ns = req.getString("ns");
        String topic = req.getString("topic");
        String group = req.getString("group");
        int count = req.getIntValue("count");
        Set<String> got = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group + "_CG", true);
        DefaultMQProducer producer = new DefaultMQProducer(group + "_PG", true);
        List<Map<String, Object>> sent = new ArrayList<>();
        try {
            pushFromFirst(consumer, ns, "traced", topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    got.add(new String(m.getBody(), StandardCharsets.UTF_8));
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            producer.setNamesrvAddr(ns);
            producer.setInstanceName(BrokerMessaging.instanceName("tracer"));
            producer.setSendMsgTimeout(5000);
            producer.start();
            for (int i = 0; i < count; i++) {
                String body = "trace-" + i;
                SendResult r = producer.send(new Message(topic, "TagTrace", "tk-" + i, body.getBytes(StandardCharsets.UTF_8)));
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("body", body);
                e.put("msgId", r.getMsgId());
                e.put("status", r.getSendStatus().name());
                sent.add(e);
            }
            long deadline = System.currentTimeMillis() + req.getLongValue("timeoutMs");
            while (got.size() < count && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            // The consume hook records SubAfter once the listener returned, and the trace
            // dispatchers send in the background: give them time before the shutdown.
            Thread.sleep(req.getLongValue("settleMs"));
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sent", sent);
        out.put("received", new TreeSet<>(got));
        return out;
    }

    /**
     * Points push consumer c at name server ns under a fresh instance name, from the first offset,
     * subscribed to all of topic.
     */
    private static void pushFromFirst(DefaultMQPushConsumer c, String ns, String instance, String topic) throws Exception {
        c.setNamesrvAddr(ns);
        c.setInstanceName(BrokerMessaging.instanceName(instance));
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
    }
}
