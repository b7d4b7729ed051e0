package io.sputnikmq.compat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Shared helpers for the oracle programs.
 *
 * Nothing in this class touches RemotingCommand (or any other RocketMQ class) from a static
 * initializer, so mains can set system properties (serialize type, remoting version, logging)
 * before the RocketMQ classes are initialized.
 */
final class Util {
    private Util() {
    }

    /** Frame limit used by the 4.9.8 NettyDecoder (com.rocketmq.remoting.frameMaxLength default). */
    static final int FRAME_MAX_LENGTH = 16777216;

    /**
     * Routes all RocketMQ logging through slf4j/logback (configured in logback.xml to go to stderr at
     * WARN) instead of the client "inner" logger, which would write files under ~/logs/rocketmqlogs.
     * Must run before any org.apache.rocketmq.client class is initialized.
     */
    static void quietLogging() {
        if (System.getProperty("rocketmq.client.logUseSlf4j") == null) {
            System.setProperty("rocketmq.client.logUseSlf4j", "true");
        }
        if (System.getProperty("rocketmq.client.logRoot") == null) {
            System.setProperty("rocketmq.client.logRoot",
                System.getProperty("java.io.tmpdir") + "/sputnik-compat-logs");
        }
        if (System.getProperty("rocketmq.client.logLevel") == null) {
            System.setProperty("rocketmq.client.logLevel", "WARN");
        }
    }

    /** A UTF-8 stdout that does not depend on the platform default charset. */
    static PrintStream utf8Stdout() {
        return new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    }

    static void die(String msg, Throwable t) {
        System.err.println(msg);
        if (t != null) {
            t.printStackTrace(System.err);
        }
        System.exit(1);
    }

    // ---------------------------------------------------------------- hex

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    static String hex(byte[] b) {
        if (b == null) {
            return "";
        }
        char[] out = new char[b.length * 2];
        for (int i = 0; i < b.length; i++) {
            out[2 * i] = HEX[(b[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[b[i] & 0xf];
        }
        return new String(out);
    }

    /** Hex, 32 bytes (64 hex digits) per line, every line terminated by '\n'. */
    static String hexLines(byte[] b) {
        String h = hex(b);
        StringBuilder sb = new StringBuilder(h.length() + h.length() / 64 + 1);
        for (int i = 0; i < h.length(); i += 64) {
            sb.append(h, i, Math.min(h.length(), i + 64)).append('\n');
        }
        return sb.toString();
    }

    /** Parses hex, ignoring all whitespace. */
    static byte[] unhex(String s) {
        StringBuilder clean = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isWhitespace(c)) {
                clean.append(c);
            }
        }
        if (clean.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits: " + clean.length());
        }
        byte[] out = new byte[clean.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(clean.charAt(2 * i), 16);
            int lo = Character.digit(clean.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("bad hex digit near offset " + (2 * i));
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    static void writeFile(Path p, String content) throws IOException {
        Files.write(p, content.getBytes(StandardCharsets.UTF_8));
    }

    // ---------------------------------------------------------------- frames

    /**
     * The bytes the 4.9.8 NettyEncoder puts on the wire for {@code cmd}: it calls
     * {@code fastEncodeHeader(out)} (which writes the 4-byte total length, the 4-byte
     * serialize-type/header-length word and the header) and then writes the body, if any.
     */
    static byte[] wireBytes(RemotingCommand cmd) {
        ByteBuf out = Unpooled.buffer();
        try {
            cmd.fastEncodeHeader(out);
            byte[] body = cmd.getBody();
            if (body != null) {
                out.writeBytes(body);
            }
            byte[] b = new byte[out.readableBytes()];
            out.readBytes(b);
            return b;
        } finally {
            out.release();
        }
    }

    /** Result of splitting a byte string into a frame the way NettyDecoder does. */
    static final class Decoded {
        RemotingCommand cmd;
        int trailing;
    }

    /**
     * Runs the bytes through the same LengthFieldBasedFrameDecoder configuration as the 4.9.8
     * NettyDecoder (max 16 MiB, length field at 0, 4 bytes, strip 4), then hands the frame to
     * {@code RemotingCommand.decode(ByteBuf)} exactly as NettyDecoder does. Exceptions propagate
     * (NettyDecoder itself would log them and close the channel).
     */
    static Decoded decodeWire(byte[] wire) throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(FRAME_MAX_LENGTH, 0, 4, 0, 4));
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(wire));
            ByteBuf frame = ch.readInbound();
            if (frame == null) {
                throw new IllegalStateException("incomplete frame: " + wire.length + " bytes do not hold a whole frame");
            }
            Decoded d = new Decoded();
            try {
                d.cmd = RemotingCommand.decode(frame);
            } finally {
                frame.release();
            }
            // Anything after the first frame (LengthFieldBasedFrameDecoder would treat it as the
            // start of the next frame); finishAndReleaseAll() frees whatever it buffered.
            long declared = ((wire[0] & 0xffL) << 24) | ((wire[1] & 0xffL) << 16)
                | ((wire[2] & 0xffL) << 8) | (wire[3] & 0xffL);
            d.trailing = (int) (wire.length - 4 - declared);
            return d;
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    // ---------------------------------------------------------------- header reflection

    /**
     * The fields RemotingCommand would encode/decode for a header class: every non-static field
     * whose name does not start with "this", walking from the class up to (excluding) Object,
     * subclass first, each class's fields in getDeclaredFields() order.
     */
    static List<Field> headerFields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("this")) {
                    continue;
                }
                out.add(f);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- JSON output

    /**
     * Minimal JSON writer: Map (in its iteration order), CharSequence, Number, Boolean, null.
     * Strings: '"' and '\\' escaped, \b \f \n \r \t short escapes, other C0 controls as \\u00XX,
     * everything else (including non-ASCII) written as is (stdout is UTF-8).
     */
    static String json(Object v) {
        StringBuilder sb = new StringBuilder();
        writeJson(sb, v);
        return sb.toString();
    }

    private static void writeJson(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeString(sb, String.valueOf(e.getKey()));
                sb.append(':');
                writeJson(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            writeString(sb, v.toString());
        }
    }

    private static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
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
}
