package io.sputnikmq.conformance;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import com.alibaba.fastjson.serializer.SerializerFeature;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * BrokerOps: one broker-scenario operation per JVM, for the broker conformance scenarios
 * (conformance/scenario/broker_*.go, Go side javaclient.Driver.BrokerOp). It reads one JSON request
 * object from stdin, runs it with the official 4.9.8 client, and prints one JSON line on the real
 * stdout:
 *
 * <pre>
 *   request:  {"op":"produce","ns":"127.0.0.1:9876","topic":"T","group":"G","mode":"sync","messages":[...]}
 *   response: {"ok":true,"result":...}   or   {"ok":false,"error":"...","code":17}
 * </pre>
 *
 * Ops: "produce" and "consume" ({@link BrokerMessaging}), "rebalance", "litePull", "pull",
 * "mqadminLive" ({@link BrokerStories}). A fresh JVM per operation keeps clients of different
 * scenarios (and of the two columns) apart; several operations can run at once.
 *
 * <p>A request with "accessKey" and "secretKey" (a broker with ACL) builds the producers and
 * consumers of produce, consume, litePull and pull with an AclClientRPCHook of those credentials,
 * which signs every request they send.
 */
public final class BrokerOps {
    private BrokerOps() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("rocketmq.client.logUseSlf4j") == null) {
            System.setProperty("rocketmq.client.logUseSlf4j", "true");
        }
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream diag = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        PrintStream stray = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        System.setOut(stray);
        System.setErr(stray);
        JSONObject resp = new JSONObject(true);
        try {
            byte[] in = System.in.readAllBytes();
            JSONObject req = JSON.parseObject(new String(in, StandardCharsets.UTF_8));
            resp.put("ok", true);
            resp.put("result", run(req));
        } catch (Throwable t) {
            resp.put("ok", false);
            resp.put("error", Driver.describe(t));
            Integer code = AdminOps.responseCode(t);
            if (code != null) {
                resp.put("code", code);
            }
            t.printStackTrace(diag);
        }
        protocol.println(JSON.toJSONString(resp, SerializerFeature.WriteNonStringKeyAsString,
            SerializerFeature.DisableCircularReferenceDetect, SerializerFeature.WriteMapNullValue));
        protocol.flush();
        System.exit(0);
    }

    private static Object run(JSONObject req) throws Exception {
        String wantType = req.getString("serializeType");
        if (wantType != null) {
            // The JVM was started with -Drocketmq.serialize.type: make sure the
            // client library took it, so that a scenario cannot pass in JSON.
            String got = RemotingCommand.getSerializeTypeConfigInThisServer().name();
            if (!got.equals(wantType)) {
                throw new IllegalStateException("clients send " + got + ", not " + wantType);
            }
        }
        String op = req.getString("op");
        switch (op == null ? "" : op) {
            case "produce":
                return BrokerMessaging.produce(req);
            case "consume":
                return BrokerMessaging.consume(req);
            case "rebalance":
                return BrokerStories.rebalance(req);
            case "litePull":
                return BrokerStories.litePull(req);
            case "pull":
                return BrokerStories.pull(req);
            case "mqadminLive":
                return BrokerStories.mqadminLive(req);
            case "requestReply":
                return BrokerStories.requestReply(req);
            case "traced":
                return BrokerStories.traced(req);
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    /** The AclClientRPCHook of the request's accessKey/secretKey, or null when it has none. */
    static RPCHook rpcHook(JSONObject req) {
        String ak = req.getString("accessKey");
        if (ak == null) {
            return null;
        }
        return new AclClientRPCHook(new SessionCredentials(ak, req.getString("secretKey")));
    }

    /** Runs one mqadmin command line in this JVM: {args, out, err}. */
    static Map<String, Object> mqadmin(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            org.apache.rocketmq.tools.command.MQAdminStartup.main0(args, null);
        } catch (Throwable t) {
            t.printStackTrace(System.err);
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("args", List.of(args));
        r.put("out", out.toString(StandardCharsets.UTF_8));
        r.put("err", err.toString(StandardCharsets.UTF_8));
        return r;
    }

    static String[] strings(JSONArray a) {
        if (a == null) {
            return new String[0];
        }
        String[] s = new String[a.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = a.getString(i);
        }
        return s;
    }

    static List<JSONObject> objects(JSONArray a) {
        List<JSONObject> out = new ArrayList<>();
        if (a != null) {
            for (int i = 0; i < a.size(); i++) {
                out.add(a.getJSONObject(i));
            }
        }
        return out;
    }
}
