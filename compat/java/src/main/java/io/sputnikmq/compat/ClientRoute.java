package io.sputnikmq.compat;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * ClientRoute NAMESRV_ADDR TOPIC
 *
 * Starts the official 4.9.8 DefaultMQProducer (group COMPAT_PG) against the given name server,
 * calls fetchPublishMessageQueues(TOPIC) (one GET_ROUTEINFO_BY_TOPIC to the name server, version
 * 409, acceptStandardJsonOnly not set), prints "mq BROKERNAME QUEUEID" per writable queue sorted by
 * broker name then queue id, shuts the producer down and exits 0. On failure: exit 1, reason on
 * stderr. -Drocketmq.serialize.type=ROCKETMQ switches the client to binary headers.
 *
 * Other traffic the 4.9.8 producer generates on its own during such a short run (observed against
 * StubServer with both serialize types; a Go stub should answer it):
 *  - GET_ROUTEINFO_BY_TOPIC (105) for "TBW102" (the producer's createTopicKey), sent by the route
 *    refresh task 10 ms after start (then every 30 s); it races with the TOPIC request, so the two
 *    105s arrive in either order. Brokers named in TBW102's route become known to the client.
 *  - HEART_BEAT (34) to those brokers only if the run lasts past the heartbeat task's first tick
 *    (1 s after start, then every 30 s); not seen in practice (a run takes ~0.4 s).
 *  - On shutdown: UNREGISTER_CLIENT (35), invokeSync with a 3 s timeout, once per producer group
 *    (COMPAT_PG and the internal CLIENT_INNER_PRODUCER) to every broker address the client knows,
 *    ext {clientID=<ip>@compat-<pid>, producerGroup=..}. A stub that does not answer 35 makes
 *    shutdown ~6 s slower but the exit status stays 0. fetchPublishMessageQueues itself does not
 *    register brokers, so with no TBW102 route there is no broker traffic at all.
 * The client's own log goes through slf4j/logback to stderr (rocketmq.client.logUseSlf4j=true).
 */
public final class ClientRoute {
    private ClientRoute() {
    }

    public static void main(String[] args) {
        Util.quietLogging();
        if (args.length != 2) {
            Util.die("usage: ClientRoute NAMESRV_ADDR TOPIC", null);
        }
        int rc = 0;
        try {
            PrintStream out = Util.utf8Stdout();
            DefaultMQProducer producer = new DefaultMQProducer("COMPAT_PG");
            producer.setNamesrvAddr(args[0]);
            producer.setSendMsgTimeout(3000);
            producer.setInstanceName("compat-" + ProcessHandle.current().pid());
            producer.start();
            try {
                List<MessageQueue> mqs = new ArrayList<>(producer.fetchPublishMessageQueues(args[1]));
                mqs.sort(Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId));
                for (MessageQueue mq : mqs) {
                    out.println("mq " + mq.getBrokerName() + " " + mq.getQueueId());
                }
                out.flush();
            } finally {
                producer.shutdown();
            }
        } catch (Throwable t) {
            System.err.println("ClientRoute failed: " + t);
            t.printStackTrace(System.err);
            rc = 1;
        }
        System.exit(rc);
    }
}
