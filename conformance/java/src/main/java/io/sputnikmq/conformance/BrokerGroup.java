package io.sputnikmq.conformance;

import org.apache.rocketmq.client.consumer.MessageSelector;

import com.alibaba.fastjson.JSONObject;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.impl.consumer.ProcessQueue;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.heartbeat.MessageModel;

/**
 * The DefaultMQPushConsumers of one group living in this JVM (each with its own instance name, so
 * the broker sees separate clients), what they received in arrival order, and the processing
 * overlaps seen: a queue handed to a listener while another listener (of any consumer) still
 * processes it — which orderly consumption with broker locks must never allow.
 *
 * With "minReconsume" n, a concurrent listener answers RECONSUME_LATER to a message delivered fewer
 * than n times before (the broker's retry topic brings it back), and only deliveries with
 * reconsumeTimes >= n count towards the expected number. With "alwaysLater" it answers
 * RECONSUME_LATER to every delivery, and "maxReconsume" sets the consumers' maxReconsumeTimes (a
 * message answered later that often goes to the group's dead-letter queue). "namespace" puts the
 * consumers (and the producer of "produce") in that client namespace.
 */
final class BrokerGroup {
    final String ns;
    final String topic;
    private final JSONObject req;
    private final List<DefaultMQPushConsumer> consumers = new ArrayList<>();
    private final List<Map<String, Object>> got = new ArrayList<>();
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final List<String> violations = new ArrayList<>();

    BrokerGroup(JSONObject req) {
        this.req = req;
        this.ns = req.getString("ns");
        this.topic = req.getString("topic");
    }

    int size() {
        return consumers.size();
    }

    void start(int n) throws Exception {
        for (int i = 0; i < n; i++) {
            consumers.add(startOne(i));
        }
    }

