package io.sputnikmq.compat;

import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.BrokerPathConfigHelper;
import org.apache.rocketmq.broker.offset.ConsumerOffsetManager;
import org.apache.rocketmq.broker.subscription.SubscriptionGroupManager;
import org.apache.rocketmq.broker.topic.TopicConfigManager;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.TopicFilterType;
import org.apache.rocketmq.common.protocol.body.ConsumerOffsetSerializeWrapper;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.body.SubscriptionGroupWrapper;
import org.apache.rocketmq.common.protocol.body.TopicConfigSerializeWrapper;
import org.apache.rocketmq.common.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.store.MessageStore;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Drives the real broker managers (4.9.7 broker jar: TopicConfigManager, SubscriptionGroupManager,
 * ConsumerOffsetManager) of a BrokerController that is constructed but never initialized or
 * started, through a script, and prints a transcript. The Go tests of broker/topics, broker/groups
 * and broker/offsets run the same scripts (their testdata/*.script) and compare transcripts.
 *
 * <pre>
 *   BrokerManagers SCRIPT ROOTDIR     ROOTDIR becomes storePathRootDir (config files under
 *                                     ROOTDIR/config) and user.home
 * </pre>
 *
 * Script: one command per line, tokens split on blanks, '#' starts a comment line. Every command is
 * echoed as "> line" followed by its result lines. A token "-" is Java null. Commands:
 *
 * <pre>
 *   set KEY VALUE                    BrokerConfig property (MixAll.properties2Object), live
 *   start                            new BrokerController (fresh managers, no load)
 *   store.min TOPIC QUEUE OFFSET     what the fake MessageStore.getMinOffsetInQueue answers (else 0)
 *   topic.createSend TOPIC DEFAULT QUEUES SYSFLAG
 *   topic.createBack TOPIC QUEUES PERM SYSFLAG
 *   topic.createTranCheck QUEUES PERM
 *   topic.update NAME READ WRITE PERM FILTER SYSFLAG ORDER
 *   topic.unit TOPIC BOOL | topic.unitSub TOPIC BOOL
 *   topic.order T1,T2,..|-|empty     updateOrderTopicConfig(KVTable with those keys | null | {})
 *   topic.isOrder TOPIC | topic.select TOPIC | topic.delete TOPIC | topic.wrapper | topic.version
 *   topic.isSystem TOPIC | topic.notAllowedSend TOPIC | topic.validate TOPIC | topic.illegal NAME
 *   group.find GROUP | group.disable GROUP | group.delete GROUP | group.version | group.isSys GROUP
 *   group.update GROUP [consume=B fromMin=B broadcast=B retryQ=N retryMax=N brokerId=N slow=N notify=B]
 *   offset.commit GROUP TOPIC QUEUE OFFSET | offset.query GROUP TOPIC QUEUE
 *   offset.queryAll GROUP TOPIC | offset.topicsOf GROUP | offset.groupsOf TOPIC
 *   storeset KEY VALUE   a MessageStoreConfig setting (before start; enableLmq picks
 *                        LmqConsumerOffsetManager)
 *   offset.clone SRC DST TOPIC | offset.remove GROUP | offset.minAll TOPIC FILTERGROUPS | offset.scan
 *   {topic,group,offset}.{persist,load,file}   ConfigManager.persist/load, the file's content
 * </pre>
 */
public final class BrokerManagers {
    private final BrokerConfig brokerConfig = new BrokerConfig();
    private final MessageStoreConfig storeConfig = new MessageStoreConfig();
    private final Map<String, Long> minOffsets = new HashMap<>();
    private final PrintStream out;
    private BrokerController controller;

    private BrokerManagers(Path root, PrintStream out) {
        this.out = out;
        storeConfig.setStorePathRootDir(root.toString());
        brokerConfig.setBrokerName("broker-a");
        brokerConfig.setNamesrvAddr(null);
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length != 2) {
            Util.die("usage: BrokerManagers SCRIPT ROOTDIR", null);
        }
        System.setProperty("user.home", args[1]);
        PrintStream out = Util.utf8Stdout();
        BrokerManagers m = new BrokerManagers(Paths.get(args[1]), out);
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            out.println("> " + trimmed);
            try {
                m.run(trimmed.split("\\s+"));
            } catch (Exception e) {
                out.println("exception " + e.getClass().getSimpleName());
            }
        }
        out.flush();
        System.exit(0); // BrokerOuterAPI's Netty client threads are not daemons
    }

    private void run(String[] a) throws Exception {
        String cmd = a[0];
        if (cmd.startsWith("topic.")) {
            topic(cmd.substring(6), a);
        } else if (cmd.startsWith("group.")) {
            group(cmd.substring(6), a);
        } else if (cmd.startsWith("offset.")) {
            offset(cmd.substring(7), a);
        } else if (cmd.equals("set")) {
            Properties p = new Properties();
            p.setProperty(a[1], a[2]);
            MixAll.properties2Object(p, brokerConfig);
        } else if (cmd.equals("storeset")) {
            Properties p = new Properties();
            p.setProperty(a[1], a[2]);
            MixAll.properties2Object(p, storeConfig);
        } else if (cmd.equals("start")) {
            controller = new BrokerController(brokerConfig, new NettyServerConfig(), new NettyClientConfig(),
                storeConfig);
            controller.setMessageStore(fakeStore());
        } else if (cmd.equals("store.min")) {
            minOffsets.put(a[1] + "#" + a[2], Long.parseLong(a[3]));
        } else {
            throw new IllegalArgumentException("unknown command " + cmd);
        }
    }

    private MessageStore fakeStore() {
        return (MessageStore) Proxy.newProxyInstance(MessageStore.class.getClassLoader(),
            new Class<?>[] {MessageStore.class}, (proxy, method, args) -> {
                if (method.getName().equals("getMinOffsetInQueue")) {
                    return minOffsets.getOrDefault(args[0] + "#" + args[1], 0L);
                }
                throw new UnsupportedOperationException(method.getName());
            });
    }

    // ------------------------------------------------------------------ topics

    private void topic(String op, String[] a) throws Exception {
        TopicConfigManager m = controller == null ? null : controller.getTopicConfigManager();
        switch (op) {
            case "createSend":
                out.println(tc(m.createTopicInSendMessageMethod(a[1], a[2], "127.0.0.1:5555", Integer.parseInt(a[3]),
                    Integer.parseInt(a[4]))));
                break;
            case "createBack":
                out.println(tc(m.createTopicInSendMessageBackMethod(a[1], Integer.parseInt(a[2]), Integer.parseInt(a[3]),
                    Integer.parseInt(a[4]))));
                break;
            case "createTranCheck":
                out.println(tc(m.createTopicOfTranCheckMaxTime(Integer.parseInt(a[1]), Integer.parseInt(a[2]))));
                break;
            case "update": {
                TopicConfig t = new TopicConfig(a[1], Integer.parseInt(a[2]), Integer.parseInt(a[3]), Integer.parseInt(a[4]));
                t.setTopicFilterType(a[5].equals("-") ? null : TopicFilterType.valueOf(a[5]));
                t.setTopicSysFlag(Integer.parseInt(a[6]));
                t.setOrder(Boolean.parseBoolean(a[7]));
                m.updateTopicConfig(t);
                break;
            }
            case "unit":
                m.updateTopicUnitFlag(a[1], Boolean.parseBoolean(a[2]));
                break;
            case "unitSub":
                m.updateTopicUnitSubFlag(a[1], Boolean.parseBoolean(a[2]));
                break;
            case "order":
                m.updateOrderTopicConfig(kvTable(a[1]));
                break;
            case "isOrder":
                out.println(m.isOrderTopic(a[1]));
                break;
            case "select":
                out.println(tc(m.selectTopicConfig(a[1])));
                break;
            case "delete":
                m.deleteTopicConfig(a[1]);
                break;
            case "bulk": // a[2] topics named a[1]0, a[1]1, ...: enough for a table to grow
                for (int i = 0; i < Integer.parseInt(a[2]); i++) {
                    m.updateTopicConfig(new TopicConfig(a[1] + i, 8, 8, 6));
                }
                break;
            case "names":
                out.println(String.join(" ", m.getTopicConfigTable().keySet()));
                break;
            case "syncFromFile": { // SlaveSynchronize.syncTopicConfig, the master answering with this topics file
                Path p = Paths.get(BrokerPathConfigHelper.getTopicConfigPath(storeConfig.getStorePathRootDir()));
                TopicConfigSerializeWrapper w = RemotingSerializable.fromJson(
                    new String(Files.readAllBytes(p), StandardCharsets.UTF_8), TopicConfigSerializeWrapper.class);
                m.getDataVersion().assignNewOne(w.getDataVersion());
                m.getTopicConfigTable().clear();
                m.getTopicConfigTable().putAll(w.getTopicConfigTable());
                m.persist();
                break;
            }
            case "wrapper": {
                TopicConfigSerializeWrapper w = m.buildTopicConfigSerializeWrapper();
                out.println("counter " + w.getDataVersion().getCounter().get());
                for (TopicConfig t : w.getTopicConfigTable().values()) {
                    out.println(tc(t));
                }
                break;
            }
            case "version":
                out.println("counter " + m.getDataVersion().getCounter().get());
                break;
            case "isSystem":
                out.println(TopicValidator.isSystemTopic(a[1]));
                break;
            case "notAllowedSend":
                out.println(TopicValidator.isNotAllowedSendTopic(a[1]));
                break;
            case "validate": {
                RemotingCommand r = RemotingCommand.createResponseCommand(null);
                boolean ok = TopicValidator.validateTopic(unescape(a[1]), r);
                out.println(ok ? "ok" : r.getCode() + " " + r.getRemark());
                break;
            }
            case "illegal":
                out.println(TopicValidator.isTopicOrGroupIllegal(unescape(a[1])));
                break;
            default:
                common(m, op, BrokerPathConfigHelper.getTopicConfigPath(storeConfig.getStorePathRootDir()));
        }
    }

    /** Lets a script name blanks and non-ASCII: \s is a space, \t a tab, \\uXXXX a UTF-16 unit. */
    private static String unescape(String s) {
        if (s.equals("-empty-")) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                if (n == 's') {
                    sb.append(' ');
                } else if (n == 't') {
                    sb.append('\t');
                } else if (n == 'u') {
                    sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                } else {
                    sb.append(n);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static KVTable kvTable(String arg) {
        if (arg.equals("-")) {
            return null;
        }
        KVTable kv = new KVTable();
        HashMap<String, String> table = new HashMap<>();
        if (!arg.equals("empty")) {
            for (String t : arg.split(",")) {
                table.put(t, "broker-a:4");
            }
        }
        kv.setTable(table);
        return kv;
    }

    private static String tc(TopicConfig t) {
        if (t == null) {
            return "null";
        }
        return "topic " + t.getTopicName() + " r=" + t.getReadQueueNums() + " w=" + t.getWriteQueueNums()
            + " perm=" + t.getPerm() + " filter=" + t.getTopicFilterType() + " sys=" + t.getTopicSysFlag()
            + " order=" + t.isOrder();
    }

    // ------------------------------------------------------------------ groups

    private void group(String op, String[] a) throws Exception {
        SubscriptionGroupManager m = controller.getSubscriptionGroupManager();
        switch (op) {
            case "find":
                out.println(gc(m.findSubscriptionGroupConfig(a[1])));
                break;
            case "update":
                m.updateSubscriptionGroupConfig(groupOf(a));
                break;
            case "disable":
                m.disableConsume(a[1]);
                break;
            case "delete":
                m.deleteSubscriptionGroupConfig(a[1]);
                break;
            case "version":
                out.println("counter " + m.getDataVersion().getCounter().get());
                break;
            case "isSys":
                out.println(MixAll.isSysConsumerGroup(a[1]));
                break;
            case "bulk": // a[2] groups named a[1]0, a[1]1, ...: enough for a table to grow
                for (int i = 0; i < Integer.parseInt(a[2]); i++) {
                    SubscriptionGroupConfig g = new SubscriptionGroupConfig();
                    g.setGroupName(a[1] + i);
                    m.updateSubscriptionGroupConfig(g);
                }
                break;
            case "names":
                out.println(String.join(" ", m.getSubscriptionGroupTable().keySet()));
                break;
            case "syncFromFile": { // SlaveSynchronize.syncSubscriptionGroupConfig, the master answering with this file
                Path p = Paths.get(BrokerPathConfigHelper.getSubscriptionGroupPath(storeConfig.getStorePathRootDir()));
                SubscriptionGroupWrapper w = RemotingSerializable.fromJson(
                    new String(Files.readAllBytes(p), StandardCharsets.UTF_8), SubscriptionGroupWrapper.class);
                m.getDataVersion().assignNewOne(w.getDataVersion());
                m.getSubscriptionGroupTable().clear();
                m.getSubscriptionGroupTable().putAll(w.getSubscriptionGroupTable());
                m.persist();
                break;
            }
            default:
                common(m, op, BrokerPathConfigHelper.getSubscriptionGroupPath(storeConfig.getStorePathRootDir()));
        }
    }

    private static SubscriptionGroupConfig groupOf(String[] a) {
        SubscriptionGroupConfig g = new SubscriptionGroupConfig();
        g.setGroupName(a[1]);
        for (int i = 2; i < a.length; i++) {
            String[] kv = a[i].split("=", 2);
            switch (kv[0]) {
                case "consume": g.setConsumeEnable(Boolean.parseBoolean(kv[1])); break;
                case "fromMin": g.setConsumeFromMinEnable(Boolean.parseBoolean(kv[1])); break;
                case "broadcast": g.setConsumeBroadcastEnable(Boolean.parseBoolean(kv[1])); break;
                case "retryQ": g.setRetryQueueNums(Integer.parseInt(kv[1])); break;
                case "retryMax": g.setRetryMaxTimes(Integer.parseInt(kv[1])); break;
                case "brokerId": g.setBrokerId(Long.parseLong(kv[1])); break;
                case "slow": g.setWhichBrokerWhenConsumeSlowly(Long.parseLong(kv[1])); break;
                case "notify": g.setNotifyConsumerIdsChangedEnable(Boolean.parseBoolean(kv[1])); break;
                default: throw new IllegalArgumentException("unknown group field " + kv[0]);
            }
        }
        return g;
    }

    private static String gc(SubscriptionGroupConfig g) {
        if (g == null) {
            return "null";
        }
        return "group " + g.getGroupName() + " consume=" + g.isConsumeEnable() + " fromMin=" + g.isConsumeFromMinEnable()
            + " broadcast=" + g.isConsumeBroadcastEnable() + " retryQ=" + g.getRetryQueueNums() + " retryMax="
            + g.getRetryMaxTimes() + " brokerId=" + g.getBrokerId() + " slow=" + g.getWhichBrokerWhenConsumeSlowly()
            + " notify=" + g.isNotifyConsumerIdsChangedEnable();
    }

    // ------------------------------------------------------------------ offsets

    private void offset(String op, String[] a) throws Exception {
        ConsumerOffsetManager m = controller.getConsumerOffsetManager();
        switch (op) {
            case "commit":
                m.commitOffset("127.0.0.1:5555", a[1], a[2], Integer.parseInt(a[3]), Long.parseLong(a[4]));
                break;
            case "query":
                out.println(m.queryOffset(a[1], a[2], Integer.parseInt(a[3])));
                break;
            case "queryAll": {
                Map<Integer, Long> q = m.queryOffset(a[1], a[2]);
                out.println(q == null ? "null" : inOrder(q));
                break;
            }
            case "topicsOf":
                out.println(sorted(m.whichTopicByConsumer(a[1])));
                break;
            case "groupsOf":
                out.println(sorted(m.whichGroupByTopic(a[1])));
                break;
            case "clone":
                m.cloneOffset(a[1], a[2], a[3]);
                break;
            case "remove":
                m.removeOffset(a[1]);
                break;
            case "minAll":
                out.println(new TreeMap<>(m.queryMinOffsetInAllGroup(a[1], a[2].equals("-") ? null : a[2])));
                break;
            case "scan":
                m.scanUnsubscribedTopic();
                break;
            case "bulk": // a[2] keys a[1]0@G, a[1]1@G, ...: enough for a table to grow
                for (int i = 0; i < Integer.parseInt(a[2]); i++) {
                    m.commitOffset("127.0.0.1:5555", "G", a[1] + i, 0, i);
                }
                break;
            case "names":
                out.println(String.join(" ", m.getOffsetTable().keySet()));
                break;
            case "syncFromFile": { // SlaveSynchronize.syncConsumerOffset, the master answering with this file
                ConsumerOffsetSerializeWrapper w = RemotingSerializable.fromJson(
                    new String(Files.readAllBytes(Paths.get(m.configFilePath())), StandardCharsets.UTF_8),
                    ConsumerOffsetSerializeWrapper.class);
                m.getOffsetTable().putAll(w.getOffsetTable());
                m.persist();
                break;
            }
            case "writeFile": // a file as an operator or an older broker may leave it
                Files.createDirectories(Paths.get(m.configFilePath()).getParent());
                Files.write(Paths.get(m.configFilePath()), a[1].getBytes(StandardCharsets.UTF_8));
                break;
            default:
                common(m, op, m.configFilePath()); // lmqConsumerOffset.json with enableLmq
        }
    }

    private static String inOrder(Map<Integer, Long> q) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : q.entrySet()) {
            parts.add(e.getKey() + ":" + e.getValue());
        }
        return "{" + String.join(",", parts) + "}";
    }

    private static String sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        Collections.sort(l);
        return l.toString();
    }

    // ------------------------------------------------------------------ shared

    private void common(org.apache.rocketmq.common.ConfigManager m, String op, String path) throws Exception {
        switch (op) {
            case "persist":
                m.persist();
                break;
            case "load":
                out.println("load " + m.load());
                break;
            case "file": {
                Path p = Paths.get(path);
                out.println(Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "<missing>");
                break;
            }
            default:
                throw new IllegalArgumentException("unknown command " + op);
        }
    }
}
