package io.sputnikmq.compat;

import io.netty.channel.ChannelHandlerContext;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.common.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * RemotingRoundTrip HOST:PORT [JSON|ROCKETMQ]
 *
 * Drives a server with the 4.9.8 NettyRemotingClient (no high-level client). Output, one line each:
 *
 *   sync code=C remark=R ext={k=v, ...} body=B        invokeSync 105 GET_ROUTEINFO_BY_TOPIC topic=TopicTest
 *   async code=C remark=R ext={...} body=B            invokeAsync, same request
 *   oneway ok                                         invokeOneway 15 UPDATE_CONSUMER_OFFSET
 *   server-request code=307 ext={...}                 server->client request (answered: code 0, body "running-info")
 *   server-request code=40 ext={...}                  server->client oneway request (no answer)
 *   callback code=C remark=R                          the answer to 105 topic=CallMeBack that triggered the two above
 *   unsupported code=C remark=R                       invokeSync 9998 (a server answers 3 REQUEST_CODE_NOT_SUPPORTED)
 *   done
 *
 * remark prints "null" for a missing remark, ext prints "{}" for none, body is decoded as UTF-8
 * ("null" for none). The two server-request lines come from one single-threaded executor, in
 * arrival order. Arg 2 sets the system property rocketmq.serialize.type before RemotingCommand is
 * initialized (default JSON). Requests carry version 409 (rocketmq.remoting.version, as the 4.9.8
 * client sets it) unless -Drocketmq.remoting.version=N is given. Exit 0 on success; on any failure
 * exit 1 with the reason on stderr.
 */
public final class RemotingRoundTrip {
    private RemotingRoundTrip() {
    }

    static final long TIMEOUT_MS = 5000;

    public static void main(String[] args) {
        Util.quietLogging();
        if (args.length < 1 || args.length > 2) {
            Util.die("usage: RemotingRoundTrip HOST:PORT [JSON|ROCKETMQ]", null);
        }
        if (args.length == 2) {
            if (!args[1].equals("JSON") && !args[1].equals("ROCKETMQ")) {
                Util.die("serialize type must be JSON or ROCKETMQ, got " + args[1], null);
            }
            System.setProperty("rocketmq.serialize.type", args[1]);
        }
        if (System.getProperty("rocketmq.remoting.version") == null) {
            System.setProperty("rocketmq.remoting.version", "409");
        }
        int rc;
        try {
            rc = run(args[0]);
        } catch (Throwable t) {
            System.err.println("RemotingRoundTrip failed: " + t);
            t.printStackTrace(System.err);
            rc = 1;
        }
        System.exit(rc);
    }

    static String ext(RemotingCommand c) {
        Map<String, String> m = c.getExtFields() == null ? new TreeMap<>() : new TreeMap<>(c.getExtFields());
        return m.toString();
    }

    static String describe(RemotingCommand r) {
        return "code=" + r.getCode() + " remark=" + r.getRemark() + " ext=" + ext(r) + " body="
            + (r.getBody() == null ? "null" : new String(r.getBody(), StandardCharsets.UTF_8));
    }

    static RemotingCommand routeRequest(String topic) {
        GetRouteInfoRequestHeader h = new GetRouteInfoRequestHeader();
        h.setTopic(topic);
        return RemotingCommand.createRequestCommand(105, h);
    }

    static int run(String addr) throws Exception {
        PrintStream out = Util.utf8Stdout();
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        CountDownLatch serverRequests = new CountDownLatch(2);
        ExecutorService exec = Executors.newSingleThreadExecutor();
        NettyRequestProcessor proc = new NettyRequestProcessor() {
            @Override
            public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) {
                synchronized (out) {
                    out.println("server-request code=" + request.getCode() + " ext=" + ext(request));
                    out.flush();
                }
                serverRequests.countDown();
                if (request.getCode() == 307) {
                    RemotingCommand resp = RemotingCommand.createResponseCommand(0, null);
                    resp.setBody("running-info".getBytes(StandardCharsets.UTF_8));
                    return resp;
                }
                return null;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        };
        client.registerProcessor(40, proc, exec);   // NOTIFY_CONSUMER_IDS_CHANGED
        client.registerProcessor(307, proc, exec);  // GET_CONSUMER_RUNNING_INFO
        client.start();
        try {
            // (a) sync
            RemotingCommand r = client.invokeSync(addr, routeRequest("TopicTest"), TIMEOUT_MS);
            out.println("sync " + describe(r));
            out.flush();

            // (b) async
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<ResponseFuture> fut = new AtomicReference<>();
            client.invokeAsync(addr, routeRequest("TopicTest"), TIMEOUT_MS, rf -> {
                fut.set(rf);
                done.countDown();
            });
            if (!done.await(TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("async: no callback within " + TIMEOUT_MS + " ms");
            }
            ResponseFuture rf = fut.get();
            if (rf.getResponseCommand() == null) {
                throw new IllegalStateException("async: no response (sendOk=" + rf.isSendRequestOK()
                    + ", timeout=" + rf.isTimeout() + ")", rf.getCause());
            }
            out.println("async " + describe(rf.getResponseCommand()));
            out.flush();

            // (c) oneway
            UpdateConsumerOffsetRequestHeader uh = new UpdateConsumerOffsetRequestHeader();
            uh.setConsumerGroup("CG");
            uh.setTopic("TopicTest");
            uh.setQueueId(0);
            uh.setCommitOffset(132L);
            client.invokeOneway(addr, RemotingCommand.createRequestCommand(15, uh), TIMEOUT_MS);
            out.println("oneway ok");
            out.flush();

            // (d) server -> client requests, triggered by topic CallMeBack
            RemotingCommand cb = client.invokeSync(addr, routeRequest("CallMeBack"), TIMEOUT_MS);
            if (!serverRequests.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("server->client requests: got " + (2 - serverRequests.getCount())
                    + " of 2 within 5 s");
            }
            synchronized (out) {
                out.println("callback code=" + cb.getCode() + " remark=" + cb.getRemark());
                out.flush();
            }

            // (e) an unknown request code
            RemotingCommand u = client.invokeSync(addr, RemotingCommand.createRequestCommand(9998, null), TIMEOUT_MS);
            out.println("unsupported code=" + u.getCode() + " remark=" + u.getRemark());
            out.println("done");
            out.flush();
            return 0;
        } finally {
            client.shutdown();
            exec.shutdownNow();
        }
    }
}
