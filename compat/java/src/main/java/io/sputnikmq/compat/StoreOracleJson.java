package io.sputnikmq.compat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;

/**
 * JSON output and commit-log record fields for StoreOracle. The JSON writer handles Map (iteration
 * order), List, CharSequence, Number, Boolean and null; strings escape '"', '\\', the short
 * escapes and other C0 controls as \\u00XX (lowercase hex), everything else is written as is.
 */
final class StoreOracleJson {
    private StoreOracleJson() {
    }

    /** CommitLog.MESSAGE_MAGIC_CODE (4.9.8). */
    static final int MESSAGE_MAGIC = -626843481;
    /** CommitLog.BLANK_MAGIC_CODE (4.9.8). */
    static final int BLANK_MAGIC = -875286124;

    static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        value(sb, v);
        return sb.toString();
    }

    private static void value(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(':');
                value(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object o : (List<?>) v) {
                sb.append(first ? "" : ",");
                first = false;
                value(sb, o);
            }
            sb.append(']');
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            string(sb, v.toString());
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    /**
     * "a.b.c.d:port" for IPv4, "[h:h:h:h:h:h:h:h]:port" for IPv6 with Java's
     * Inet6Address.getHostAddress spelling (eight lowercase groups, no "::" compression).
     */
    static String host(SocketAddress sa) {
        InetSocketAddress a = (InetSocketAddress) sa;
        InetAddress ip = a.getAddress();
        String h = ip.getHostAddress();
        int pct = h.indexOf('%');
        if (pct >= 0) {
            h = h.substring(0, pct);
        }
        return (ip instanceof Inet6Address ? "[" + h + "]" : h) + ":" + a.getPort();
    }

    /**
     * The fields of the record in {@code rec} (exactly one whole record, position 0) as decoded by
     * MessageDecoder.decode(buf, readBody=true, deCompressBody=false), plus the raw properties
     * string (read from its offset in the record, because decode only keeps the parsed map) and
     * the record bytes as hex. A record decode rejects gets {"decodeError": true}.
     */
    static Map<String, Object> fields(byte[] rec) {
        Map<String, Object> m = new LinkedHashMap<>();
        MessageExt x = MessageDecoder.decode(ByteBuffer.wrap(rec), true, false);
        if (x == null) {
            m.put("decodeError", true);
            m.put("hex", Util.hex(rec));
            return m;
        }
        m.put("storeSize", x.getStoreSize());
        m.put("bodyCRC", x.getBodyCRC());
        m.put("topic", x.getTopic());
        m.put("queueId", x.getQueueId());
        m.put("flag", x.getFlag());
        m.put("queueOffset", x.getQueueOffset());
        m.put("commitLogOffset", x.getCommitLogOffset());
        m.put("sysFlag", x.getSysFlag());
        m.put("bornTimestamp", x.getBornTimestamp());
        m.put("bornHost", host(x.getBornHost()));
        m.put("storeTimestamp", x.getStoreTimestamp());
        m.put("storeHost", host(x.getStoreHost()));
        m.put("reconsumeTimes", x.getReconsumeTimes());
        m.put("preparedTransactionOffset", x.getPreparedTransactionOffset());
        m.put("msgId", x.getMsgId());
        m.put("body", Util.hex(x.getBody()));
        m.put("properties", rawProperties(rec, x.getSysFlag()));
        m.put("hex", Util.hex(rec));
        return m;
    }

    /** Offset of BODYLENGTH: the fixed fields before it, with the host widths sysFlag selects. */
    static int bodyLengthPos(int sysFlag) {
        int born = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? 8 : 20;
        int store = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) == 0 ? 8 : 20;
        return 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + born + 8 + store + 4 + 8;
    }

    static String rawProperties(byte[] rec, int sysFlag) {
        ByteBuffer b = ByteBuffer.wrap(rec);
        int p = bodyLengthPos(sysFlag);
        int bodyLen = b.getInt(p);
        p += 4 + bodyLen;
        int topicLen = b.get(p);
        p += 1 + topicLen;
        int propLen = b.getShort(p);
        if (propLen <= 0) {
            return "";
        }
        return new String(rec, p + 2, propLen, StandardCharsets.UTF_8);
    }
}
