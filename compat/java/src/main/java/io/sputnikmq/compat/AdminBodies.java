package io.sputnikmq.compat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import org.apache.rocketmq.common.admin.ConsumeStats;
import org.apache.rocketmq.common.admin.OffsetWrapper;
import org.apache.rocketmq.common.admin.TopicOffset;
import org.apache.rocketmq.common.admin.TopicStatsTable;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.message.MessageQueueForC;
import org.apache.rocketmq.common.protocol.body.BrokerStatsData;
import org.apache.rocketmq.common.protocol.body.BrokerStatsItem;
import org.apache.rocketmq.common.protocol.body.ConsumeQueueData;
import org.apache.rocketmq.common.protocol.body.ConsumeStatsList;
import org.apache.rocketmq.common.protocol.body.QueryConsumeQueueResponseBody;
import org.apache.rocketmq.common.protocol.body.QueryCorrectionOffsetBody;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.filter.util.BitsArray;
import org.apache.rocketmq.store.ConsumeQueueExt;
import com.alibaba.fastjson.JSON;
import org.apache.rocketmq.common.protocol.body.GetConsumerStatusBody;
import org.apache.rocketmq.common.protocol.body.GroupList;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.body.ProducerInfo;
import org.apache.rocketmq.common.protocol.body.ProducerTableInfo;
import org.apache.rocketmq.common.protocol.body.QueryConsumeTimeSpanBody;
import org.apache.rocketmq.common.protocol.body.QueueTimeSpan;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.common.protocol.body.ResetOffsetBody;
import org.apache.rocketmq.common.protocol.body.ResetOffsetBodyForC;
import org.apache.rocketmq.common.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;

/**
 * The broker admin bodies (broker/admin_*.go) as the real 4.9.8 classes write them. Reads
 * tab-separated commands from stdin, prints one line per command:
 *
 * <pre>
 *   topicstats  BROKER  TOPIC:Q:MIN:MAX:TS ...   TopicStatsTable.encode()
 *   consumestats TPS BROKER TOPIC:Q:BO:CO:LT ... ConsumeStats.encode() (consumeTps = TPS)
 *   grouplist   G1  G2 ...                       GroupList.encode() (HashSet filled in order)
 *   kv          K1=V1  K2=V2 ...                 KVTable.encode() (HashMap(64) filled in order,
 *                                                as prepareRuntimeInfo's map)
 *   resetoffset BROKER TOPIC:Q:OFF ...           ResetOffsetBody.encode() (HashMap filled in order)
 *   resetoffsetc BROKER TOPIC:Q:OFF ...          ResetOffsetBodyForC.encode() of that HashMap as
 *                                                Broker2Client converts it
 *   clientstatus BROKER TOPIC:Q:OFF ...          a client's GetConsumerStatusBody
 *                                                (messageQueueTable filled in order)
 *   consumerstatus BROKER ID=TOPIC:Q:OFF,... ... the broker's GetConsumerStatusBody
 *                                                (consumerTable filled in order)
 *   statslist   ADDR TOTAL BROKER [G=GROUP | cs=TOPIC:Q:BO:CO:LT,...] ...
 *                                                ConsumeStatsList.encode(): G= starts a group's
 *                                                one-key HashMap, cs= adds a ConsumeStats to it
 *   querycq     MAX MIN FILTER|- SUBJSON|- rows|- PHY:SIZE:TAGS ...
 *                                                QueryConsumeQueueResponseBody.encode()
 *   extunit     TAGS TIME BITMAPHEX|-            JSON.toJSONString(new CqExtUnit(..)) and, tab
 *                                                separated, BitsArray.create(bitmap).toString()
 *                                                with line breaks as \n
 *   timespan    BROKER TOPIC:Q:MIN:MAX:CONSUME:DELAY ...
 *                                                QueryConsumeTimeSpanBody.encode()
 *   correction  Q:OFF ...                        QueryCorrectionOffsetBody.encode() (HashMap filled
 *                                                in order)
 *   producers   G=GROUP | CLIENTID,IP:PORT,LANG,VERSION,TS ...
 *                                                ProducerTableInfo.encode() (HashMap of lists)
 *   statsdata   SUM:TPS:AVGPT (minute) (hour) (day)
 *                                                BrokerStatsData.encode()
 *   group       JSON                             RemotingSerializable.decode(JSON,
 *                                                SubscriptionGroupConfig) written back with
 *                                                toJson(), "null", or "ERROR class"
 * </pre>
 */
