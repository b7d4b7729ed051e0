package io.sputnikmq.compat;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * The Java side of tools/storebench: drives the real 4.9.8 {@code DefaultMessageStore} the way the
 * Go harness drives Sputnik's store, and prints one JSON object per run on stdout.
 *
 * <pre>
 *   StoreBench append key=value... messages=N size=B threads=T [queues=Q topic=X]
 *       open (construct + load + start), T threads put N messages in all, wait for dispatch,
 *       report rates, per-put latency percentiles and memory, shut down
 *   StoreBench fill key=value... size=B threads=T [progressBytes=P]
 *       open and put forever, printing "written OFFSET" every P commit-log bytes (the caller kills
 *       the process with SIGKILL)
 *   StoreBench recover key=value... [halt=true]
 *       time construct + load() + start() on an existing directory, report memory, then shut down
 *       cleanly (halt=true: Runtime.halt instead, keeping the abort file)
 * </pre>
 *
 * key=value pairs the bench does not know go to MessageStoreConfig through MixAll.properties2Object.
 * Every message carries TAGS, KEYS and UNIQ_KEY properties like a client send; the body is the same
 * for every message. Latencies go into a log-linear histogram (32 sub-buckets per power of two, the
 * same buckets as tools/storebench's Go histogram).
 */
public final class StoreBench {
    private StoreBench() {
    }

    private static final String[] BENCH_KEYS = {"messages", "size", "threads", "queues", "topic",
        "progressBytes", "halt"};

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length < 1) {
            Util.die("usage: StoreBench append|fill|recover key=value...", null);
        }
        Properties bench = new Properties();
        Properties store = new Properties();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                Util.die("bad setting (want key=value): " + args[i], null);
            }
            String k = args[i].substring(0, eq);
            (isBenchKey(k) ? bench : store).setProperty(k, args[i].substring(eq + 1));
        }
        PrintStream out = Util.utf8Stdout();
        try {
            run(args[0], bench, store, out);
        } catch (Throwable t) {
            Util.die("StoreBench " + args[0] + " failed: " + t, t);
        }
        out.flush();
        System.exit(0);
    }

    static void run(String mode, Properties bench, Properties store, PrintStream out) throws Exception {
        switch (mode) {
            case "append":
                out.println(json(append(bench, config(store))));
                break;
            case "fill":
                fill(bench, config(store), out);
                break;
            case "recover":
                out.println(json(recover(bench, config(store))));
                break;
            default:
                Util.die("unknown mode " + mode, null);
        }
    }

    static boolean isBenchKey(String k) {
        for (String b : BENCH_KEYS) {
            if (b.equals(k)) {
                return true;
            }
        }
        return false;
    }

    static MessageStoreConfig config(Properties props) {
        MessageStoreConfig cfg = new MessageStoreConfig();
        cfg.setHaListenPort(0);
        MixAll.properties2Object(props, cfg);
        if (props.getProperty("storePathRootDir") == null) {
            Util.die("storePathRootDir=DIR is required", null);
        }
        return cfg;
    }

    static DefaultMessageStore open(MessageStoreConfig cfg) throws Exception {
        DefaultMessageStore store = new DefaultMessageStore(cfg,
            new BrokerStatsManager("DefaultCluster", true), null, new BrokerConfig());
        if (!store.load()) {
            Util.die("DefaultMessageStore.load() returned false", null);
        }
        store.start();
        return store;
    }

    // ------------------------------------------------------------------ append

    static Map<String, Object> append(Properties bench, MessageStoreConfig cfg) throws Exception {
        long messages = Long.parseLong(bench.getProperty("messages", "100000"));
        int size = Integer.parseInt(bench.getProperty("size", "1024"));
        int threads = Integer.parseInt(bench.getProperty("threads", "4"));
        Producer p = new Producer(bench, size);
        DefaultMessageStore store = open(cfg);
        long[][] hists = new long[threads][];
        AtomicLong next = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            final int w = i;
            hists[w] = new long[Hist.BUCKETS];
            Thread t = new Thread(() -> p.putUntil(store, next, messages, hists[w]), "bench-" + i);
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        long appended = System.nanoTime() - t0;
        while (store.dispatchBehindBytes() > 0) {
            Thread.sleep(1);
        }
        long dispatched = System.nanoTime() - t0;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("impl", "java");
        r.put("messages", messages);
        r.put("failed", p.failed.get());
        r.put("failedStatus", p.failedStatus);
        r.put("bodyBytes", messages * size);
        r.put("logBytes", store.getMaxPhyOffset());
        r.put("appendNanos", appended);
        r.put("dispatchedNanos", dispatched);
        r.put("latency", Hist.summary(Hist.merge(hists)));
        r.put("memory", memory());
        store.shutdown();
        return r;
    }

    /** Builds and puts messages; one instance is shared by all threads. */
    static final class Producer {
        final String topic;
        final int queues;
        final byte[] body;
        final InetSocketAddress born = new InetSocketAddress("127.0.0.1", 50000);
        final InetSocketAddress storeHost = new InetSocketAddress("127.0.0.1", 10911);
        final AtomicLong failed = new AtomicLong();
        volatile String failedStatus = "";

        Producer(Properties bench, int size) {
            topic = bench.getProperty("topic", "BenchTopic");
            queues = Integer.parseInt(bench.getProperty("queues", "8"));
            body = new byte[size];
            for (int i = 0; i < size; i++) {
                body[i] = (byte) ('a' + i % 26);
            }
        }

        MessageExtBrokerInner message(long seq) {
            Map<String, String> props = new HashMap<>();
            props.put(MessageConst.PROPERTY_TAGS, "TagA");
            props.put(MessageConst.PROPERTY_KEYS, "key-" + seq);
            props.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqKey(seq));
            MessageExtBrokerInner m = new MessageExtBrokerInner();
            m.setTopic(topic);
            m.setQueueId((int) (seq % queues));
            m.setBody(body);
            MessageAccessor.setProperties(m, props);
            m.setPropertiesString(MessageDecoder.messageProperties2String(props));
            m.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(TopicFilterType.SINGLE_TAG, "TagA"));
            m.setBornTimestamp(System.currentTimeMillis());
            m.setBornHost(born);
            m.setStoreHost(storeHost);
            return m;
        }

        /** 7F000001 then seq in 24 upper-case hex digits, without String.format (Go builds the same). */
        static String uniqKey(long seq) {
            char[] b = "7F000001000000000000000000000000".toCharArray();
            for (int i = 31; i >= 8; i--, seq >>>= 4) {
                b[i] = "0123456789ABCDEF".charAt((int) (seq & 15));
            }
            return new String(b);
        }

        void putUntil(DefaultMessageStore store, AtomicLong next, long limit, long[] hist) {
            for (long seq = next.getAndIncrement(); seq < limit; seq = next.getAndIncrement()) {
                MessageExtBrokerInner m = message(seq);
                long t = System.nanoTime();
                PutMessageResult r = store.putMessage(m);
                Hist.add(hist, System.nanoTime() - t);
                if (!r.isOk()) {
                    failed.incrementAndGet();
                    failedStatus = r.getPutMessageStatus().name();
                }
            }
        }
    }

    // ------------------------------------------------------------------ fill

    static void fill(Properties bench, MessageStoreConfig cfg, PrintStream out) throws Exception {
        int size = Integer.parseInt(bench.getProperty("size", "1024"));
        int threads = Integer.parseInt(bench.getProperty("threads", "4"));
        long step = Long.parseLong(bench.getProperty("progressBytes", String.valueOf(256L << 20)));
        Producer p = new Producer(bench, size);
        DefaultMessageStore store = open(cfg);
        AtomicLong next = new AtomicLong();
        for (int i = 0; i < threads; i++) {
            long[] hist = new long[Hist.BUCKETS];
            Thread t = new Thread(() -> p.putUntil(store, next, Long.MAX_VALUE, hist), "fill-" + i);
            t.setDaemon(true);
            t.start();
        }
        for (long mark = step; ; ) {
            Thread.sleep(20);
            long off = store.getMaxPhyOffset();
            if (off >= mark) {
                out.println("written " + off);
                out.flush();
                mark = off + step;
            }
        }
    }

    // ------------------------------------------------------------------ recover

    static Map<String, Object> recover(Properties bench, MessageStoreConfig cfg) throws Exception {
        boolean halt = Boolean.parseBoolean(bench.getProperty("halt", "false"));
        boolean clean = !Files.exists(Paths.get(cfg.getStorePathRootDir(), "abort"));
        long t0 = System.nanoTime();
        DefaultMessageStore store = new DefaultMessageStore(cfg,
            new BrokerStatsManager("DefaultCluster", true), null, new BrokerConfig());
        if (!store.load()) {
            Util.die("DefaultMessageStore.load() returned false", null);
        }
        long loaded = System.nanoTime() - t0;
        store.start();
        long opened = System.nanoTime() - t0;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("impl", "java");
        r.put("lastExitOK", clean);
        r.put("loadNanos", loaded);
        r.put("openNanos", opened);
        r.put("logBytes", store.getMaxPhyOffset());
        r.put("memory", memory());
        if (halt) {
            PrintStream out = Util.utf8Stdout();
            out.println(json(r));
            out.flush();
            Runtime.getRuntime().halt(0);
        }
        long t1 = System.nanoTime();
        store.shutdown();
        r.put("closeNanos", System.nanoTime() - t1);
        return r;
    }

    // ------------------------------------------------------------------ memory and output

    static Map<String, Object> memory() throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\\s+");
            if (f.length >= 2 && (f[0].equals("VmHWM:") || f[0].equals("VmRSS:") || f[0].equals("RssAnon:")
                || f[0].equals("RssFile:"))) {
                m.put(f[0].substring(0, f[0].length() - 1), Long.parseLong(f[1]) * 1024);
            }
        }
        Runtime rt = Runtime.getRuntime();
        m.put("HeapUsed", rt.totalMemory() - rt.freeMemory());
        m.put("HeapCommitted", rt.totalMemory());
        return m;
    }

    static String json(Map<String, Object> m) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(e.getKey()).append("\":");
            Object v = e.getValue();
            if (v instanceof Map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> sub = (Map<String, Object>) v;
                b.append(json(sub));
            } else if (v instanceof String) {
                b.append('"').append(v).append('"');
            } else {
                b.append(v);
            }
        }
        return b.append('}').toString();
    }

    /**
     * Log-linear latency histogram: values below 32 have a bucket each; above, every power of two
     * 2^e is split into 32 buckets of width 2^(e-5). A value is reported as its bucket's midpoint.
     */
    static final class Hist {
        static final int SUB = 32;
        static final int BUCKETS = SUB + (63 - 5) * SUB;

        static int index(long v) {
            if (v < SUB) {
                return (int) Math.max(v, 0);
            }
            int e = 63 - Long.numberOfLeadingZeros(v);
            return SUB + (e - 5) * SUB + (int) ((v >>> (e - 5)) - SUB);
        }

        static long mid(int i) {
            if (i < SUB) {
                return i;
            }
            int e = (i - SUB) / SUB + 5;
            long low = (long) (SUB + (i - SUB) % SUB) << (e - 5);
            return low + ((1L << (e - 5)) >>> 1);
        }

        static void add(long[] h, long v) {
            h[index(v)]++;
        }

        static long[] merge(long[][] hs) {
            long[] all = new long[BUCKETS];
            for (long[] h : hs) {
                for (int i = 0; i < BUCKETS; i++) {
                    all[i] += h[i];
                }
            }
            return all;
        }

        static Map<String, Object> summary(long[] h) {
            long n = 0;
            for (long c : h) {
                n += c;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", n);
            m.put("p50Nanos", rank(h, n, 500));
            m.put("p99Nanos", rank(h, n, 990));
            m.put("p999Nanos", rank(h, n, 999));
            m.put("maxNanos", rank(h, n, 1000));
            return m;
        }

        /** The nearest-rank percentile perMille/1000. */
        static long rank(long[] h, long n, int perMille) {
            long want = Math.max((n * perMille + 999) / 1000, 1);
            long seen = 0;
            for (int i = 0; i < BUCKETS; i++) {
                seen += h[i];
                if (seen >= want) {
                    return mid(i);
                }
            }
            return 0;
        }
    }
}
