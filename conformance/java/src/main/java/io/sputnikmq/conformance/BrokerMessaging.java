package io.sputnikmq.conformance;

import com.alibaba.fastjson.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.LinkedHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The "produce" and "consume" operations of {@link BrokerOps}.
 *
 * A message spec is {"body", "tags", "keys" (space separated), "props" {user properties},
 * "shardingKey" (send with a selector: queue = floorMod(key.hashCode(), queues))}. A received
 * message is reported as {consumer, body, tags, keys, props (user properties only), brokerName,
 * queueId, queueOffset, reconsumeTimes}.
 */
final class BrokerMessaging {
    private BrokerMessaging() {
    }

    private static final AtomicLong SEQ = new AtomicLong();

    static String instanceName(String kind) {
        return "conf-broker-" + kind + "-" + ProcessHandle.current().pid() + "-" + SEQ.incrementAndGet();
    }

    /** Sharding-key selector: floorMod(String.hashCode, number of queues) over the route's queues. */
    static final MessageQueueSelector BY_KEY =
        (mqs, msg, arg) -> mqs.get(Math.floorMod(((String) arg).hashCode(), mqs.size()));

    static DefaultMQProducer startProducer(String ns, String group) throws Exception {
        return startProducer(ns, group, null);
    }

    /** A started producer of group whose requests go through hook (null: none). */
    static DefaultMQProducer startProducer(String ns, String group, RPCHook hook) throws Exception {
        return startProducer(ns, group, hook, null);
    }

