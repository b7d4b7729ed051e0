package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.broker.filter.ConsumerFilterData;
import org.apache.rocketmq.broker.filter.ConsumerFilterManager;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.broker.topic.TopicConfigManager;
import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.filter.util.BloomFilterData;
import org.apache.rocketmq.store.schedule.ScheduleMessageService;

/**
 * The broker's config JSON files as the real managers write and read them (store/config).
 *
 * <pre>
 *   ConfigFiles gen OUTDIR              scenarios → OUTDIR/SCENARIO/{topics,subscriptionGroup,
 *                                       consumerOffset,delayOffset,consumerFilter}.json
 *   ConfigFiles reencode OUTDIR FILE... each FILE decoded by a fresh manager (kind from the file
 *                                       name: it must contain topics, subscriptionGroup,
 *                                       consumerOffset, delayOffset or consumerFilter) and its
 *                                       encode(true) written to OUTDIR/basename, or
 *                                       "ERROR class: message" when decode throws
 * </pre>
 *
 * Managers are built with their no-arg constructors (no BrokerController): TopicConfigManager,
 * SubscriptionGroupManager (its built-in groups cleared first), ConsumerOffsetManager,
 * ConsumerFilterManager (bloom filter createByFn(20, 64)) and ScheduleMessageService(null).
 * The scenarios must stay in step with store/config/scenario_test.go, which builds the same tables
 * through the Go API.
 */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length >= 2 && args[0].equals("gen")) {
            gen(Paths.get(args[1]));
        } else if (args.length >= 2 && args[0].equals("reencode")) {
            Path out = Paths.get(args[1]);
            Files.createDirectories(out);
            for (int i = 2; i < args.length; i++) {
                reencode(out, Paths.get(args[i]));
            }
        } else {
            Util.die("usage: ConfigFiles gen OUTDIR | reencode OUTDIR FILE...", null);
        }
    }

    // ------------------------------------------------------------------ reencode

    static void reencode(Path out, Path in) throws Exception {
        String name = in.getFileName().toString();
        String json = new String(Files.readAllBytes(in), StandardCharsets.UTF_8);
        String result;
        try {
            result = decodeEncode(name, json);
        } catch (Exception | Error e) {
            result = "ERROR " + e.getClass().getName() + ": " + e.getMessage();
        }
        Files.write(out.resolve(name), result.getBytes(StandardCharsets.UTF_8));
    }

    static String decodeEncode(String name, String json) {
        if (name.contains("topics")) {
            // a fresh manager: the no-arg constructor puts no system topics
            TopicConfigManager m = new TopicConfigManager();
            m.decode(json);
            return m.encode(true);
        } else if (name.contains("subscriptionGroup")) {
            // decode() builds its own SubscriptionGroupManager, whose constructor adds the built-in
            // groups; those not named in the input are removed again so that only the file's
            // table is compared. The file's dataVersion is not read by 4.9.8 (final field, no
            // setter): the output carries a fresh one (counter 0, timestamp now).
            SubscriptionGroupManager m = new SubscriptionGroupManager();
            Set<String> builtIn = new HashSet<>(m.getSubscriptionGroupTable().keySet());
            m.getSubscriptionGroupTable().clear();
            m.decode(json);
            JSONObject table = JSON.parseObject(json).getJSONObject("subscriptionGroupTable");
            for (String g : builtIn) {
                if (table == null || !table.containsKey(g)) {
                    m.getSubscriptionGroupTable().remove(g);
                }
            }
            return m.encode(true);
        } else if (name.contains("consumerOffset")) {
            ConsumerOffsetManager m = new ConsumerOffsetManager();
            m.decode(json);
            return m.encode(true);
        } else if (name.contains("delayOffset")) {
            ScheduleMessageService m = new ScheduleMessageService(null);
            m.decode(json);
            return m.encode(true);
        } else if (name.contains("consumerFilter")) {
            ConsumerFilterManager m = new ConsumerFilterManager();
            m.decode(json);
            return m.encode(true);
        }
        throw new IllegalArgumentException("unknown config file kind: " + name);
    }

    // ------------------------------------------------------------------ gen

    static void gen(Path out) throws Exception {
        TopicConfigManager emptyTopics = new TopicConfigManager();
        version(emptyTopics.getDataVersion(), 1, 0);
        write(out.resolve("empty"), emptyTopics, emptyGroups(), new ConsumerOffsetManager(),
            new ScheduleMessageService(null), new ConsumerFilterManager());
        write(out.resolve("basic"), basicTopics(), basicGroups(), basicOffsets(), basicDelay(), basicFilter());
        write(out.resolve("many"), manyTopics(), manyGroups(), manyOffsets(), manyDelay(), manyFilter());
    }

    static void write(Path dir, TopicConfigManager t, SubscriptionGroupManager g, ConsumerOffsetManager o,
        ScheduleMessageService d, ConsumerFilterManager f) throws Exception {
        Files.createDirectories(dir);
        Files.write(dir.resolve("topics.json"), t.encode(true).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("subscriptionGroup.json"), g.encode(true).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("consumerOffset.json"), o.encode(true).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("delayOffset.json"), d.encode(true).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("consumerFilter.json"), f.encode(true).getBytes(StandardCharsets.UTF_8));
    }

    static void version(DataVersion v, long timestamp, long counter) {
        v.setTimestamp(timestamp);
        v.setCounter(new AtomicLong(counter));
    }

    static TopicConfig topic(String name, int r, int w, int perm, boolean order, int sysFlag,
        TopicFilterType type) {
        TopicConfig tc = new TopicConfig(name, r, w, perm);
        tc.setOrder(order);
        tc.setTopicSysFlag(sysFlag);
        tc.setTopicFilterType(type);
        return tc;
    }

    static TopicConfigManager basicTopics() {
        TopicConfigManager m = new TopicConfigManager();
        ConcurrentMap<String, TopicConfig> t = m.getTopicConfigTable();
        t.put("TopicTest", topic("TopicTest", 4, 4, 6, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("TBW102", topic("TBW102", 8, 8, 7, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("SCHEDULE_TOPIC_XXXX", topic("SCHEDULE_TOPIC_XXXX", 18, 18, 6, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("OrderTopic", topic("OrderTopic", 8, 4, 4, true, 0, TopicFilterType.MULTI_TAG));
        t.put("%RETRY%G1", topic("%RETRY%G1", 1, 1, 6, false, 1, TopicFilterType.SINGLE_TAG));
        t.put("%DLQ%G1", topic("%DLQ%G1", 1, 1, 6, false, 1, TopicFilterType.SINGLE_TAG));
        t.put("DefaultCluster", topic("DefaultCluster", 16, 16, 7, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("主题-ü😀\"\\/\t", topic("主题-ü😀\"\\/\t", 2, 3, 2, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("Aa", topic("Aa", 1, 1, 6, false, 0, TopicFilterType.SINGLE_TAG));
        t.put("BB", topic("BB", 1, 1, 6, false, 0, TopicFilterType.SINGLE_TAG)); // same hash as "Aa"
        TopicConfig nullType = topic("NoFilterType", 0, 0, 0, false, 0, null);
        t.put("NoFilterType", nullType);
        t.remove("TopicTest");
        t.put("TopicTest", topic("TopicTest", 4, 4, 6, false, 0, TopicFilterType.SINGLE_TAG));
        version(m.getDataVersion(), 1690000000000L, 12);
        return m;
    }

    static SubscriptionGroupManager emptyGroups() {
        SubscriptionGroupManager m = new SubscriptionGroupManager();
        m.getSubscriptionGroupTable().clear();
        version(m.getDataVersion(), 0, 0);
        return m;
    }

    static SubscriptionGroupConfig group(String name) {
        SubscriptionGroupConfig g = new SubscriptionGroupConfig();
        g.setGroupName(name);
        return g;
    }

    static SubscriptionGroupManager basicGroups() {
        SubscriptionGroupManager m = new SubscriptionGroupManager();
        ConcurrentMap<String, SubscriptionGroupConfig> t = m.getSubscriptionGroupTable();
        t.clear();
        t.put("G1", group("G1"));
        SubscriptionGroupConfig g2 = group("G2");
        g2.setConsumeEnable(false);
        g2.setConsumeFromMinEnable(false);
        g2.setConsumeBroadcastEnable(false);
        g2.setRetryQueueNums(3);
        g2.setRetryMaxTimes(-1);
        g2.setBrokerId(1);
        g2.setWhichBrokerWhenConsumeSlowly(Long.MAX_VALUE);
        g2.setNotifyConsumerIdsChangedEnable(false);
        t.put("G2", g2);
        t.put("消费组-😀", group("消费组-😀"));
        t.put("NoName", new SubscriptionGroupConfig());
        t.put("TOOLS_CONSUMER", group("TOOLS_CONSUMER"));
        version(m.getDataVersion(), 1690000000001L, 3);
        return m;
    }

    static ConsumerOffsetManager basicOffsets() {
        ConsumerOffsetManager m = new ConsumerOffsetManager();
        m.commitOffset("c", "G1", "TopicTest", 0, 120);
        m.commitOffset("c", "G1", "TopicTest", 1, 118);
        m.commitOffset("c", "G1", "TopicTest", 3, 127);
        m.commitOffset("c", "G1", "TopicTest", 2, 131);
        m.commitOffset("c", "G1", "%RETRY%G1", 0, 0);
        int[] sparse = {1000, 0, 33, 64, 97, 31, 32, 2047};
        for (int q : sparse) {
            m.commitOffset("c", "G2", "OrderTopic", q, (long) q * 1_000_000_007L);
        }
        m.commitOffset("c", "消费组", "主题-😀", 0, Long.MAX_VALUE);
        m.commitOffset("c", "G1", "Neg", 5, -1);
        return m;
    }

    static ScheduleMessageService basicDelay() {
        ScheduleMessageService s = new ScheduleMessageService(null);
        ConcurrentMap<Integer, Long> t = offsetTable(s);
        t.put(3, 7L);
        t.put(1, 0L);
        t.put(2, 15L);
        t.put(18, 123456789012L);
        return s;
    }

    @SuppressWarnings("unchecked")
    static ConcurrentMap<Integer, Long> offsetTable(ScheduleMessageService s) {
        try {
            java.lang.reflect.Field f = ScheduleMessageService.class.getDeclaredField("offsetTable");
            f.setAccessible(true);
            return (ConcurrentMap<Integer, Long>) f.get(s);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static ConsumerFilterData filterData(String topic, String group, String expr, String type, long born,
        long dead, int bitNum, int[] bitPos, long clientVersion) {
        ConsumerFilterData d = new ConsumerFilterData();
        d.setTopic(topic);
        d.setConsumerGroup(group);
        d.setExpression(expr);
        d.setExpressionType(type);
        d.setBornTime(born);
        d.setDeadTime(dead);
        if (bitPos != null) {
            BloomFilterData b = new BloomFilterData();
            b.setBitNum(bitNum);
            b.setBitPos(bitPos);
            d.setBloomFilterData(b);
        }
        d.setClientVersion(clientVersion);
        return d;
    }

    static void putFilter(ConsumerFilterManager m, ConsumerFilterData d) {
        m.getFilterDataByTopic()
            .computeIfAbsent(d.getTopic(), ConsumerFilterManager.FilterDataMapByTopic::new)
            .getGroupFilterData().put(d.getConsumerGroup(), d);
    }

    static ConsumerFilterManager basicFilter() {
        ConsumerFilterManager m = new ConsumerFilterManager();
        putFilter(m, filterData("T1", "G1", "a > 5 AND b = 'x'", "SQL92", 1690000000000L, 0, 216,
            new int[] {3, 17, 200}, 409));
        putFilter(m, filterData("T1", "G2", "TagA || TagB", "TAG", 1690000000000L, 1690000000500L, 0, null,
            0));
        // dead (deadTime >= bornTime) but in the future, so that encode's clean() (24 h) keeps it
        putFilter(m, filterData("T2", "G1", "c IS NOT NULL", "SQL92", 1690000000000L, 4102444800000L,
            216, new int[] {0, 1, 215}, -3));
        putFilter(m, filterData("主题", "组", null, null, 5, 5, 1, new int[] {0}, 1));
        return m;
    }

    // ------------------------------------------------------------------ many

    static String manyTopicName(int i) {
        return "T" + i + "_" + (i * 7919 % 1000);
    }

    static TopicConfigManager manyTopics() {
        TopicConfigManager m = new TopicConfigManager();
        ConcurrentMap<String, TopicConfig> t = m.getTopicConfigTable();
        int[] perms = {2, 4, 6, 7};
        for (int i = 0; i < 1800; i++) {
            String n = manyTopicName(i);
            t.put(n, topic(n, 1 + i % 16, 1 + (i * 3) % 16, perms[i % 4], i % 5 == 0, i % 3,
                i % 7 == 0 ? TopicFilterType.MULTI_TAG : TopicFilterType.SINGLE_TAG));
        }
        for (int i = 0; i < 1800; i++) {
            if (i % 9 == 4) {
                t.remove(manyTopicName(i));
            }
        }
        for (int i = 0; i < 1800; i++) {
            if (i % 18 == 4) {
                String n = manyTopicName(i);
                t.put(n, topic(n, 8, 8, 6, false, 0, TopicFilterType.SINGLE_TAG));
            }
        }
        version(m.getDataVersion(), 1700000000123L, 1800);
        return m;
    }

    static SubscriptionGroupManager manyGroups() {
        SubscriptionGroupManager m = new SubscriptionGroupManager();
        ConcurrentMap<String, SubscriptionGroupConfig> t = m.getSubscriptionGroupTable();
        t.clear();
        for (int i = 0; i < 600; i++) {
            SubscriptionGroupConfig g = group("GID_" + i);
            g.setRetryMaxTimes(i % 20);
            g.setConsumeBroadcastEnable(i % 2 == 0);
            g.setBrokerId(i % 3);
            t.put(g.getGroupName(), g);
        }
        for (int i = 0; i < 600; i++) {
            if (i % 11 == 3) {
                t.remove("GID_" + i);
            }
        }
        version(m.getDataVersion(), 1700000000456L, 600);
        return m;
    }

    static ConsumerOffsetManager manyOffsets() {
        ConsumerOffsetManager m = new ConsumerOffsetManager();
        for (int i = 0; i < 1000; i++) {
            String topic = "T" + (i % 300);
            String group = "G" + i;
            for (int q = i % 8; q >= 0; q--) {
                m.commitOffset("c", group, topic, q, (long) i * 1000 + q);
            }
            if (i % 50 == 0) {
                for (int q : new int[] {33, 64, 97, 1024}) {
                    m.commitOffset("c", group, topic, q, q);
                }
            }
        }
        for (int i = 0; i < 1000; i += 13) {
            m.getOffsetTable().remove("T" + (i % 300) + "@G" + i);
        }
        return m;
    }

    static ScheduleMessageService manyDelay() {
        ScheduleMessageService s = new ScheduleMessageService(null);
        ConcurrentMap<Integer, Long> t = offsetTable(s);
        for (int level = 18; level >= 1; level--) {
            t.put(level, (long) level * 100);
        }
        for (int level = 100; level <= 4000; level += 100) {
            t.put(level, (long) level);
        }
        return s;
    }

    static ConsumerFilterManager manyFilter() {
        ConsumerFilterManager m = new ConsumerFilterManager();
        for (int i = 0; i < 300; i++) {
            String topic = "FT" + (i % 40);
            putFilter(m, filterData(topic, "FG" + i, "a > " + i, "SQL92", 1690000000000L + i,
                i % 3 == 0 ? 4102444800000L : 1, 216, new int[] {i % 216, (i * 7) % 216, 5}, i));
        }
        return m;
    }
}
