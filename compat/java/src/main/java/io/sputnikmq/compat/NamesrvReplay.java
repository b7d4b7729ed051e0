package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * NamesrvReplay HOST:PORT SCENARIO.jsonl
 *
 * Replays a name-server scenario with the 4.9.8 NettyRemotingClient and prints one line per step,
 * so that the same scenario run against the Java name server and against Sputnik's can be compared
 * line by line (namesrv/testdata/scenario.jsonl; golden output in namesrv/testdata/).
 *
 * Each scenario line is a JSON object:
 *   step       name printed first
 *   conn       logical connection: each name gets its own NettyRemotingClient (one channel)
 *   code, version, ext (map of strings), serialize ("JSON" default or "ROCKETMQ")
 *   body       UTF-8 text; with compress=true it is a RegisterBrokerBody JSON sent as
 *              RegisterBrokerBody.encode(true)
 *   crc        "auto": ext bodyCrc32 = UtilAll.crc32(body bytes)
 *   close      instead of a request: shut that connection's client down, then wait 1.5 s for the
 *              server to notice (awaitGone names the broker address expected to leave; ignored here)
 *   expectNoResponse  a 1 s timeout is the expected outcome
 *
 * Output: step TAB code TAB remark TAB ext TAB body, where ext is the response's extFields sorted as
 * k=v joined by '&', a null remark or body prints empty, and \ TAB CR LF inside fields print as
 * \\ \t \r \n. A close step prints "step TAB closed"; a timeout prints "step TAB NO_RESPONSE".
 */
public final class NamesrvReplay {
    private NamesrvReplay() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length != 2) {
            Util.die("usage: NamesrvReplay HOST:PORT SCENARIO.jsonl", null);
        }
        String addr = args[0];
        List<String> lines = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
        PrintStream out = Util.utf8Stdout();
        Map<String, NettyRemotingClient> clients = new HashMap<>();
        try {
            for (String line : lines) {
                if (line.isEmpty()) {
                    continue;
                }
                out.println(step(JSON.parseObject(line), addr, clients));
                out.flush();
            }
        } finally {
            for (NettyRemotingClient c : clients.values()) {
                c.shutdown();
            }
        }
        System.exit(0);
    }

    static String step(JSONObject s, String addr, Map<String, NettyRemotingClient> clients) throws Exception {
        String name = s.getString("step");
        if (s.containsKey("close")) {
            NettyRemotingClient c = clients.remove(s.getString("close"));
            if (c != null) {
                c.shutdown();
            }
            Thread.sleep(1500);
            return name + "\tclosed";
        }
        NettyRemotingClient client = clients.computeIfAbsent(s.getString("conn"), k -> {
            NettyRemotingClient c = new NettyRemotingClient(new NettyClientConfig());
            c.start();
            return c;
        });
        RemotingCommand req = request(s);
        boolean noResponse = s.getBooleanValue("expectNoResponse");
        RemotingCommand resp;
        try {
            resp = client.invokeSync(addr, req, noResponse ? 1000 : 5000);
        } catch (RemotingTimeoutException e) {
            return name + "\tNO_RESPONSE";
        }
        StringBuilder ext = new StringBuilder();
        if (resp.getExtFields() != null) {
            for (Map.Entry<String, String> e : new TreeMap<>(resp.getExtFields()).entrySet()) {
                if (ext.length() > 0) {
                    ext.append('&');
                }
                ext.append(e.getKey()).append('=').append(e.getValue());
            }
        }
        String body = resp.getBody() == null ? "" : new String(resp.getBody(), StandardCharsets.UTF_8);
        return name + "\t" + resp.getCode() + "\t" + esc(resp.getRemark()) + "\t" + esc(ext.toString()) + "\t" + esc(body);
    }

    static RemotingCommand request(JSONObject s) {
        RemotingCommand req = RemotingCommand.createRequestCommand(s.getIntValue("code"), null);
        req.setVersion(s.getIntValue("version"));
        if ("ROCKETMQ".equals(s.getString("serialize"))) {
            req.setSerializeTypeCurrentRPC(SerializeType.ROCKETMQ);
        }
        HashMap<String, String> ext = new HashMap<>();
        JSONObject e = s.getJSONObject("ext");
        if (e != null) {
            for (String k : e.keySet()) {
                ext.put(k, e.getString(k));
            }
        }
        byte[] body = null;
        if (s.containsKey("body")) {
            body = s.getString("body").getBytes(StandardCharsets.UTF_8);
            if (s.getBooleanValue("compress")) {
                body = RegisterBrokerBody.decode(body, RegisterBrokerBody.class).encode(true);
            }
            if ("auto".equals(s.getString("crc"))) {
                ext.put("bodyCrc32", String.valueOf(UtilAll.crc32(body)));
            }
        }
        req.setExtFields(ext);
        req.setBody(body);
        return req;
    }

    static String esc(String v) {
        if (v == null) {
            return "";
        }
        return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n");
    }
}