public final class AdminBodies {
    private AdminBodies() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                out.println(run(f));
            } catch (Exception e) {
                out.println("ERROR " + e.getClass().getName());
            }
        }
        out.flush();
    }

    private static String run(String[] f) {
        switch (f[0]) {
            case "topicstats":
                return topicStats(f);
            case "consumestats":
                return consumeStats(f);
            case "grouplist": {
                GroupList g = new GroupList();
                HashSet<String> set = new HashSet<>();
                for (int i = 1; i < f.length; i++) {
                    set.add(f[i]);
                }
                g.setGroupList(set);
                return new String(g.encode(), StandardCharsets.UTF_8);
            }
            case "kv": {
                HashMap<String, String> m = new HashMap<>(64);
                for (int i = 1; i < f.length; i++) {
                    int eq = f[i].indexOf('=');
                    m.put(f[i].substring(0, eq), f[i].substring(eq + 1));
                }
                KVTable t = new KVTable();
                t.setTable(m);
                return new String(t.encode(), StandardCharsets.UTF_8);
            }
            case "resetoffset": {
                ResetOffsetBody b = new ResetOffsetBody();
                b.setOffsetTable(offsets(f[1], f, 2));
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "resetoffsetc": {
                List<MessageQueueForC> list = new ArrayList<>();
                for (Map.Entry<MessageQueue, Long> e : offsets(f[1], f, 2).entrySet()) {
                    MessageQueue mq = e.getKey();
                    list.add(new MessageQueueForC(mq.getTopic(), mq.getBrokerName(), mq.getQueueId(), e.getValue()));
                }
                ResetOffsetBodyForC b = new ResetOffsetBodyForC();
                b.setOffsetTable(list);
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "clientstatus": {
                GetConsumerStatusBody b = new GetConsumerStatusBody();
                b.setMessageQueueTable(offsets(f[1], f, 2));
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "consumerstatus": {
                Map<String, Map<MessageQueue, Long>> table = new HashMap<>();
                for (int i = 2; i < f.length; i++) {
                    int eq = f[i].indexOf('=');
                    String rows = f[i].substring(eq + 1);
                    String[] r = rows.isEmpty() ? new String[0] : rows.split(",");
                    String[] g = new String[r.length + 1];
                    System.arraycopy(r, 0, g, 1, r.length);
                    table.put(f[i].substring(0, eq), offsets(f[1], g, 1));
                }
                GetConsumerStatusBody b = new GetConsumerStatusBody();
                b.setConsumerTable(table);
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "statslist": {
                ConsumeStatsList l = new ConsumeStatsList();
                l.setBrokerAddr(f[1]);
                l.setTotalDiff(Long.parseLong(f[2]));
                List<ConsumeStats> cur = null;
                for (int i = 4; i < f.length; i++) {
                    if (f[i].startsWith("G=")) {
                        cur = new ArrayList<>();
                        HashMap<String, List<ConsumeStats>> m = new HashMap<>();
                        m.put(f[i].substring(2), cur);
                        l.getConsumeStatsList().add(m);
                        continue;
                    }
                    String rows = f[i].substring(3);
                    String[] r = rows.isEmpty() ? new String[0] : rows.split(",");
                    String[] g = new String[r.length + 3];
                    System.arraycopy(r, 0, g, 3, r.length);
                    g[1] = "0";
                    g[2] = f[3];
                    cur.add(consumeStatsOf(g));
                }
                return new String(l.encode(), StandardCharsets.UTF_8);
            }
            case "querycq": {
                QueryConsumeQueueResponseBody b = new QueryConsumeQueueResponseBody();
                b.setMaxQueueIndex(Long.parseLong(f[1]));
                b.setMinQueueIndex(Long.parseLong(f[2]));
                if (!f[3].equals("-")) {
                    b.setFilterData(f[3]);
                }
                if (!f[4].equals("-")) {
                    b.setSubscriptionData(RemotingSerializable.decode(f[4].getBytes(StandardCharsets.UTF_8), SubscriptionData.class));
                }
                if (!f[5].equals("-")) {
                    List<ConsumeQueueData> rows = new ArrayList<>();
                    for (int i = 6; i < f.length; i++) {
                        String[] p = f[i].split(":");
                        ConsumeQueueData d = new ConsumeQueueData();
                        d.setPhysicOffset(Long.parseLong(p[0]));
                        d.setPhysicSize(Integer.parseInt(p[1]));
                        d.setTagsCode(Long.parseLong(p[2]));
                        rows.add(d);
                    }
                    b.setQueueData(rows);
                }
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "extunit": {
                byte[] bits = f[3].equals("-") ? null : hex(f[3]);
                ConsumeQueueExt.CqExtUnit u = new ConsumeQueueExt.CqExtUnit(Long.parseLong(f[1]), Long.parseLong(f[2]), bits);
                String json = JSON.toJSONString(u);
                return bits == null ? json : json + "\t" + BitsArray.create(bits).toString().replace("\n", "\\n");
            }
            case "timespan": {
                List<QueueTimeSpan> spans = new ArrayList<>();
                for (int i = 2; i < f.length; i++) {
                    String[] p = f[i].split(":");
                    QueueTimeSpan t = new QueueTimeSpan();
                    t.setMessageQueue(new MessageQueue(p[0], f[1], Integer.parseInt(p[1])));
                    t.setMinTimeStamp(Long.parseLong(p[2]));
                    t.setMaxTimeStamp(Long.parseLong(p[3]));
                    t.setConsumeTimeStamp(Long.parseLong(p[4]));
                    t.setDelayTime(Long.parseLong(p[5]));
                    spans.add(t);
                }
                QueryConsumeTimeSpanBody b = new QueryConsumeTimeSpanBody();
                b.setConsumeTimeSpanSet(spans);
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "correction": {
                Map<Integer, Long> offsets = new HashMap<>();
                for (int i = 1; i < f.length; i++) {
                    String[] p = f[i].split(":");
                    offsets.put(Integer.parseInt(p[0]), Long.parseLong(p[1]));
                }
                QueryCorrectionOffsetBody b = new QueryCorrectionOffsetBody();
                b.setCorrectionOffsets(offsets);
                return new String(b.encode(), StandardCharsets.UTF_8);
            }
            case "producers": {
                Map<String, List<ProducerInfo>> data = new HashMap<>();
                List<ProducerInfo> cur = null;
                for (int i = 1; i < f.length; i++) {
                    if (f[i].startsWith("G=")) {
                        cur = new ArrayList<>();
                        data.put(f[i].substring(2), cur);
                        continue;
                    }
                    String[] p = f[i].split(",");
                    cur.add(new ProducerInfo(p[0], p[1], LanguageCode.valueOf(p[2]), Integer.parseInt(p[3]), Long.parseLong(p[4])));
                }
                return new String(new ProducerTableInfo(data).encode(), StandardCharsets.UTF_8);
            }
            case "statsdata": {
                BrokerStatsData d = new BrokerStatsData();
                d.setStatsMinute(statsItem(f[1]));
                d.setStatsHour(statsItem(f[2]));
                d.setStatsDay(statsItem(f[3]));
                return new String(d.encode(), StandardCharsets.UTF_8);
            }
            case "group": {
                SubscriptionGroupConfig c = RemotingSerializable.decode(f[1].getBytes(StandardCharsets.UTF_8),
                    SubscriptionGroupConfig.class);
                return c == null ? "null" : RemotingSerializable.toJson(c, false);
            }
            default:
                throw new IllegalArgumentException(f[0]);
        }
    }

    private static String topicStats(String[] f) {
        TopicStatsTable t = new TopicStatsTable();
        for (int i = 2; i < f.length; i++) {
            String[] p = f[i].split(":");
            TopicOffset o = new TopicOffset();
            o.setMinOffset(Long.parseLong(p[2]));
            o.setMaxOffset(Long.parseLong(p[3]));
            o.setLastUpdateTimestamp(Long.parseLong(p[4]));
            t.getOffsetTable().put(new MessageQueue(p[0], f[1], Integer.parseInt(p[1])), o);
        }
        return new String(t.encode(), StandardCharsets.UTF_8);
    }

    private static String consumeStats(String[] f) {
        return new String(consumeStatsOf(f).encode(), StandardCharsets.UTF_8);
    }

    /** f[1] = TPS, f[2] = BROKER, f[3..] = TOPIC:Q:BO:CO:LT. */
    private static ConsumeStats consumeStatsOf(String[] f) {
        ConsumeStats s = new ConsumeStats();
        s.setConsumeTps(Double.parseDouble(f[1]));
        for (int i = 3; i < f.length; i++) {
            String[] p = f[i].split(":");
            OffsetWrapper o = new OffsetWrapper();
            o.setBrokerOffset(Long.parseLong(p[2]));
            o.setConsumerOffset(Long.parseLong(p[3]));
            o.setLastTimestamp(Long.parseLong(p[4]));
            s.getOffsetTable().put(new MessageQueue(p[0], f[2], Integer.parseInt(p[1])), o);
        }
        return s;
    }

    /** A HashMap of TOPIC:Q:OFF rows f[from..] of broker, filled in order. */
    private static HashMap<MessageQueue, Long> offsets(String broker, String[] f, int from) {
        HashMap<MessageQueue, Long> m = new HashMap<>();
        for (int i = from; i < f.length; i++) {
            String[] p = f[i].split(":");
            m.put(new MessageQueue(p[0], broker, Integer.parseInt(p[1])), Long.parseLong(p[2]));
        }
        return m;
    }

    private static byte[] hex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    private static BrokerStatsItem statsItem(String s) {
        String[] p = s.split(":");
        BrokerStatsItem it = new BrokerStatsItem();
        it.setSum(Long.parseLong(p[0]));
        it.setTps(Double.parseDouble(p[1]));
        it.setAvgpt(Double.parseDouble(p[2]));
        return it;
    }
}
