package io.sputnikmq.conformance;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * One cycle of conformance/cmd/soak with the official Java client, in a JVM of its own: the Java
 * counterpart of the soak's client-go worker. It is compiled against 4.9.8 and runs as well on the
 * classpath of an older or newer client (../client-classpath.sh, the soak's -java-clients), so it
 * uses only API that the 4.3 to 5.3 clients share. The soak names the topic, groups and instance,
 * so that the Java and the Go cycles share the broker's groups, offsets and retry topics; bodies
 * are "{instance}-{kind}-{i}", as the Go cycles' (kinds.go bodyOf).
 *
 * <p>Kinds: jplain (sync sends, SEND_MESSAGE_V2; a concurrent push consumer), jorderly (sends to
 * the queue of each message's key, i % 8, through a MessageQueueSelector; an orderly push consumer,
 * LOCK_BATCH_MQ; the first delivery of each message of a key must follow those of the key's earlier
 * messages), jlitepull (async sends; a DefaultLitePullConsumer with auto-commit), jtx (a
 * TransactionMQProducer: message i commits when i % 3 is 0, rolls back when 1 and is left UNKNOW
 * when 2, to be committed by the broker's check-back, CHECK_TRANSACTION_STATE, answered by whichever
 * producer of the group it asks; a concurrent push consumer must get the committed ones). Every
 * consumer fails the cycle when it sees a rolled-back transactional message of the Go tx kind or of
 * jtx (kinds.go txOutcome: index % 3 == 1).
 *
 * <p>Usage: SoakWorker namesrv topic group producerGroup instance kind msgs timeoutMs shutdown.
 * Exit 0 when every message arrived, 1 otherwise (the reason on stdout). With shutdown "true" the
 * clients are shut down at the end; otherwise the JVM halts without a word, as a killed client
 * would.
 */
public final class SoakWorker {
    private static final int SHARDING_KEYS = 8;

    private final String ns;
    private final String topic;
    private final String group;
    private final String producerGroup;
    private final String instance;
    private final String kind;
    private final int msgs;
    private final long deadline;
    private final boolean shutdown;

    private final Object lock = new Object();
    private final Set<String> want = new HashSet<>();
    private final Set<String> firstSeen = new HashSet<>();
    private final int[] lastFirst = new int[SHARDING_KEYS];
    private final List<String> broken = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);

    private SoakWorker(String[] a) {
        ns = a[0];
        topic = a[1];
        group = a[2];
        producerGroup = a[3];
        instance = a[4];
        kind = a[5];
        msgs = Integer.parseInt(a[6]);
        deadline = System.currentTimeMillis() + Long.parseLong(a[7]);
        shutdown = Boolean.parseBoolean(a[8]);
        java.util.Arrays.fill(lastFirst, -1);
    }

    public static void main(String[] args) {
        if (args.length != 9) {
            System.out.println("usage: SoakWorker namesrv topic group producerGroup instance kind msgs timeoutMs shutdown");
            Runtime.getRuntime().halt(2);
        }
        int status;
        try {
            status = new SoakWorker(args).run();
        } catch (Throwable t) {
            System.out.println(Driver.describe(t));
            status = 1;
        }
        System.out.flush();
        Runtime.getRuntime().halt(status);
    }

    private int run() throws Exception {
        DefaultMQProducer p = newProducer();
        p.setNamesrvAddr(ns);
        p.setInstanceName(instance);
        p.setSendMsgTimeout(10000);
        p.start();
        for (int i = 0; i < msgs; i++) {
            String body = instance + "-" + kind + "-" + i;
            send(p, body, i);
            if (!rolledBack(body)) {
                want.add(body);
            }
        }
        AutoCloseable c = startConsumer();
        done.await(Math.max(0, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        String err = result();
        if (err != null) {
            System.out.println(kind + ": group " + group + ": " + err);
            return 1;
        }
        if (shutdown) {
            c.close();
            p.shutdown();
        }
        return 0;
    }

    private DefaultMQProducer newProducer() {
        if (!"jtx".equals(kind)) {
            return new DefaultMQProducer(producerGroup);
        }
        TransactionMQProducer p = new TransactionMQProducer(producerGroup);
        p.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message m, Object arg) {
                return txOutcome(new String(m.getBody(), StandardCharsets.UTF_8), false);
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt m) {
                return txOutcome(new String(m.getBody(), StandardCharsets.UTF_8), true);
            }
        });
        return p;
    }

    /**
     * What the local transaction of a jtx body decides (checking: what a check-back answers): by its
     * index, commit when i % 3 is 0, roll back when 1, UNKNOW (commit when checked) when 2; any
     * other body is rolled back.
     */
    static LocalTransactionState txOutcome(String body, boolean checking) {
        String[] parts = body.split("-");
        if (parts.length != 4 || !"jtx".equals(parts[2]) || !parts[3].matches("[0-9]+")) {
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        switch (Integer.parseInt(parts[3]) % 3) {
            case 0:
                return LocalTransactionState.COMMIT_MESSAGE;
            case 1:
                return LocalTransactionState.ROLLBACK_MESSAGE;
            default:
                return checking ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.UNKNOW;
        }
    }

    /** Whether body is a transactional message (Go tx or jtx kind) that was rolled back. */
    static boolean rolledBack(String body) {
        String[] parts = body.split("-");
        return parts.length == 4 && ("tx".equals(parts[2]) || "jtx".equals(parts[2]))
            && parts[3].matches("[0-9]+") && Integer.parseInt(parts[3]) % 3 == 1;
    }

    /** Sends until the broker acknowledges (SEND_OK) or the deadline passed. */
    private void send(DefaultMQProducer p, String body, int i) throws Exception {
        for (;;) {
            Message m = new Message(topic, "soak", body.getBytes(StandardCharsets.UTF_8));
            try {
                SendResult r = sendOnce(p, m, i);
                if (r.getSendStatus() == SendStatus.SEND_OK) {
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("send " + i + ": " + r.getSendStatus());
                }
            } catch (Exception e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("send " + i + ": " + Driver.describe(e), e);
                }
            }
            Thread.sleep(500);
        }
    }

    private SendResult sendOnce(DefaultMQProducer p, Message m, int i) throws Exception {
        switch (kind) {
            case "jorderly":
                return p.send(m, (mqs, msg, key) -> mqs.get((Integer) key % mqs.size()), i % SHARDING_KEYS);
            case "jlitepull": {
                CountDownLatch sent = new CountDownLatch(1);
                AtomicReference<Object> out = new AtomicReference<>();
                p.send(m, new SendCallback() {
                    @Override
                    public void onSuccess(SendResult r) {
                        out.set(r);
                        sent.countDown();
                    }

                    @Override
                    public void onException(Throwable e) {
                        out.set(e);
                        sent.countDown();
                    }
                });
                if (!sent.await(15, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("async send: no callback in 15 s");
                }
                if (out.get() instanceof Throwable) {
                    throw new IllegalStateException(Driver.describe((Throwable) out.get()));
                }
                return (SendResult) out.get();
            }
            case "jtx":
                return ((TransactionMQProducer) p).sendMessageInTransaction(m, null);
            default:
                return p.send(m);
        }
    }

    private AutoCloseable startConsumer() throws Exception {
        if ("jlitepull".equals(kind)) {
            return startLitePull();
        }
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(ns);
        c.setInstanceName(instance);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        if ("jorderly".equals(kind)) {
            c.registerMessageListener((MessageListenerOrderly) (list, ctx) -> {
                receive(list);
                return ConsumeOrderlyStatus.SUCCESS;
            });
        } else {
            c.registerMessageListener((MessageListenerConcurrently) (list, ctx) -> {
                receive(list);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        }
        c.start();
        return c::shutdown;
    }

    private AutoCloseable startLitePull() throws Exception {
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(group);
        c.setNamesrvAddr(ns);
        c.setInstanceName(instance);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.start();
        Thread t = new Thread(() -> {
            while (done.getCount() > 0 && System.currentTimeMillis() < deadline) {
                receive(c.poll(1000));
            }
        }, "soak-poll");
        t.setDaemon(true);
        t.start();
        return () -> {
            t.join();
            c.shutdown();
        };
    }

    private void receive(List<MessageExt> list) {
        synchronized (lock) {
            for (MessageExt m : list) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                String[] parts = body.split("-");
                if (rolledBack(body)) {
                    breakf("received " + body + ", a rolled-back transactional message (msgId " + m.getMsgId() + ")");
                    continue;
                }
                if (!body.startsWith(instance + "-")) {
                    continue;
                }
                if ("jorderly".equals(kind)) {
                    checkOrder(body, Integer.parseInt(parts[3]));
                }
                want.remove(body);
            }
            if (want.isEmpty()) {
                done.countDown();
            }
        }
    }

    private void checkOrder(String body, int i) {
        if (!firstSeen.add(body)) {
            return;
        }
        int k = i % SHARDING_KEYS;
        if (i < lastFirst[k]) {
            breakf("key " + k + ": message " + i + " first delivered after message " + lastFirst[k]);
        }
        lastFirst[k] = i;
    }

    private void breakf(String what) {
        if (broken.size() < 5) {
            broken.add(what);
        }
        done.countDown();
    }

    private String result() {
        synchronized (lock) {
            if (!broken.isEmpty()) {
                return String.join("; ", broken);
            }
            if (!want.isEmpty()) {
                List<String> left = new ArrayList<>(want);
                Collections.sort(left);
                return "received " + (msgs - want.size()) + " of the " + msgs + " messages it should (missing "
                    + String.join(",", left.subList(0, Math.min(5, left.size()))) + (left.size() > 5 ? ",…" : "") + ")";
            }
            return null;
        }
    }
}
