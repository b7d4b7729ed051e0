package io.sputnikmq.compat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.rocketmq.common.help.FAQUrl;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.CheckTransactionStateRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.ResetOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.common.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.common.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.common.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.common.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.common.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.common.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.filter.FilterAPI;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Frames OUTDIR
 *
 * Writes golden frames produced by the 4.9.8 RemotingCommand, encoded exactly like the 4.9.8
 * NettyEncoder (fastEncodeHeader into a ByteBuf, then the body). Each scenario is built twice from
 * scratch, once per serialize type, into {@code <scenario>.<json|rocketmq>.hex}; plus index.tsv.
 *
 * The remoting version is 409 (system property rocketmq.remoting.version, set before RemotingCommand
 * is initialized), so every command created through createRequestCommand/createResponseCommand
 * carries version 409.
 */
public final class Frames {
    private Frames() {
    }

    static final String PROPERTIES =
        "KEYS\u0001k1\u0002TAGS\u0001TagA\u0002UNIQ_KEY\u00017F0000010001000000000000000000AB\u0002WAIT\u0001true\u0002";

    private static final class Scenario {
        final String name;
        final String description;
        final Supplier<RemotingCommand> build;

        Scenario(String name, String description, Supplier<RemotingCommand> build) {
            this.name = name;
            this.description = description;
            this.build = build;
        }
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length != 1) {
            Util.die("usage: Frames OUTDIR", null);
        }
        System.setProperty("rocketmq.remoting.version", "409");
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);

        List<Scenario> all = scenarios();
        List<String> index = new ArrayList<>();
        for (Scenario s : all) {
            for (SerializeType t : new SerializeType[] {SerializeType.JSON, SerializeType.ROCKETMQ}) {
                RemotingCommand cmd = s.build.get();
                cmd.setSerializeTypeCurrentRPC(t);
                byte[] wire = Util.wireBytes(cmd);
                String file = s.name + "." + t.name().toLowerCase() + ".hex";
                Util.writeFile(out.resolve(file), Util.hexLines(wire));
                index.add(file + "\t" + cmd.getCode() + "\t" + t.name() + "\t" + s.description);
            }
        }
        index.sort(null);
        StringBuilder sb = new StringBuilder();
        sb.append("# frames encoded by org.apache.rocketmq.remoting.protocol.RemotingCommand (")
            .append(Facts.artifactOf(RemotingCommand.class))
            .append(") via fastEncodeHeader(ByteBuf)+body as NettyEncoder does; version=409:")
            .append(" file\tcode\tserializeType\tdescription\n");
        for (String line : index) {
            sb.append(line).append('\n');
        }
        Util.writeFile(out.resolve("index.tsv"), sb.toString());
    }

    static SendMessageRequestHeader sendHeaderV1() {
        SendMessageRequestHeader h = new SendMessageRequestHeader();
        h.setProducerGroup("PG");
        h.setTopic("TopicTest");
        h.setDefaultTopic("TBW102");
        h.setDefaultTopicQueueNums(4);
        h.setQueueId(1);
        h.setSysFlag(0);
        h.setBornTimestamp(1700000000000L);
        h.setFlag(0);
        h.setProperties(PROPERTIES);
        h.setReconsumeTimes(0);
        h.setUnitMode(false);
        h.setBatch(false);
        return h;
    }

    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    static List<Scenario> scenarios() {
        List<Scenario> l = new ArrayList<>();

        l.add(new Scenario("send_v2_request", "SEND_MESSAGE_V2 with SendMessageRequestHeaderV2, body \"hello\"", () -> {
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(sendHeaderV1()));
            c.setOpaque(101);
            c.setBody("hello".getBytes(StandardCharsets.UTF_8));
            return c;
        }));

        l.add(new Scenario("send_v2_request_1k", "SEND_MESSAGE_V2, 1024-byte body (byte)(i%251)", () -> {
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(sendHeaderV1()));
            c.setOpaque(102);
            c.setBody(pattern(1024));
            return c;
        }));

        l.add(new Scenario("send_v1_request", "SEND_MESSAGE with SendMessageRequestHeader, body \"hello\"", () -> {
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE, sendHeaderV1());
            c.setOpaque(103);
            c.setBody("hello".getBytes(StandardCharsets.UTF_8));
            return c;
        }));

        l.add(new Scenario("send_response", "SUCCESS response with SendMessageResponseHeader + MSG_REGION/TRACE_ON ext", () -> {
            RemotingCommand c = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
            SendMessageResponseHeader h = (SendMessageResponseHeader) c.readCustomHeader();
            h.setMsgId("7F00000100002A9F0000000000000000");
            h.setQueueId(1);
            h.setQueueOffset(42L);
            h.setTransactionId(null);
            c.setCode(ResponseCode.SUCCESS);
            c.setRemark(null); // the broker clears the "not set any response code" remark on success
            c.addExtField("MSG_REGION", "DefaultRegion");
            c.addExtField("TRACE_ON", "true");
            c.setOpaque(7);
            return c;
        }));

        l.add(new Scenario("pull_request", "PULL_MESSAGE with PullMessageRequestHeader", () -> {
            PullMessageRequestHeader h = new PullMessageRequestHeader();
            h.setConsumerGroup("CG");
            h.setTopic("TopicTest");
            h.setQueueId(0);
            h.setQueueOffset(100L);
            h.setMaxMsgNums(32);
            h.setSysFlag(PullSysFlag.buildSysFlag(true, true, true, false)); // = 7, as the push consumer builds it
            h.setCommitOffset(90L);
            h.setSuspendTimeoutMillis(15000L);
            h.setSubscription("TagA || TagB");
            h.setSubVersion(1700000000001L);
            h.setExpressionType("TAG");
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, h);
            c.setOpaque(104);
            return c;
        }));

        l.add(new Scenario("pull_response", "SUCCESS response with PullMessageResponseHeader, remark FOUND, 300-byte body", () -> {
            RemotingCommand c = RemotingCommand.createResponseCommand(PullMessageResponseHeader.class);
            PullMessageResponseHeader h = (PullMessageResponseHeader) c.readCustomHeader();
            h.setSuggestWhichBrokerId(0L);
            h.setNextBeginOffset(132L);
            h.setMinOffset(0L);
            h.setMaxOffset(200L);
            c.setCode(ResponseCode.SUCCESS);
            c.setRemark("FOUND");
            c.setOpaque(8);
            c.setBody(pattern(300));
            return c;
        }));

        l.add(new Scenario("route_request", "GET_ROUTEINFO_BY_TOPIC, topic TopicTest, acceptStandardJsonOnly left null (as the 4.9.8 client does)", () -> {
            GetRouteInfoRequestHeader h = new GetRouteInfoRequestHeader();
            h.setTopic("TopicTest");
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, h);
            c.setOpaque(105);
            return c;
        }));

        l.add(new Scenario("error_response", "TOPIC_NOT_EXIST response with the name server's remark", () -> {
            // The name server builds this remark from a literal prefix, the topic and
            // FAQUrl.suggestTodo(FAQUrl.APPLY_TOPIC_URL); the suffix is taken from the jar here.
            String remark = "No topic route info in name server for the topic: TopicTest"
                + FAQUrl.suggestTodo(FAQUrl.APPLY_TOPIC_URL);
            RemotingCommand c = RemotingCommand.createResponseCommand(ResponseCode.TOPIC_NOT_EXIST, remark);
            c.setOpaque(5);
            return c;
        }));

        l.add(new Scenario("oneway_request", "UPDATE_CONSUMER_OFFSET with UpdateConsumerOffsetRequestHeader, oneway flag", () -> {
            UpdateConsumerOffsetRequestHeader h = new UpdateConsumerOffsetRequestHeader();
            h.setConsumerGroup("CG");
            h.setTopic("TopicTest");
            h.setQueueId(0);
            h.setCommitOffset(132L);
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.UPDATE_CONSUMER_OFFSET, h);
            c.markOnewayRPC();
            c.setOpaque(106);
            return c;
        }));

        l.add(new Scenario("heartbeat_request", "HEART_BEAT, no header, HeartbeatData.encode() body (producer PG, consumer CG)", () -> {
            HeartbeatData hb = new HeartbeatData();
            hb.setClientID("127.0.0.1@12345");
            ProducerData pd = new ProducerData();
            pd.setGroupName("PG");
            hb.getProducerDataSet().add(pd);
            ConsumerData cd = new ConsumerData();
            cd.setGroupName("CG");
            cd.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
            cd.setMessageModel(MessageModel.CLUSTERING);
            cd.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            cd.setUnitMode(false);
            try {
                SubscriptionData s1 = FilterAPI.buildSubscriptionData("TopicTest", "TagA || TagB");
                s1.setSubVersion(1700000000001L);
                SubscriptionData s2 = FilterAPI.buildSubscriptionData("%RETRY%CG", "*");
                s2.setSubVersion(1700000000002L);
                cd.getSubscriptionDataSet().addAll(Arrays.asList(s1, s2));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
            hb.getConsumerDataSet().add(cd);
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
            c.setBody(hb.encode());
            c.setOpaque(107);
            return c;
        }));

        l.add(new Scenario("unicode_remark", "SYSTEM_ERROR response, remark with quotes/backslash/tab/newline/\\u0001/non-ASCII, odd ext values", () -> {
            RemotingCommand c = RemotingCommand.createResponseCommand(ResponseCode.SYSTEM_ERROR,
                "say \"hi\" \\ back\tslash\nnext line \u0001 ctrl h\u00e9llo \u4e16\u754c");
            c.addExtField("empty", "");
            c.addExtField("weird", "\"\\/\u0001");
            c.setOpaque(9);
            return c;
        }));

        // Headers with keys that share a HashMap bucket: their order on the wire is
        // RemotingCommand.getClazzFields's (a HashSet of java.lang.reflect.Field).
        l.add(new Scenario("register_broker_request", "REGISTER_BROKER with RegisterBrokerRequestHeader (haServerAddr/compressed, brokerId/bodyCrc32 share buckets)", () -> {
            RegisterBrokerRequestHeader h = new RegisterBrokerRequestHeader();
            h.setBrokerName("broker-a");
            h.setBrokerAddr("127.0.0.1:10911");
            h.setClusterName("DefaultCluster");
            h.setHaServerAddr("127.0.0.1:10912");
            h.setBrokerId(0L);
            h.setCompressed(false);
            h.setBodyCrc32(12345);
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, h);
            c.setOpaque(109);
            return c;
        }));

        l.add(new Scenario("check_transaction_request", "CHECK_TRANSACTION_STATE with CheckTransactionStateRequestHeader (tranStateTableOffset/offsetMsgId share a bucket), oneway", () -> {
            CheckTransactionStateRequestHeader h = new CheckTransactionStateRequestHeader();
            h.setTranStateTableOffset(7L);
            h.setCommitLogOffset(4096L);
            h.setMsgId("7F00000100002A9F0000000000001000");
            h.setTransactionId("7F0000010001000000000000000000AB");
            h.setOffsetMsgId("7F00000100002A9F0000000000001000");
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.CHECK_TRANSACTION_STATE, h);
            c.markOnewayRPC();
            c.setOpaque(110);
            return c;
        }));

        l.add(new Scenario("reset_offset_request", "RESET_CONSUMER_CLIENT_OFFSET with ResetOffsetRequestHeader (group/timestamp share a bucket)", () -> {
            ResetOffsetRequestHeader h = new ResetOffsetRequestHeader();
            h.setTopic("TopicTest");
            h.setGroup("CG");
            h.setTimestamp(1700000000000L);
            h.setForce(true);
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.RESET_CONSUMER_CLIENT_OFFSET, h);
            c.setOpaque(111);
            return c;
        }));

        l.add(new Scenario("empty_ext", "GET_BROKER_CONFIG (26) request, no header, no body", () -> {
            RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CONFIG, null);
            c.setOpaque(108);
            return c;
        }));

        return l;
    }
}
