package io.sputnikmq.conformance;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import com.alibaba.fastjson.serializer.SerializerFeature;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Driver: the Java half of the conformance harness. The Go runner starts one Driver per run and
 * talks to it over stdin/stdout, one JSON object per line:
 *
 * <pre>
 *   request:  {"id":7,"op":"admin","ns":"127.0.0.1:9876","method":"examineBrokerClusterInfo","args":[]}
 *   response: {"id":7,"ok":true,"result":{...}}
 *             {"id":7,"ok":false,"error":"MQClientException: ...","code":17}
 * </pre>
 *
 * Ops: "ping"; "mqadmin" (args: the mqadmin command line; runs MQAdminStartup.main0 in this JVM
 * and returns what it printed as "out" and "err" — mqadmin reports failures only in its output);
 * "admin" (one DefaultMQAdminExt call, see {@link AdminOps}); "route" (DefaultMQProducer
 * fetchPublishMessageQueues for "topic"); "produce" and "consume" (a fresh DefaultMQProducer /
 * DefaultMQPushConsumer, see {@link MessagingOps}); "reset" (shut the cached admin clients down).
 *
 * The real stdout belongs to the protocol: System.out and System.err are replaced by buffers for
 * the whole life of the process, so nothing a library prints can corrupt a response line. Library
 * logging goes through slf4j/logback to the file named by -Dconformance.logFile (see logback.xml).
 * Requests are served one at a time.
 */
public final class Driver {
    private Driver() {
    }

    private static final MessagingOps MESSAGING = new MessagingOps();

    /** Where everything printed outside an mqadmin call ends up (kept small, never returned). */
    private static final ByteArrayOutputStream STRAY = new ByteArrayOutputStream();

    public static void main(String[] args) throws Exception {
        if (System.getProperty("rocketmq.client.logUseSlf4j") == null) {
            System.setProperty("rocketmq.client.logUseSlf4j", "true");
        }
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream diag = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        PrintStream stray = new PrintStream(STRAY, true, StandardCharsets.UTF_8);
        System.setOut(stray);
        System.setErr(stray);

        AdminOps ops = new AdminOps();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        protocol.println("{\"id\":0,\"ok\":true,\"result\":\"ready\"}");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JSONObject resp = new JSONObject(true);
            long id = -1;
            try {
                JSONObject req = JSON.parseObject(line);
                id = req.getLongValue("id");
                resp.put("id", id);
                handle(ops, req, resp);
            } catch (Throwable t) {
                resp.put("id", id);
                resp.put("ok", false);
                resp.put("error", describe(t));
                Integer code = AdminOps.responseCode(t);
                if (code != null) {
                    resp.put("code", code);
                }
                t.printStackTrace(diag);
            }
            protocol.println(JSON.toJSONString(resp, SerializerFeature.WriteNonStringKeyAsString,
                SerializerFeature.DisableCircularReferenceDetect, SerializerFeature.WriteMapNullValue));
            if (STRAY.size() > (1 << 20)) {
                STRAY.reset();
            }
            if ("exit".equals(resp.get("result"))) {
                break;
            }
        }
        ops.shutdown();
        System.exit(0);
    }

    private static void handle(AdminOps ops, JSONObject req, JSONObject resp) throws Exception {
        String op = req.getString("op");
        switch (op == null ? "" : op) {
            case "ping":
                resp.put("ok", true);
                resp.put("result", "pong");
                return;
            case "exit":
                resp.put("ok", true);
                resp.put("result", "exit");
                return;
            case "reset":
                ops.shutdown();
                resp.put("ok", true);
                return;
            case "mqadmin":
                mqadmin(toStrings(req.getJSONArray("args")), resp);
                return;
            case "route":
                resp.put("ok", true);
                resp.put("result", ops.route(req.getString("ns"), req.getString("topic")));
                return;
            case "admin":
                resp.put("ok", true);
                resp.put("result", ops.call(req.getString("ns"), req.getString("method"),
                    toStrings(req.getJSONArray("args"))));
                return;
            case "produce":
                resp.put("ok", true);
                resp.put("result", MESSAGING.produce(req.getString("ns"), req.getString("topic"),
                    req.getString("group"), req.getString("prefix"), req.getIntValue("count")));
                return;
            case "consume":
                resp.put("ok", true);
                resp.put("result", MESSAGING.consume(req.getString("ns"), req.getString("topic"),
                    req.getString("group"), req.getString("prefix"), req.getIntValue("count"),
                    req.getLongValue("timeoutMs")));
                return;
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    /** Runs one mqadmin command line in this JVM, capturing what it prints. */
    private static void mqadmin(String[] args, JSONObject resp) {
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
        resp.put("ok", true);
        resp.put("out", out.toString(StandardCharsets.UTF_8));
        resp.put("err", err.toString(StandardCharsets.UTF_8));
    }

    private static String[] toStrings(JSONArray a) {
        if (a == null) {
            return new String[0];
        }
        String[] s = new String[a.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = a.getString(i);
        }
        return s;
    }

    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString();
    }
}
