package io.sputnikmq.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;

/**
 * BenchDriver: the Java client side of bench-compare, written on the 4.9.8 client because the
 * rocketmq-example 4.9.8 artifact (benchmark.Producer / benchmark.Consumer) cannot be resolved
 * from Maven Central here. It does what those two do, for a fixed time or message count, and
 * prints one result line, "RESULT key=value ...", on stdout.
 *
 * <pre>
 *   send    NAMESRV TOPIC GROUP THREADS WARMUP_S MEASURE_S BODY_BYTES
 *           THREADS threads share one DefaultMQProducer, each sending synchronously in a loop.
 *           RESULT sent=N failed=N seconds=F tps=F p50us=N p99us=N p999us=N maxus=N
 *   consume NAMESRV TOPIC GROUP EXPECTED TIMEOUT_S
 *           one DefaultMQPushConsumer from the first offset, until EXPECTED messages arrived.
 *           RESULT received=N firstms=N drainms=N totalms=N tps=F
 * </pre>
 */
public final class BenchDriver {
    private BenchDriver() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("rocketmq.client.logUseSlf4j") == null) {
            System.setProperty("rocketmq.client.logUseSlf4j", "true");
        }
        if (args.length == 8 && args[0].equals("send")) {
            send(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                Integer.parseInt(args[6]), Integer.parseInt(args[7]));
        } else if (args.length == 6 && args[0].equals("consume")) {
            consume(args[1], args[2], args[3], Long.parseLong(args[4]), Integer.parseInt(args[5]));
        } else {
            System.err.println("usage: BenchDriver send NAMESRV TOPIC GROUP THREADS WARMUP_S MEASURE_S BODY_BYTES"
                + " | consume NAMESRV TOPIC GROUP EXPECTED TIMEOUT_S");
            System.exit(2);
        }
        System.exit(0);
    }

    /** Per-thread latencies in microseconds, measured window only. */
    private static final class Samples {
        long[] us = new long[1 << 16];
        int n;
        long failed;

        void add(long v) {
            if (n == us.length) {
                us = Arrays.copyOf(us, n * 2);
            }
            us[n++] = v;
        }
    }

    private static void send(String ns, String topic, String group, int threads, int warmupS, int measureS,
        int bodyBytes) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(ns);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.start();
        byte[] body = new byte[bodyBytes];
        Arrays.fill(body, (byte) 'x');
        long t0 = System.nanoTime();
        long measureFrom = t0 + TimeUnit.SECONDS.toNanos(warmupS);
        long measureTo = measureFrom + TimeUnit.SECONDS.toNanos(measureS);
        List<Samples> all = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Samples s = new Samples();
            all.add(s);
            Thread t = new Thread(() -> sendLoop(producer, new Message(topic, body), s, measureFrom, measureTo));
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        producer.shutdown();
        report(all, (measureTo - measureFrom) / 1e9);
    }

    private static void sendLoop(DefaultMQProducer producer, Message msg, Samples s, long from, long to) {
        while (true) {
            long start = System.nanoTime();
            if (start >= to) {
                return;
            }
            boolean ok;
            try {
                SendResult r = producer.send(msg);
                ok = r.getSendStatus() == SendStatus.SEND_OK;
            } catch (Exception e) {
                ok = false;
            }
            long end = System.nanoTime();
            if (start < from || end > to) {
                continue;
            }
            if (ok) {
                s.add((end - start) / 1000);
            } else {
                s.failed++;
            }
        }
    }

    private static void report(List<Samples> all, double seconds) {
        int total = 0;
        long failed = 0;
        for (Samples s : all) {
            total += s.n;
            failed += s.failed;
        }
        long[] us = new long[total];
        int at = 0;
        for (Samples s : all) {
            System.arraycopy(s.us, 0, us, at, s.n);
            at += s.n;
        }
        Arrays.sort(us);
        System.out.printf("RESULT sent=%d failed=%d seconds=%.3f tps=%.1f p50us=%d p99us=%d p999us=%d maxus=%d%n",
            total, failed, seconds, total / seconds, rank(us, 500), rank(us, 990), rank(us, 999),
            total == 0 ? 0 : us[total - 1]);
    }

    /** Nearest-rank percentile perMille/1000 of sorted values (0 when empty). */
    private static long rank(long[] sorted, int perMille) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) (((long) sorted.length * perMille + 999) / 1000);
        return sorted[Math.max(i - 1, 0)];
    }

    private static void consume(String ns, String topic, String group, long expected, int timeoutS) throws Exception {
        AtomicLong received = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(ns);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            long now = System.nanoTime();
            first.compareAndSet(0, now);
            if (received.addAndGet(msgs.size()) >= expected) {
                last.compareAndSet(0, now);
                done.countDown();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        long t0 = System.nanoTime();
        consumer.start();
        done.await(timeoutS, TimeUnit.SECONDS);
        long end = last.get() != 0 ? last.get() : System.nanoTime();
        consumer.shutdown();
        long n = received.get();
        long firstNs = first.get() == 0 ? end : first.get();
        double drain = (end - firstNs) / 1e9;
        System.out.printf("RESULT received=%d firstms=%d drainms=%d totalms=%d tps=%.1f%n", n,
            (firstNs - t0) / 1000000, (end - firstNs) / 1000000, (end - t0) / 1000000, drain > 0 ? n / drain : 0.0);
    }
}
