package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Encode [--header-from-file]  (reads stdin, writes stdout)
 *
 * Each non-blank stdin line is a JSON object in Decode's schema:
 *   code (int), language (LanguageCode name or null; missing = JAVA), version (int), opaque (int),
 *   flag (int), remark (string|null), serializeType ("JSON"|"ROCKETMQ"; missing = JSON),
 *   extFields (object of string|null, or null), body (hex string; "" or missing = no body).
 * Other members (file, header, ...) are ignored, except the optional
 *   headerClass: fully qualified CommandCustomHeader class name. Then the header is decoded from
 *   extFields with decodeCommandCustomHeader, its field names are removed from extFields and the
 *   header object is attached with writeCustomHeader, so the frame is encoded the way a Java sender
 *   holding that header object would encode it (matters for FastCodesHeader classes under ROCKETMQ,
 *   whose fields are written in the header's own order before the ext map).
 *   With --header-from-file, a line without headerClass gets the header class Decode would use for
 *   its "file" member (send_v2_*, send_v1_*, pull_request*, pull_response*, send_response*).
 *
 * For each input line one output line: the full frame (length prefix included) as a single line of
 * lowercase hex, encoded as NettyEncoder does (fastEncodeHeader + body). A line that cannot be
 * encoded yields "ERROR <exception class>: <message>" on stdout (and processing continues).
 *
 * extFields are put into a fresh HashMap in sorted key order; under ROCKETMQ (and JSON) the wire
 * order is that HashMap's iteration order, exactly what Java would produce for that map.
 */
public final class Encode {
    private Encode() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        boolean headerFromFile = false;
        for (String a : args) {
            if (a.equals("--header-from-file")) {
                headerFromFile = true;
            } else {
                Util.die("usage: Encode [--header-from-file] < jsonl", null);
            }
        }
        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            try {
                JSONObject o = JSON.parseObject(line);
                if (headerFromFile && o.getString("headerClass") == null && o.getString("file") != null) {
                    Class<?> c = Decode.headerClassFor(o.getString("file"));
                    if (c != null) {
                        o.put("headerClass", c.getName());
                    }
                }
                out.println(Util.hex(Util.wireBytes(build(o))));
            } catch (Throwable t) {
                out.println("ERROR " + t.getClass().getName() + ": " + t.getMessage());
            }
            out.flush();
        }
    }

    @SuppressWarnings("unchecked")
    static RemotingCommand build(JSONObject o) throws Exception {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(o.getIntValue("code"), null);
        if (o.containsKey("language")) {
            String l = o.getString("language");
            cmd.setLanguage(l == null ? null : LanguageCode.valueOf(l));
        }
        cmd.setVersion(o.getIntValue("version"));
        cmd.setOpaque(o.getIntValue("opaque"));
        cmd.setFlag(o.getIntValue("flag"));
        cmd.setRemark(o.getString("remark"));
        String st = o.getString("serializeType");
        cmd.setSerializeTypeCurrentRPC(st == null ? SerializeType.JSON : SerializeType.valueOf(st));
        JSONObject ext = o.getJSONObject("extFields");
        if (ext != null) {
            HashMap<String, String> m = new HashMap<>();
            for (Map.Entry<String, Object> e : new TreeMap<>(ext).entrySet()) {
                m.put(e.getKey(), e.getValue() == null ? null : e.getValue().toString());
            }
            cmd.setExtFields(m);
        }
        String body = o.getString("body");
        if (body != null && !body.isEmpty()) {
            cmd.setBody(Util.unhex(body));
        }
        String hc = o.getString("headerClass");
        if (hc != null) {
            Class<? extends CommandCustomHeader> c =
                (Class<? extends CommandCustomHeader>) Class.forName(hc).asSubclass(CommandCustomHeader.class);
            CommandCustomHeader h = cmd.decodeCommandCustomHeader(c);
            if (cmd.getExtFields() != null) {
                for (Field f : Util.headerFields(c)) {
                    cmd.getExtFields().remove(f.getName());
                }
                if (cmd.getExtFields().isEmpty()) {
                    cmd.setExtFields(null);
                }
            }
            cmd.writeCustomHeader(h);
        }
        return cmd;
    }
}