    private DefaultMQPushConsumer startOne(int idx) throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(req.getString("group"), BrokerOps.rpcHook(req),
            new AllocateMessageQueueAveragely());
        c.setNamesrvAddr(ns);
        c.setInstanceName(BrokerMessaging.instanceName("consumer" + idx));
        if (req.getIntValue("pollNameServerMs") > 0) {
            c.setPollNameServerInterval(req.getIntValue("pollNameServerMs"));
        }
        if (req.getString("namespace") != null) {
            c.setNamespace(req.getString("namespace"));
        }
        if (req.containsKey("maxReconsume")) {
            c.setMaxReconsumeTimes(req.getIntValue("maxReconsume"));
        }
        String from = req.getString("fromWhere");
        if ("last".equals(from)) {
            c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        } else if ("timestamp".equals(from)) {
            c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_TIMESTAMP);
            long ts = req.getLongValue("timestampMs");
            c.setConsumeTimestamp(new SimpleDateFormat("yyyyMMddHHmmss").format(new Date(ts)));
        } else {
            c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        }
        if ("BROADCASTING".equals(req.getString("model"))) {
            c.setMessageModel(MessageModel.BROADCASTING);
        }
        String sub = req.getString("sub");
        String sql = req.getString("sql");
        if (sql != null) {
            c.subscribe(topic, MessageSelector.bySql(sql));
        } else {
            c.subscribe(topic, sub == null ? "*" : sub);
        }
        long sleepMs = req.getLongValue("sleepMs");
        if (req.getBooleanValue("orderly")) {
            c.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
                handle(idx, msgs, ctx.getMessageQueue(), sleepMs);
                return ConsumeOrderlyStatus.SUCCESS;
            });
        } else {
            int retries = req.getIntValue("minReconsume");
            boolean alwaysLater = req.getBooleanValue("alwaysLater");
            c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                handle(idx, msgs, ctx.getMessageQueue(), sleepMs);
                if (alwaysLater) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                for (MessageExt m : msgs) {
                    if (m.getReconsumeTimes() < retries) {
                        return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        }
        c.start();
        return c;
    }

    private void handle(int idx, List<MessageExt> msgs, MessageQueue mq, long sleepMs) {
        String q = mq.getBrokerName() + ":" + mq.getQueueId();
        AtomicInteger n = inFlight.computeIfAbsent(q, k -> new AtomicInteger());
        int now = n.incrementAndGet();
        try {
            if (now > 1) {
                synchronized (violations) {
                    violations.add("queue " + q + " processed by consumer " + idx + " while " + (now - 1) + " other(s) still in it");
                }
            }
            synchronized (got) {
                long at = System.currentTimeMillis();
                for (MessageExt m : msgs) {
                    Map<String, Object> r = BrokerMessaging.received(idx, m, mq.getBrokerName());
                    r.put("at", at);
                    got.add(r);
                }
                got.notifyAll();
            }
            if (sleepMs > 0) {
                Thread.sleep(sleepMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            n.decrementAndGet();
        }
    }

    /** Queues held per consumer (sorted ascending); orderly consumers count only locked queues. */
    List<Integer> assignment() {
        List<Integer> out = new ArrayList<>();
        for (DefaultMQPushConsumer c : consumers) {
            out.add(held(c));
        }
        out.sort(null);
        return out;
    }

    int held(DefaultMQPushConsumer c) {
        if (c == null) {
            return 0;
        }
        boolean orderly = req.getBooleanValue("orderly");
        int n = 0;
        for (Map.Entry<MessageQueue, ProcessQueue> e
            : c.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().entrySet()) {
            if (!e.getKey().getTopic().equals(topic)) {
                continue;
            }
            ProcessQueue pq = e.getValue();
            if (!pq.isDropped() && (!orderly || pq.isLocked())) {
                n++;
            }
        }
        return n;
    }

    /**
     * Waits until the first live consumers hold every queue of the topic between them, split as
     * evenly as AllocateMessageQueueAveragely splits them, or every queue each in broadcasting mode.
     */
    boolean awaitReady(int live, long timeoutMs) throws Exception {
        int total = consumers.get(0).fetchSubscribeMessageQueues(topic).size();
        boolean broadcast = "BROADCASTING".equals(req.getString("model"));
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            int sum = 0;
            boolean each = true;
            for (int i = 0; i < live; i++) {
                int h = held(consumers.get(i));
                sum += h;
                // Clustering: settled on AllocateMessageQueueAveragely's split. A consumer that
                // joined may hold only part of its share while the other has not yet unlocked the
                // rest (seen as [2 6] on Java brokers).
                each &= broadcast ? h == total : h >= total / live && h <= (total + live - 1) / live;
            }
            if (each && (broadcast || sum == total)) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /**
     * Waits until count distinct bodies starting with prefix+"-" arrived: at consumer only (when
     * only >= 0), at every consumer (broadcasting), or at the group.
     */
    boolean awaitCount(String prefix, int count, long timeoutMs, int only) throws InterruptedException {
        boolean broadcast = "BROADCASTING".equals(req.getString("model"));
        long deadline = System.currentTimeMillis() + timeoutMs;
        synchronized (got) {
            while (true) {
                if (reached(prefix, count, broadcast, only)) {
                    return true;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                got.wait(Math.min(left, 200));
            }
        }
    }

    private boolean reached(String prefix, int count, boolean broadcast, int only) {
        String want = prefix + "-";
        int retries = req.getIntValue("minReconsume");
        List<Set<String>> per = new ArrayList<>();
        Set<String> all = new HashSet<>();
        for (int i = 0; i < consumers.size(); i++) {
            per.add(new HashSet<>());
        }
        for (Map<String, Object> m : got) {
            String body = (String) m.get("body");
            if (body.startsWith(want) && (Integer) m.get("reconsumeTimes") >= retries) {
                per.get((Integer) m.get("consumer")).add(body);
                all.add(body);
            }
        }
        if (only >= 0) {
            return per.get(only).size() >= count;
        }
        if (broadcast) {
            return per.stream().allMatch(s -> s.size() >= count);
        }
        return all.size() >= count;
    }

    /** Waits until messages of prefix were delivered n times in all, redeliveries included. */
    boolean awaitDeliveries(String prefix, int n, long timeoutMs) throws InterruptedException {
        String want = prefix + "-";
        long deadline = System.currentTimeMillis() + timeoutMs;
        synchronized (got) {
            while (true) {
                int c = 0;
                for (Map<String, Object> m : got) {
                    if (((String) m.get("body")).startsWith(want)) {
                        c++;
                    }
                }
                if (c >= n) {
                    return true;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                got.wait(Math.min(left, 200));
            }
        }
    }

    void quiet(long ms) throws InterruptedException {
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }

    /** Sends every live consumer's offsets to the broker now (instead of every 5 s). */
    void persist() {
        for (DefaultMQPushConsumer c : consumers) {
            if (c != null) {
                c.getDefaultMQPushConsumerImpl().persistConsumerOffset();
            }
        }
    }

    /** Gracefully shuts consumer i down (it persists its offsets and unregisters). */
    void shutdownOne(int i) {
        DefaultMQPushConsumer c = consumers.get(i);
        if (c != null) {
            c.shutdown();
            consumers.set(i, null);
        }
    }

    void shutdown() {
        for (int i = 0; i < consumers.size(); i++) {
            try {
                shutdownOne(i);
            } catch (Throwable ignored) {
                // shutting down anyway
            }
        }
    }

    List<String> violations() {
        synchronized (violations) {
            return new ArrayList<>(violations);
        }
    }

    List<Map<String, Object>> messages() {
        synchronized (got) {
            return new ArrayList<>(got);
        }
    }

    static String body(MessageExt m) {
        return new String(m.getBody(), StandardCharsets.UTF_8);
    }
}
