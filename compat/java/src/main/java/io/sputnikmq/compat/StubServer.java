package io.sputnikmq.compat;

import io.netty.channel.ChannelHandlerContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.rocketmq.common.help.FAQUrl;
import org.apache.rocketmq.common.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * StubServer [PORT]
 *
 * Self-test helper, NOT an oracle: a tiny server built on the 4.9.8 NettyRemotingServer that plays
 * the part the Go test stub plays for RemotingRoundTrip and ClientRoute, so those two programs can be
 * checked against Java itself. Prints "listening PORT" on stdout once bound (PORT 0 or missing =
 * ephemeral), logs every request it handles to stderr as "stub: code=.. version=.. type=.. flag=..
 * ext={..}", and runs until killed.
 *
 *  - 105 GET_ROUTEINFO_BY_TOPIC: topic "CallMeBack" -> sends GET_CONSUMER_RUNNING_INFO (307,
 *    invokeSync) and NOTIFY_CONSUMER_IDS_CHANGED (40, invokeOneway) to the calling connection, then
 *    answers 0 with no body; topic "NoSuchTopic" -> 17 with the name server's remark; any other topic
 *    -> 0 with a route: broker "broker-a" (cluster DefaultCluster, id 0 at this stub's address),
 *    4 read / 4 write queues, perm 6.
 *  - 15, 34, 35, 38: answered with code 0 (no answer for oneway requests).
 *  - Anything else: no processor, so NettyRemotingServer itself answers 3 REQUEST_CODE_NOT_SUPPORTED.
 */
public final class StubServer {
    private StubServer() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (System.getProperty("rocketmq.remoting.version") == null) {
            System.setProperty("rocketmq.remoting.version", "409");
        }
        if (System.getProperty("tls.server.mode") == null) {
            System.setProperty("tls.server.mode", "disabled"); // no self-signed cert generation noise
        }
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        NettyServerConfig cfg = new NettyServerConfig();
        cfg.setListenPort(port);
        NettyRemotingServer server = new NettyRemotingServer(cfg);
        ExecutorService exec = Executors.newFixedThreadPool(4);
        int[] boundPort = new int[1];

        NettyRequestProcessor proc = new NettyRequestProcessor() {
            @Override
            public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand req) throws Exception {
                System.err.println("stub: code=" + req.getCode() + " version=" + req.getVersion() + " type="
                    + req.getSerializeTypeCurrentRPC() + " flag=" + req.getFlag() + " ext="
                    + new TreeMap<>(req.getExtFields() == null ? new HashMap<String, String>() : req.getExtFields()));
                if (req.getCode() != 105) {
                    return RemotingCommand.createResponseCommand(0, null);
                }
                GetRouteInfoRequestHeader h =
                    (GetRouteInfoRequestHeader) req.decodeCommandCustomHeader(GetRouteInfoRequestHeader.class);
                String topic = h.getTopic();
                if ("CallMeBack".equals(topic)) {
                    RemotingCommand r307 = RemotingCommand.createRequestCommand(307, null);
                    r307.addExtField("consumerGroup", "CG");
                    r307.addExtField("clientId", "127.0.0.1@stub");
                    r307.addExtField("jstackEnable", "false");
                    RemotingCommand a = server.invokeSync(ctx.channel(), r307, 3000);
                    System.err.println("stub: 307 answered code=" + a.getCode() + " body="
                        + (a.getBody() == null ? null : new String(a.getBody(), "UTF-8")));
                    RemotingCommand r40 = RemotingCommand.createRequestCommand(40, null);
                    r40.addExtField("consumerGroup", "CG");
                    server.invokeOneway(ctx.channel(), r40, 3000);
                    return RemotingCommand.createResponseCommand(0, null);
                }
                if ("NoSuchTopic".equals(topic)) {
                    return RemotingCommand.createResponseCommand(17,
                        "No topic route info in name server for the topic: " + topic
                            + FAQUrl.suggestTodo(FAQUrl.APPLY_TOPIC_URL));
                }
                TopicRouteData route = new TopicRouteData();
                BrokerData bd = new BrokerData();
                bd.setCluster("DefaultCluster");
                bd.setBrokerName("broker-a");
                HashMap<Long, String> addrs = new HashMap<>();
                addrs.put(0L, "127.0.0.1:" + boundPort[0]);
                bd.setBrokerAddrs(addrs);
                List<BrokerData> bds = new ArrayList<>();
                bds.add(bd);
                route.setBrokerDatas(bds);
                QueueData qd = new QueueData();
                qd.setBrokerName("broker-a");
                qd.setReadQueueNums(4);
                qd.setWriteQueueNums(4);
                qd.setPerm(6);
                qd.setTopicSysFlag(0);
                List<QueueData> qds = new ArrayList<>();
                qds.add(qd);
                route.setQueueDatas(qds);
                route.setFilterServerTable(new HashMap<>());
                RemotingCommand resp = RemotingCommand.createResponseCommand(0, null);
                resp.setBody(route.encode());
                return resp;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        };
        for (int code : new int[] {105, 15, 34, 35, 38}) {
            server.registerProcessor(code, proc, exec);
        }
        server.start();
        boundPort[0] = server.localListenPort();
        PrintStream out = Util.utf8Stdout();
        out.println("listening " + boundPort[0]);
        out.flush();
        Thread.currentThread().join();
    }
}
