package io.sputnikmq.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.body.TopicList;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The DefaultMQAdminExt and DefaultMQProducer calls the Go scenarios can ask for. Results are turned
 * into plain maps and lists with string keys (sorted where Java's order is a HashMap accident), so
 * that the Go side reads ordinary JSON whatever the server under test answered.
 *
 * One DefaultMQAdminExt is kept per name-server address until "reset".
 */
final class AdminOps {
    private final Map<String, DefaultMQAdminExt> admins = new HashMap<>();
    private final AtomicLong seq = new AtomicLong();

    private String instanceName(String kind) {
        return "conformance-" + kind + "-" + ProcessHandle.current().pid() + "-" + seq.incrementAndGet();
    }

    private DefaultMQAdminExt admin(String ns) throws MQClientException {
        if (ns == null || ns.isEmpty()) {
            throw new IllegalArgumentException("missing ns");
        }
        DefaultMQAdminExt a = admins.get(ns);
        if (a == null) {
            a = new DefaultMQAdminExt(5000);
            a.setNamesrvAddr(ns);
            a.setInstanceName(instanceName("admin"));
            a.start();
            admins.put(ns, a);
        }
        return a;
    }

    void shutdown() {
        for (DefaultMQAdminExt a : admins.values()) {
            try {
                a.shutdown();
            } catch (Throwable ignored) {
                // shutting down anyway
            }
        }
        admins.clear();
    }

    /** The response code carried by a client exception anywhere in the cause chain, if any. */
    static Integer responseCode(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof MQClientException && ((MQClientException) c).getResponseCode() != -1) {
                return ((MQClientException) c).getResponseCode();
            }
            if (c instanceof MQBrokerException) {
                return ((MQBrokerException) c).getResponseCode();
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }

    /** DefaultMQProducer.fetchPublishMessageQueues with a fresh producer: [{brokerName,queueId}]. */
    List<Map<String, Object>> route(String ns, String topic) throws MQClientException {
        DefaultMQProducer p = new DefaultMQProducer("CONFORMANCE_ROUTE_PG");
        p.setNamesrvAddr(ns);
        p.setInstanceName(instanceName("route"));
        p.start();
        try {
            List<MessageQueue> mqs = new ArrayList<>(p.fetchPublishMessageQueues(topic));
            mqs.sort(Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId));
            List<Map<String, Object>> out = new ArrayList<>();
            for (MessageQueue mq : mqs) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("topic", mq.getTopic());
                m.put("brokerName", mq.getBrokerName());
                m.put("queueId", mq.getQueueId());
                out.add(m);
            }
            return out;
        } finally {
            p.shutdown();
        }
    }

    Object call(String ns, String method, String[] a) throws Exception {
        DefaultMQAdminExt admin = admin(ns);
        switch (method) {
            case "examineBrokerClusterInfo":
                return clusterInfo(admin.examineBrokerClusterInfo());
            case "examineTopicRouteInfo":
                return route(admin.examineTopicRouteInfo(arg(a, 0)));
            case "createTopicOnBroker": {
                // args: brokerAddr topic readQueues writeQueues perm
                TopicConfig tc = new TopicConfig(arg(a, 1));
                tc.setReadQueueNums(Integer.parseInt(arg(a, 2)));
                tc.setWriteQueueNums(Integer.parseInt(arg(a, 3)));
                tc.setPerm(Integer.parseInt(arg(a, 4)));
                admin.createAndUpdateTopicConfig(arg(a, 0), tc);
                return null;
            }
            case "createTopic":
                // args: key(cluster name) topic queueNum
                admin.createTopic(arg(a, 0), arg(a, 1), Integer.parseInt(arg(a, 2)));
                return null;
            case "fetchAllTopicList":
                return sorted(admin.fetchAllTopicList());
            case "fetchTopicsByCluster":
                return sorted(admin.fetchTopicsByCLuster(arg(a, 0)));
            case "createAndUpdateKvConfig":
                admin.createAndUpdateKvConfig(arg(a, 0), arg(a, 1), arg(a, 2));
                return null;
            case "getKVConfig":
                return admin.getKVConfig(arg(a, 0), arg(a, 1));
            case "getKVListByNamespace": {
                KVTable t = admin.getKVListByNamespace(arg(a, 0));
                return t == null ? null : new TreeMap<>(t.getTable());
            }
            case "deleteKvConfig":
                admin.deleteKvConfig(arg(a, 0), arg(a, 1));
                return null;
            case "getNameServerConfig": {
                List<String> servers = a.length == 0 ? null : Arrays.asList(a);
                Map<String, Properties> cfg = admin.getNameServerConfig(servers);
                Map<String, Object> out = new TreeMap<>();
                for (Map.Entry<String, Properties> e : cfg.entrySet()) {
                    Map<String, String> props = new TreeMap<>();
                    for (String k : e.getValue().stringPropertyNames()) {
                        props.put(k, e.getValue().getProperty(k));
                    }
                    out.put(e.getKey(), props);
                }
                return out;
            }
            case "fetchBrokerRuntimeStats": {
                // args: brokerAddr; the broker's GET_BROKER_RUNTIME_INFO table
                KVTable t = admin.fetchBrokerRuntimeStats(arg(a, 0));
                return new TreeMap<>(t.getTable());
            }
            case "wipeWritePermOfBroker":
                return admin.wipeWritePermOfBroker(arg(a, 0), arg(a, 1));
            case "addWritePermOfBroker":
                return admin.addWritePermOfBroker(arg(a, 0), arg(a, 1));
            default:
                throw new IllegalArgumentException("unknown admin method " + method);
        }
    }

    private static String arg(String[] a, int i) {
        if (i >= a.length) {
            throw new IllegalArgumentException("missing argument " + i);
        }
        return a[i];
    }

    private static List<String> sorted(TopicList t) {
        List<String> l = new ArrayList<>(t.getTopicList());
        l.sort(null);
        return l;
    }

    private static Map<String, Object> brokerData(BrokerData bd) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cluster", bd.getCluster());
        m.put("brokerName", bd.getBrokerName());
        Map<String, String> addrs = new TreeMap<>();
        if (bd.getBrokerAddrs() != null) {
            bd.getBrokerAddrs().forEach((id, addr) -> addrs.put(Long.toString(id), addr));
        }
        m.put("brokerAddrs", addrs);
        return m;
    }

    static Map<String, Object> clusterInfo(ClusterInfo ci) {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> brokers = new TreeMap<>();
        if (ci.getBrokerAddrTable() != null) {
            ci.getBrokerAddrTable().forEach((name, bd) -> brokers.put(name, brokerData(bd)));
        }
        m.put("brokerAddrTable", brokers);
        Map<String, Object> clusters = new TreeMap<>();
        if (ci.getClusterAddrTable() != null) {
            ci.getClusterAddrTable().forEach((name, set) -> {
                List<String> l = new ArrayList<>(set);
                l.sort(null);
                clusters.put(name, l);
            });
        }
        m.put("clusterAddrTable", clusters);
        return m;
    }

    static Map<String, Object> route(TopicRouteData rd) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> brokers = new ArrayList<>();
        for (BrokerData bd : rd.getBrokerDatas()) {
            brokers.add(brokerData(bd));
        }
        brokers.sort(Comparator.comparing(x -> (String) x.get("brokerName")));
        m.put("brokerDatas", brokers);
        List<Map<String, Object>> queues = new ArrayList<>();
        for (QueueData qd : rd.getQueueDatas()) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("brokerName", qd.getBrokerName());
            q.put("readQueueNums", qd.getReadQueueNums());
            q.put("writeQueueNums", qd.getWriteQueueNums());
            q.put("perm", qd.getPerm());
            q.put("topicSysFlag", qd.getTopicSysFlag());
            queues.add(q);
        }
        queues.sort(Comparator.comparing(x -> (String) x.get("brokerName")));
        m.put("queueDatas", queues);
        m.put("orderTopicConf", rd.getOrderTopicConf());
        return m;
    }
}
