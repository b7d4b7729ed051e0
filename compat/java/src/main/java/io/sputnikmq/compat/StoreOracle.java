package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * Drives the real 4.9.8 {@code DefaultMessageStore} (rocketmq-store jar) for the store interop proofs.
 *
 * <pre>
 *   StoreOracle write [--halt] key=value...   JSON-lines ops on stdin → one result line per op
 *   StoreOracle dump key=value...             canonical JSON-lines dump of an existing store dir
 *   StoreOracle kill key=value... topic=T queues=N bodySize=B
 *                                             puts forever, "ack SEQ WROTEOFFSET QUEUEOFFSET" per put
 * </pre>
 *
 * Every key=value is applied to MessageStoreConfig with MixAll.properties2Object (so enums such as
 * flushDiskType and brokerRole go through their String setters). Keys the config does not know
 * (topic, queues, bodySize) are read by the subcommand. haListenPort defaults to 0 here (an
 * ephemeral port) so parallel runs do not fight over 10912. Schema of ops and dump lines:
 * compat/storeoracle/README.md.
 *
 * The ScheduleMessageService is never started: start() runs with brokerRole=SLAVE (which makes
 * handleScheduleMessageService shut the service down instead of starting its timers) and the
 * configured role is restored afterwards, so delayed messages stay in SCHEDULE_TOPIC_XXXX and the
 * store does not change behind the dump's back.
 *
 * On JDK 9+ run with {@code --add-opens java.base/java.nio=ALL-UNNAMED --add-opens
 * java.base/sun.nio.ch=ALL-UNNAMED}: MappedFile.clean reflects into DirectByteBuffer when a mapped
 * file is released (shutdown), and throws InaccessibleObjectException without them.
 */
public final class StoreOracle {
    private StoreOracle() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length < 1) {
            Util.die("usage: StoreOracle write [--halt] | dump | kill  key=value...", null);
        }
        boolean halt = false;
        Properties props = new Properties();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--halt")) {
                halt = true;
                continue;
            }
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                Util.die("bad setting (want key=value): " + args[i], null);
            }
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        PrintStream out = Util.utf8Stdout();
        try {
            run(args[0], props, halt, out);
        } catch (Throwable t) {
            out.flush();
            Util.die("StoreOracle " + args[0] + " failed", t);
        }
        out.flush();
        System.exit(0);
    }

    private static void run(String cmd, Properties props, boolean halt, PrintStream out) throws Exception {
        switch (cmd) {
            case "write":
                write(props, halt, out);
                break;
            case "dump":
                StoreOracleDump.dump(props, out);
                break;
            case "kill":
                kill(props, out);
                break;
            default:
                Util.die("unknown subcommand " + cmd, null);
        }
    }

    // ------------------------------------------------------------------ store lifecycle

    static MessageStoreConfig config(Properties props) {
        MessageStoreConfig cfg = new MessageStoreConfig();
        if (props.getProperty("haListenPort") == null) {
            cfg.setHaListenPort(0);
        }
        MixAll.properties2Object(props, cfg);
        if (props.getProperty("storePathRootDir") == null) {
            Util.die("storePathRootDir=DIR is required (the default is under user.home)", null);
        }
        return cfg;
    }

    /** Constructs, loads (recovery) and starts a store; dies when load() reports failure. */
    static DefaultMessageStore open(MessageStoreConfig cfg) throws Exception {
        DefaultMessageStore store = new DefaultMessageStore(cfg,
            new BrokerStatsManager("DefaultCluster", true), null, new BrokerConfig());
        if (!store.load()) {
            Util.die("DefaultMessageStore.load() returned false", null);
        }
        BrokerRole role = cfg.getBrokerRole();
        cfg.setBrokerRole(BrokerRole.SLAVE);
        try {
            store.start();
        } finally {
            cfg.setBrokerRole(role);
        }
        return store;
    }

    /** Polls until the reput service has dispatched everything the commit log holds. */
    static void waitDispatched(DefaultMessageStore store) throws InterruptedException {
        for (int i = 0; i < 6000 && store.dispatchBehindBytes() > 0; i++) {
            Thread.sleep(5);
        }
        if (store.dispatchBehindBytes() > 0) {
            Util.die("dispatch did not catch up: behind " + store.dispatchBehindBytes(), null);
        }
    }

    // ------------------------------------------------------------------ write

    static void write(Properties props, boolean halt, PrintStream out) throws Exception {
        List<JSONObject> ops = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.trim().isEmpty()) {
                ops.add(JSON.parseObject(line));
            }
        }
        DefaultMessageStore store = open(config(props));
        StoreOracleOps applier = new StoreOracleOps(store);
        for (JSONObject op : ops) {
            for (Map<String, Object> r : applier.apply(op)) {
                out.println(StoreOracleJson.write(r));
            }
        }
        out.flush();
        if (halt) {
            Runtime.getRuntime().halt(0);
        }
        waitDispatched(store);
        store.shutdown();
    }

    /** The result line of one put, in the order of PutMessageResult/AppendMessageResult's getters. */
    static Map<String, Object> result(String op, PutMessageResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op);
        m.put("status", r.getPutMessageStatus().name());
        if (r.getAppendMessageResult() != null) {
            m.put("appendStatus", r.getAppendMessageResult().getStatus().name());
            m.put("wroteOffset", r.getAppendMessageResult().getWroteOffset());
            m.put("wroteBytes", r.getAppendMessageResult().getWroteBytes());
            m.put("msgId", r.getAppendMessageResult().getMsgId());
            m.put("logicsOffset", r.getAppendMessageResult().getLogicsOffset());
            m.put("storeTimestamp", r.getAppendMessageResult().getStoreTimestamp());
            m.put("msgNum", r.getAppendMessageResult().getMsgNum());
        }
        return m;
    }

    // ------------------------------------------------------------------ kill

    static void kill(Properties props, PrintStream out) throws Exception {
        String topic = props.getProperty("topic", "KillTopic");
        int queues = Integer.parseInt(props.getProperty("queues", "2"));
        int bodySize = Integer.parseInt(props.getProperty("bodySize", "100"));
        MessageStoreConfig cfg = config(props);
        DefaultMessageStore store = open(cfg);
        StoreOracleOps applier = new StoreOracleOps(store);
        for (long seq = 0; ; seq++) {
            MessageExtBrokerInner msg = applier.killMessage(topic, (int) (seq % queues), seq, bodySize);
            PutMessageResult r = store.putMessage(msg);
            if (r.isOk()) {
                out.println("ack " + seq + " " + r.getAppendMessageResult().getWroteOffset() + " "
                    + r.getAppendMessageResult().getLogicsOffset());
                out.flush();
            } else {
                System.err.println("put " + seq + " failed: " + r.getPutMessageStatus());
                Thread.sleep(10);
            }
        }
    }
}
