package io.sputnikmq.compat;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.QueryMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * StoreOracle dump: opens an existing store directory with the real DefaultMessageStore
 * (load() = recovery, start()), waits for the reput service, and prints the canonical JSON-lines
 * dump described in compat/storeoracle/README.md, in this order: checkpoint, file*, store,
 * queue*, unit*, get*, message*, record*, query*, time*, end, then — after shutdown() — closed.
 */
final class StoreOracleDump {
    static final String GROUP = "STORE_ORACLE_GROUP";
    static final int MAX_MSG_NUMS = 32;

    private final DefaultMessageStore store;
    private final PrintStream out;
    private final List<Map<String, Object>> messages = new ArrayList<>();
    private final List<Map<String, Object>> records = new ArrayList<>();
    private int lines;

    private StoreOracleDump(DefaultMessageStore store, PrintStream out) {
        this.store = store;
        this.out = out;
    }

    static void dump(Properties props, PrintStream out) throws Exception {
        MessageStoreConfig cfg = StoreOracle.config(props);
        File root = new File(cfg.getStorePathRootDir());
        if (!root.isDirectory()) {
            Util.die("no store directory " + root, null);
        }
        Map<String, Object> checkpoint = checkpoint(root, "checkpoint");
        List<Map<String, Object>> files = files(root);
        boolean abortBefore = new File(root, "abort").exists();
        boolean lockBefore = new File(root, "lock").exists();
        DefaultMessageStore store = StoreOracle.open(cfg);
        StoreOracle.waitDispatched(store);
        StoreOracleDump d = new StoreOracleDump(store, out);
        d.emit(checkpoint);
        files.forEach(d::emit);
        Map<String, Object> s = line("store");
        s.put("abortBefore", abortBefore);
        s.put("lockBefore", lockBefore);
        s.put("minPhyOffset", store.getMinPhyOffset());
        s.put("maxPhyOffset", store.getMaxPhyOffset());
        d.emit(s);
        d.queues(queueDirs(root));
        d.records();
        d.queries();
        d.times();
        Map<String, Object> end = line("end");
        end.put("lines", d.lines);
        d.emit(end);
        out.flush();
        store.shutdown();
        Map<String, Object> closed = checkpoint(root, "closed");
        closed.put("abortAfter", new File(root, "abort").exists());
        closed.put("lockAfter", new File(root, "lock").exists());
        d.emit(closed);
    }

