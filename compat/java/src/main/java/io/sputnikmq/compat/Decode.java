package io.sputnikmq.compat;

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Decode DIR
 *
 * Decodes every *.hex file in DIR (non-recursive; whitespace in the hex is ignored) with the 4.9.8
 * RemotingCommand.decode, after splitting off the 4-byte length the way NettyDecoder does, and
 * prints one JSON object per line, files in name order:
 *
 * {"file":..,"code":..,"language":"JAVA"|..|null,"version":..,"opaque":..,"flag":..,
 *  "remark":..|null,"serializeType":"JSON"|"ROCKETMQ","extFields":{sorted; null values as null}|null,
 *  "body":"<hex>"}
 *
 * extFields is JSON null when the decoded command has no ext map at all. body is "" when there is no
 * body. When bytes follow the first frame a "trailing":<count> member is added. For file names
 * starting with send_v2_, send_v1_, pull_request, pull_response or send_response the custom header is
 * also decoded (decodeCommandCustomHeader) and added as "header":{field: string or null, sorted}.
 * A file that fails prints {"file":..,"error":"<exception class>: <message>"}.
 */
public final class Decode {
    private Decode() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length != 1) {
            Util.die("usage: Decode DIR", null);
        }
        PrintStream out = Util.utf8Stdout();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get(args[0]), "*.hex")) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        files.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        for (Path p : files) {
            String name = p.getFileName().toString();
            Map<String, Object> o;
            try {
                byte[] wire = Util.unhex(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
                o = describe(name, wire);
            } catch (Throwable t) {
                o = new LinkedHashMap<>();
                o.put("file", name);
                o.put("error", t.getClass().getName() + ": " + t.getMessage());
            }
            out.println(Util.json(o));
        }
        out.flush();
    }

    /** Header class used for a file, by file-name prefix, or null. */
    static Class<? extends CommandCustomHeader> headerClassFor(String file) {
        if (file.startsWith("send_v2_")) {
            return org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2.class;
        } else if (file.startsWith("send_v1_")) {
            return org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader.class;
        } else if (file.startsWith("pull_request")) {
            return org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader.class;
        } else if (file.startsWith("pull_response")) {
            return org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader.class;
        } else if (file.startsWith("send_response")) {
            return org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader.class;
        }
        return null;
    }

    static Map<String, Object> describe(String name, byte[] wire) throws Exception {
        Util.Decoded d = Util.decodeWire(wire);
        RemotingCommand cmd = d.cmd;
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("file", name);
        o.put("code", cmd.getCode());
        o.put("language", cmd.getLanguage() == null ? null : cmd.getLanguage().name());
        o.put("version", cmd.getVersion());
        o.put("opaque", cmd.getOpaque());
        o.put("flag", cmd.getFlag());
        o.put("remark", cmd.getRemark());
        o.put("serializeType", cmd.getSerializeTypeCurrentRPC() == null ? null : cmd.getSerializeTypeCurrentRPC().name());
        o.put("extFields", cmd.getExtFields() == null ? null : new TreeMap<>(cmd.getExtFields()));
        o.put("body", Util.hex(cmd.getBody()));
        if (d.trailing != 0) {
            o.put("trailing", d.trailing);
        }
        Class<? extends CommandCustomHeader> hc = headerClassFor(name);
        if (hc != null) {
            try {
                CommandCustomHeader h = cmd.decodeCommandCustomHeader(hc);
                o.put("header", h == null ? null : headerValues(h));
            } catch (Exception e) {
                o.put("headerError", e.getClass().getName() + ": " + e.getMessage());
            }
        }
        return o;
    }

    static Map<String, Object> headerValues(Object h) throws IllegalAccessException {
        Map<String, Object> m = new TreeMap<>();
        for (Field f : Util.headerFields(h.getClass())) {
            f.setAccessible(true);
            Object v = f.get(h);
            m.put(f.getName(), v == null ? null : String.valueOf(v));
        }
        return m;
    }
}