    /** A started producer of group in namespace (null: none) whose requests go through hook. */
    static DefaultMQProducer startProducer(String ns, String group, RPCHook hook, String namespace) throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(group, hook);
        if (namespace != null) {
            p.setNamespace(namespace);
        }
        p.setNamesrvAddr(ns);
        p.setInstanceName(instanceName("producer"));
        p.setSendMsgTimeout(5000);
        p.start();
        return p;
    }

    /**
     * A transactional producer whose local transaction decides by the body: "-commit-" commits,
     * "-rollback-" rolls back, anything else is left unknown; a check of an unknown one commits it.
     */
    static TransactionMQProducer startTxProducer(String ns, String group, RPCHook hook) throws Exception {
        TransactionMQProducer p = new TransactionMQProducer(group, hook);
        p.setNamesrvAddr(ns);
        p.setInstanceName(instanceName("txproducer"));
        p.setSendMsgTimeout(5000);
        p.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                String body = new String(msg.getBody(), StandardCharsets.UTF_8);
                if (body.contains("-commit-")) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }
                if (body.contains("-rollback-")) {
                    return LocalTransactionState.ROLLBACK_MESSAGE;
                }
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        p.start();
        return p;
    }

    static Message message(String topic, JSONObject spec) {
        String body = spec.getString("body");
        Message m = new Message(topic, spec.getString("tags"), spec.getString("keys"),
            body.getBytes(StandardCharsets.UTF_8));
        JSONObject props = spec.getJSONObject("props");
        if (props != null) {
            for (String k : props.keySet()) {
                m.putUserProperty(k, props.getString(k));
            }
        }
        if (spec.containsKey("delayLevel")) {
            m.setDelayTimeLevel(spec.getIntValue("delayLevel"));
        }
        return m;
    }

    /**
     * produce {ns, topic, group, mode: sync|async|oneway|batch|transaction, messages: [spec], namespace}: one entry per
     * message {body, status, brokerName, queueId, queueOffset} in spec order (oneway: status
     * "ONEWAY", no queue). A transaction producer shuts down after its sends too, so the half
     * messages it left unknown wait for a producer of the group that answers the check.
     */
    static List<Map<String, Object>> produce(JSONObject req) throws Exception {
        String mode = req.getString("mode");
        RPCHook hook = BrokerOps.rpcHook(req);
        DefaultMQProducer p = mode != null && mode.startsWith("transaction")
            ? startTxProducer(req.getString("ns"), req.getString("group"), hook)
            : startProducer(req.getString("ns"), req.getString("group"), hook, req.getString("namespace"));
        try {
            return produceWith(p, req.getString("topic"), req.getString("mode"),
                BrokerOps.objects(req.getJSONArray("messages")));
        } finally {
            p.shutdown();
        }
    }

    static List<Map<String, Object>> produceWith(DefaultMQProducer p, String topic, String mode,
        List<JSONObject> specs) throws Exception {
        List<Map<String, Object>> out = new ArrayList<>();
        switch (mode == null ? "sync" : mode) {
            case "sync":
                for (JSONObject s : specs) {
                    Message m = message(topic, s);
                    String key = s.getString("shardingKey");
                    SendResult r = key == null ? p.send(m) : p.send(m, BY_KEY, key);
                    out.add(sent(s.getString("body"), r, 0));
                }
                return out;
            case "async":
                return produceAsync(p, topic, specs);
            case "transaction":
                return produceTransactional(p, topic, specs, null);
            case "transaction-resume": {
                // RESUME_CHECK_HALF_MESSAGE: each unknown half message is written again for the check
                DefaultMQAdminExt admin = new DefaultMQAdminExt(5000);
                admin.setNamesrvAddr(p.getNamesrvAddr());
                admin.setInstanceName(instanceName("resume-admin"));
                admin.start();
                try {
                    return produceTransactional(p, topic, specs, admin);
                } finally {
                    admin.shutdown();
                }
            }
            case "oneway":
                for (JSONObject s : specs) {
                    p.sendOneway(message(topic, s));
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("body", s.getString("body"));
                    e.put("status", "ONEWAY");
                    out.add(e);
                }
                return out;
            case "batch": {
                List<Message> batch = new ArrayList<>();
                for (JSONObject s : specs) {
                    batch.add(message(topic, s));
                }
                SendResult r = p.send(batch);
                for (int i = 0; i < specs.size(); i++) {
                    out.add(sent(specs.get(i).getString("body"), r, i));
                }
                return out;
            }
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private static List<Map<String, Object>> produceTransactional(DefaultMQProducer p, String topic,
        List<JSONObject> specs, DefaultMQAdminExt resumeWith) throws Exception {
        List<Map<String, Object>> out = new ArrayList<>();
        for (JSONObject s : specs) {
            TransactionSendResult r = ((TransactionMQProducer) p).sendMessageInTransaction(message(topic, s), null);
            Map<String, Object> e = sent(s.getString("body"), r, 0);
            e.put("localState", r.getLocalTransactionState().name());
            if (resumeWith != null && r.getLocalTransactionState() == LocalTransactionState.UNKNOW) {
                e.put("resumed", resumeHalf(resumeWith, r.getMsgId()));
            }
            out.add(e);
        }
        return out;
    }

    /**
     * The admin's resumeCheckHalfMessage(topic, msgId) for a half message, found by its unique key in
     * RMQ_SYS_TRANS_HALF_TOPIC (a TransactionSendResult has no offset message id), retried for 10 s
     * while the broker has not indexed it yet.
     */
    private static boolean resumeHalf(DefaultMQAdminExt admin, String uniqKey) throws Exception {
        long deadline = System.currentTimeMillis() + 10000;
        while (true) {
            try {
                return admin.resumeCheckHalfMessage("RMQ_SYS_TRANS_HALF_TOPIC", uniqKey);
            } catch (MQClientException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static List<Map<String, Object>> produceAsync(DefaultMQProducer p, String topic,
        List<JSONObject> specs) throws Exception {
        int n = specs.size();
        List<Map<String, Object>> out = new ArrayList<>(Collections.nCopies(n, null));
        CountDownLatch done = new CountDownLatch(n);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            final int idx = i;
            final String body = specs.get(i).getString("body");
            p.send(message(topic, specs.get(i)), new SendCallback() {
                @Override
                public void onSuccess(SendResult r) {
                    synchronized (out) {
                        out.set(idx, sent(body, r, 0));
                    }
                    done.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    failed.compareAndSet(null, e);
                    done.countDown();
                }
            });
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("async sends not acknowledged within 60 s");
        }
        if (failed.get() != null) {
            throw new IllegalStateException("async send failed", failed.get());
        }
        synchronized (out) {
            return new ArrayList<>(out);
        }
    }

    private static Map<String, Object> sent(String body, SendResult r, int index) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("body", body);
        e.put("status", r.getSendStatus().name());
        e.put("brokerName", r.getMessageQueue().getBrokerName());
        e.put("queueId", r.getMessageQueue().getQueueId());
        e.put("queueOffset", r.getQueueOffset() + index);
        return e;
    }

    /** A received message as reported to Go; consumer is the index of the consumer in its group. */
    /** System properties whose values the broker sets the same way every run (retries, dead letters). */
    private static final String[] DELIVERY_PROPS = {
        MessageConst.PROPERTY_RETRY_TOPIC, MessageConst.PROPERTY_REAL_TOPIC, MessageConst.PROPERTY_REAL_QUEUE_ID,
        MessageConst.PROPERTY_DELAY_TIME_LEVEL, MessageConst.PROPERTY_WAIT_STORE_MSG_OK, MessageConst.PROPERTY_CLUSTER,
    };

    static Map<String, Object> received(int consumer, MessageExt m, String brokerName) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("propKeys", new TreeMap<>(m.getProperties()).keySet());
        r.put("consumer", consumer);
        r.put("body", new String(m.getBody(), StandardCharsets.UTF_8));
        r.put("tags", m.getTags());
        r.put("keys", m.getKeys());
        Map<String, String> props = new TreeMap<>();
        for (Map.Entry<String, String> e : m.getProperties().entrySet()) {
            if (!MessageConst.STRING_HASH_SET.contains(e.getKey())) {
                props.put(e.getKey(), e.getValue());
            }
        }
        r.put("props", props);
        Map<String, String> sys = new TreeMap<>();
        for (String k : DELIVERY_PROPS) {
            String v = m.getProperty(k);
            if (v != null) {
                sys.put(k, v);
            }
        }
        r.put("sysProps", sys);
        r.put("brokerName", brokerName);
        r.put("queueId", m.getQueueId());
        r.put("queueOffset", m.getQueueOffset());
        r.put("reconsumeTimes", m.getReconsumeTimes());
        return r;
    }

    /**
     * consume {ns, topic, group, sub, prefix, count, timeoutMs, orderly, fromWhere, timestamp, model,
     * consumers, quietMs, sleepMs, readyTimeoutMs, produceDelayMs, produce {group, mode, messages}}:
     * starts the consumers of one group in this JVM; when "produce" is given, waits until the group
     * holds every queue (locked, when orderly), produceDelayMs more, and sends those messages; then waits until count distinct bodies
     * with the prefix arrived (at every consumer in broadcasting mode), quietMs more, and shuts down.
     * Result: {ready, assignment (queues per consumer, sorted), producedAtMs, sent, complete,
     * violations, messages (each with "at", when its listener got it)}.
     */
    static Map<String, Object> consume(JSONObject req) throws Exception {
        BrokerGroup g = new BrokerGroup(req);
        Map<String, Object> out = new LinkedHashMap<>();
        DefaultMQProducer txProducer = null; // stays up to answer the broker's transaction checks
        try {
            g.start(req.getIntValue("consumers") <= 0 ? 1 : req.getIntValue("consumers"));
            JSONObject prod = req.getJSONObject("produce");
            if (prod != null) {
                long readyMs = req.getLongValue("readyTimeoutMs") > 0 ? req.getLongValue("readyTimeoutMs") : 45000;
                out.put("ready", g.awaitReady(g.size(), readyMs));
                out.put("assignment", g.assignment());
                RPCHook hook = BrokerOps.rpcHook(req);
                DefaultMQProducer p = prod.getString("mode").startsWith("transaction")
                    ? startTxProducer(g.ns, prod.getString("group"), hook)
                    : startProducer(g.ns, prod.getString("group"), hook, req.getString("namespace"));
                g.quiet(req.getLongValue("produceDelayMs"));
                out.put("producedAtMs", System.currentTimeMillis());
                try {
                    out.put("sent", produceWith(p, g.topic, prod.getString("mode"),
                        BrokerOps.objects(prod.getJSONArray("messages"))));
                } finally {
                    if (p instanceof TransactionMQProducer) {
                        txProducer = p;
                    } else {
                        p.shutdown();
                    }
                }
            }
            out.put("complete", g.awaitCount(req.getString("prefix"), req.getIntValue("count"),
                req.getLongValue("timeoutMs"), -1));
            g.quiet(req.getLongValue("quietMs"));
        } finally {
            if (txProducer != null) {
                txProducer.shutdown();
            }
            g.shutdown();
        }
        out.put("violations", g.violations());
        out.put("messages", g.messages());
        return out;
    }
}