    static Map<String, Object> line(String type) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        return m;
    }

    private void emit(Map<String, Object> m) {
        out.println(StoreOracleJson.write(m));
        lines++;
    }

    // ------------------------------------------------------------------ before opening

    /** The three longs StoreCheckpoint reads at 0, 8 and 16 of the "checkpoint" file. */
    static Map<String, Object> checkpoint(File root, String type) throws IOException {
        Map<String, Object> m = line(type);
        File f = new File(root, "checkpoint");
        m.put("exists", f.exists());
        if (f.exists() && f.length() >= 24) {
            try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
                m.put("physicMsgTimestamp", raf.readLong());
                m.put("logicsMsgTimestamp", raf.readLong());
                m.put("indexMsgTimestamp", raf.readLong());
            }
        }
        return m;
    }

    /** Every file under commitlog/ and consumequeue/ (sorted path, size). */
    static List<Map<String, Object>> files(File root) {
        TreeMap<String, Long> all = new TreeMap<>();
        walk(root, new File(root, "commitlog"), all);
        walk(root, new File(root, "consumequeue"), all);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : all.entrySet()) {
            Map<String, Object> m = line("file");
            m.put("path", e.getKey());
            m.put("size", e.getValue());
            out.add(m);
        }
        return out;
    }

    private static void walk(File root, File dir, Map<String, Long> acc) {
        File[] list = dir.listFiles();
        if (list == null) {
            return;
        }
        for (File f : list) {
            if (f.isDirectory()) {
                walk(root, f, acc);
            } else {
                acc.put(root.toPath().relativize(f.toPath()).toString().replace(File.separatorChar, '/'), f.length());
            }
        }
    }

    /** consumequeue/TOPIC/QUEUEID directories: topics by String order, queue ids numerically. */
    static TreeMap<String, List<Integer>> queueDirs(File root) {
        TreeMap<String, List<Integer>> out = new TreeMap<>();
        File[] topics = new File(root, "consumequeue").listFiles(File::isDirectory);
        for (File t : topics == null ? new File[0] : topics) {
            List<Integer> ids = new ArrayList<>();
            File[] qs = t.listFiles(File::isDirectory);
            for (File q : qs == null ? new File[0] : qs) {
                try {
                    ids.add(Integer.parseInt(q.getName()));
                } catch (NumberFormatException e) {
                    // Java's loadConsumeQueue skips such directories too.
                }
            }
            Collections.sort(ids);
            out.put(t.getName(), ids);
        }
        return out;
    }

    // ------------------------------------------------------------------ queues

    private void queues(TreeMap<String, List<Integer>> dirs) {
        List<Map<String, Object>> units = new ArrayList<>();
        List<Map<String, Object>> gets = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : dirs.entrySet()) {
            for (int qid : e.getValue()) {
                emit(queue(e.getKey(), qid));
                units.addAll(units(e.getKey(), qid));
                gets.addAll(gets(e.getKey(), qid));
            }
        }
        units.forEach(this::emit);
        gets.forEach(this::emit);
        messages.forEach(this::emit);
    }

    private Map<String, Object> queue(String topic, int qid) {
        Map<String, Object> m = line("queue");
        m.put("topic", topic);
        m.put("queueId", qid);
        m.put("minOffset", store.getMinOffsetInQueue(topic, qid));
        m.put("maxOffset", store.getMaxOffsetInQueue(topic, qid));
        m.put("messageTotal", store.getMessageTotalInQueue(topic, qid));
        m.put("earliestMsgTime", store.getEarliestMessageTime(topic, qid));
        return m;
    }

    /** Every unit between min and max, read with ConsumeQueue.getIndexBuffer. */
    private List<Map<String, Object>> units(String topic, int qid) {
        List<Map<String, Object>> out = new ArrayList<>();
        ConsumeQueue cq = store.getConsumeQueue(topic, qid);
        if (cq == null) {
            return out;
        }
        for (long i = cq.getMinOffsetInQueue(); i < cq.getMaxOffsetInQueue(); i++) {
            Map<String, Object> m = line("unit");
            m.put("topic", topic);
            m.put("queueId", qid);
            m.put("offset", i);
            SelectMappedBufferResult r = cq.getIndexBuffer(i);
            if (r == null) {
                m.put("missing", true);
            } else {
                try {
                    ByteBuffer b = r.getByteBuffer();
                    m.put("commitLogOffset", b.getLong());
                    m.put("size", b.getInt());
                    m.put("tagsCode", b.getLong());
                } finally {
                    r.release();
                }
            }
            m.put("storeTime", store.getMessageStoreTimeStamp(topic, qid, i));
            out.add(m);
        }
        return out;
    }

    /** getMessage from min to max (and once at max) in MAX_MSG_NUMS steps, no filter. */
    private List<Map<String, Object>> gets(String topic, int qid) {
        List<Map<String, Object>> out = new ArrayList<>();
        long max = store.getMaxOffsetInQueue(topic, qid);
        long offset = store.getMinOffsetInQueue(topic, qid);
        for (int guard = 0; guard < 100000; guard++) {
            GetMessageResult r = store.getMessage(GROUP, topic, qid, offset, MAX_MSG_NUMS, null);
            Map<String, Object> m = line("get");
            m.put("topic", topic);
            m.put("queueId", qid);
            m.put("offset", offset);
            if (r == null) {
                m.put("status", "NULL");
                out.add(m);
                break;
            }
            m.put("status", r.getStatus().name());
            m.put("nextBeginOffset", r.getNextBeginOffset());
            m.put("minOffset", r.getMinOffset());
            m.put("maxOffset", r.getMaxOffset());
            m.put("count", r.getMessageCount());
            m.put("bufferTotalSize", r.getBufferTotalSize());
            out.add(m);
            try {
                for (ByteBuffer b : r.getMessageBufferList()) {
                    byte[] rec = new byte[b.remaining()];
                    b.duplicate().get(rec);
                    Map<String, Object> msg = line("message");
                    msg.putAll(StoreOracleJson.fields(rec));
                    messages.add(msg);
                }
            } finally {
                r.release();
            }
            if (offset >= max || r.getNextBeginOffset() <= offset) {
                break;
            }
            offset = r.getNextBeginOffset();
        }
        return out;
    }

    // ------------------------------------------------------------------ commit-log walk

    /** Walks min..max physical offset with getCommitLogData, blank records included. */
    private void records() {
        long offset = store.getMinPhyOffset();
        long max = store.getMaxPhyOffset();
        while (offset < max) {
            Map<String, Object> m = line("record");
            m.put("offset", offset);
            long next = record(offset, m);
            records.add(m);
            emit(m);
            if (next <= offset) {
                break;
            }
            offset = next;
        }
    }

    /** Fills m for the record at offset and returns the next offset (≤ offset stops the walk). */
    private long record(long offset, Map<String, Object> m) {
        SelectMappedBufferResult r = store.getCommitLogData(offset);
        if (r == null) {
            m.put("kind", "missing");
            return offset;
        }
        try {
            ByteBuffer b = r.getByteBuffer().slice();
            if (b.remaining() < 8) {
                m.put("kind", "short");
                return offset;
            }
            int size = b.getInt(0);
            int magic = b.getInt(4);
            m.put("size", size);
            if (magic == StoreOracleJson.BLANK_MAGIC) {
                m.put("kind", "blank");
                byte[] head = new byte[8];
                b.get(head);
                m.put("hex", Util.hex(head));
                return offset + size;
            }
            if (magic != StoreOracleJson.MESSAGE_MAGIC || size <= 0 || size > b.remaining()) {
                m.put("kind", "bad");
                m.put("magic", magic);
                return offset;
            }
            byte[] rec = new byte[size];
            b.get(rec);
            m.put("kind", "message");
            m.putAll(StoreOracleJson.fields(rec));
            return offset + size;
        } finally {
            r.release();
        }
    }

    // ------------------------------------------------------------------ index queries

    private void queries() {
        TreeMap<String, TreeSet<String>> keys = new TreeMap<>();
        for (Map<String, Object> rec : records) {
            if (!"message".equals(rec.get("kind")) || rec.get("properties") == null) {
                continue;
            }
            Map<String, String> props = MessageDecoder.string2messageProperties((String) rec.get("properties"));
            TreeSet<String> set = keys.computeIfAbsent((String) rec.get("topic"), k -> new TreeSet<>());
            String ks = props.get(MessageConst.PROPERTY_KEYS);
            if (ks != null) {
                for (String k : ks.split(MessageConst.KEY_SEPARATOR)) {
                    if (k.length() > 0) {
                        set.add(k);
                    }
                }
            }
            String uniq = props.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (uniq != null) {
                set.add(uniq);
            }
        }
        for (Map.Entry<String, TreeSet<String>> e : keys.entrySet()) {
            for (String key : e.getValue()) {
                emit(query(e.getKey(), key));
            }
        }
    }

    private Map<String, Object> query(String topic, String key) {
        QueryMessageResult r = store.queryMessage(topic, key, 64, 0, Long.MAX_VALUE);
        List<Long> offsets = new ArrayList<>();
        try {
            for (ByteBuffer b : r.getMessageBufferList()) {
                offsets.add(b.getLong(b.position() + MessageDecoder.PHY_POS_POSITION));
            }
        } finally {
            r.release();
        }
        Collections.sort(offsets);
        Map<String, Object> m = line("query");
        m.put("topic", topic);
        m.put("key", key);
        m.put("offsets", offsets);
        return m;
    }

    // ------------------------------------------------------------------ time lookups

    private void times() {
        for (Map<String, Object> msg : messages) {
            if (msg.get("storeTimestamp") == null) {
                continue;
            }
            String topic = (String) msg.get("topic");
            int qid = (Integer) msg.get("queueId");
            long t = (Long) msg.get("storeTimestamp");
            Map<String, Object> m = line("time");
            m.put("topic", topic);
            m.put("queueId", qid);
            m.put("queueOffset", msg.get("queueOffset"));
            m.put("storeTimestamp", t);
            m.put("offsets", Arrays.asList(store.getOffsetInQueueByTime(topic, qid, t - 1),
                store.getOffsetInQueueByTime(topic, qid, t), store.getOffsetInQueueByTime(topic, qid, t + 1)));
            emit(m);
        }
    }
}
