package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.MessageExtBrokerInner;

/**
 * Commit-log records as RocketMQ 4.9.8 stores them, for store/message's oracle test.
 *
 * <p>Each non-blank stdin line is a JSON object; the answer is one stdout line.
 *
 * <pre>
 * {"kind":"record", "topic", "queueId", "flag", "body" (hex), "header" (the request header's
 *  properties string), "cluster", "sysFlag", "bornHost", "bornPort", "storeHost", "storePort",
 *  "bornTimestamp", "storeTimestamp", "queueOffset", "physicalOffset", "reconsumeTimes",
 *  "preparedTransactionOffset"}
 *   => "store=HEX props=HEX decoder=HEX"
 * {"kind":"batch", the same host/time/queue fields, "header", "cluster",
 *  "entries":[{"flag", "body" (hex), "props" (properties string)}...]}
 *   => "wire=HEX records=HEX"
 * </pre>
 *
 * <p>store: the record built the way SendMessageProcessor and CommitLog.asyncPutMessage prepare a
 * MessageExtBrokerInner (properties parsed from the header into a HashMap, CLUSTER put, WAIT left out
 * of the properties string; body CRC; IPv6 sysflag bits), encoded by the store's own
 * CommitLog.MessageExtEncoder (package-private, called by reflection), then stamped as
 * DefaultAppendMessageCallback.doAppend does inside the lock: QUEUEOFFSET at 20, PHYSICALOFFSET at 28
 * and STORETIMESTAMP after the born host. props: the properties string stored.
 *
 * <p>decoder: MessageDecoder.encode(msg, false) of the same message with the position fields set. Its
 * layout is field for field that of MessageExtEncoder.encode + doAppend (same 17 fields, same order,
 * same widths, TOTALSIZE from the same sum); it differs only in the properties, which it writes from
 * the message's map (which still holds WAIT when the header had it) rather than from the stored
 * propertiesString.
 *
 * <p>wire: MessageDecoder.encodeMessages of the entries (each entry's properties go through a
 * HashMap). records: the batch as CommitLog.MessageExtEncoder.encode(MessageExtBatch, ...) encodes
 * it (the batch's properties: header parsed + CLUSTER, as SendMessageProcessor.asyncSendBatchMessage
 * sets them), stamped per entry as the batch doAppend does (queue offsets counting up from
 * queueOffset, physical offsets from physicalOffset).
 */
public final class RecordEncode {
    private static final int MAX_BODY = 4 * 1024 * 1024;

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            try {
                JSONObject o = JSON.parseObject(line);
                out.println("batch".equals(o.getString("kind")) ? batch(o) : record(o));
            } catch (Throwable t) {
                out.println("ERROR " + t.getClass().getName() + ": " + t.getMessage());
            }
            out.flush();
        }
    }

    private static InetSocketAddress host(JSONObject o, String prefix) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(o.getString(prefix + "Host")), o.getIntValue(prefix + "Port"));
    }

    private static String record(JSONObject o) throws Exception {
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(o.getString("topic"));
        m.setQueueId(o.getIntValue("queueId"));
        m.setFlag(o.getIntValue("flag"));
        m.setBody(Util.unhex(o.getString("body")));
        Map<String, String> props = MessageDecoder.string2messageProperties(o.getString("header"));
        MessageAccessor.setProperties(m, props);
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_CLUSTER, o.getString("cluster"));
        if (props.containsKey(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)) {
            String wait = props.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
            m.setPropertiesString(MessageDecoder.messageProperties2String(m.getProperties()));
            props.put(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, wait);
        } else {
            m.setPropertiesString(MessageDecoder.messageProperties2String(m.getProperties()));
        }
        m.setSysFlag(o.getIntValue("sysFlag"));
        m.setBornTimestamp(o.getLongValue("bornTimestamp"));
        m.setBornHost(host(o, "born"));
        m.setStoreHost(host(o, "store"));
        m.setReconsumeTimes(o.getIntValue("reconsumeTimes"));
        m.setPreparedTransactionOffset(o.getLongValue("preparedTransactionOffset"));
        m.setBodyCRC(UtilAll.crc32(m.getBody()));
        if (((InetSocketAddress) m.getBornHost()).getAddress() instanceof Inet6Address) {
            m.setBornHostV6Flag();
        }
        if (((InetSocketAddress) m.getStoreHost()).getAddress() instanceof Inet6Address) {
            m.setStoreHostAddressV6Flag();
        }
        m.setStoreTimestamp(o.getLongValue("storeTimestamp"));

        Object encoder = newEncoder();
        Method encode = encoder.getClass().getDeclaredMethod("encode", MessageExtBrokerInner.class);
        encode.setAccessible(true);
        Object failure = encode.invoke(encoder, m);
        if (failure != null) {
            return "ERROR encode: " + failure;
        }
        ByteBuffer buf = (ByteBuffer) encoder.getClass().getMethod("getEncoderBuffer").invoke(encoder);
        byte[] store = new byte[buf.remaining()];
        buf.get(store);
        stamp(ByteBuffer.wrap(store), 0, m.getSysFlag(), o.getLongValue("queueOffset"),
            o.getLongValue("physicalOffset"), m.getStoreTimestamp());

        m.setQueueOffset(o.getLongValue("queueOffset"));
        m.setCommitLogOffset(o.getLongValue("physicalOffset"));
        byte[] decoder = MessageDecoder.encode(m, false);
        return "store=" + Util.hex(store) + " props=" + Util.hex(m.getPropertiesString().getBytes(StandardCharsets.UTF_8))
            + " decoder=" + Util.hex(decoder);
    }

    private static String batch(JSONObject o) throws Exception {
        List<Message> msgs = new ArrayList<>();
        JSONArray entries = o.getJSONArray("entries");
        for (int i = 0; i < entries.size(); i++) {
            JSONObject e = entries.getJSONObject(i);
            Message msg = new Message(o.getString("topic"), Util.unhex(e.getString("body")));
            msg.setFlag(e.getIntValue("flag"));
            MessageAccessor.setProperties(msg, MessageDecoder.string2messageProperties(e.getString("props")));
            msgs.add(msg);
        }
        byte[] wire = MessageDecoder.encodeMessages(msgs);

        MessageExtBatch b = new MessageExtBatch();
        b.setTopic(o.getString("topic"));
        b.setQueueId(o.getIntValue("queueId"));
        b.setSysFlag(o.getIntValue("sysFlag"));
        MessageAccessor.setProperties(b, MessageDecoder.string2messageProperties(o.getString("header")));
        MessageAccessor.putProperty(b, MessageConst.PROPERTY_CLUSTER, o.getString("cluster"));
        b.setBody(wire);
        b.setBornTimestamp(o.getLongValue("bornTimestamp"));
        b.setBornHost(host(o, "born"));
        b.setStoreHost(host(o, "store"));
        b.setReconsumeTimes(o.getIntValue("reconsumeTimes"));
        if (((InetSocketAddress) b.getBornHost()).getAddress() instanceof Inet6Address) {
            b.setBornHostV6Flag();
        }
        if (((InetSocketAddress) b.getStoreHost()).getAddress() instanceof Inet6Address) {
            b.setStoreHostAddressV6Flag();
        }
        b.setStoreTimestamp(o.getLongValue("storeTimestamp"));

        Object encoder = newEncoder();
        Class<?> ctxClass = Class.forName("org.apache.rocketmq.store.CommitLog$PutMessageContext");
        Constructor<?> ctxNew = ctxClass.getDeclaredConstructor(String.class);
        ctxNew.setAccessible(true);
        Object ctx = ctxNew.newInstance(b.getTopic() + "-" + b.getQueueId());
        Method encode = encoder.getClass().getDeclaredMethod("encode", MessageExtBatch.class, ctxClass);
        encode.setAccessible(true);
        ByteBuffer buf = (ByteBuffer) encode.invoke(encoder, b, ctx);
        byte[] records = new byte[buf.remaining()];
        buf.get(records);

        ByteBuffer rb = ByteBuffer.wrap(records);
        long queueOffset = o.getLongValue("queueOffset");
        long phys = o.getLongValue("physicalOffset");
        for (int pos = 0; pos < records.length; ) {
            int size = rb.getInt(pos);
            stamp(rb, pos, b.getSysFlag(), queueOffset++, phys + pos, b.getStoreTimestamp());
            pos += size;
        }
        return "wire=" + Util.hex(wire) + " records=" + Util.hex(records);
    }

    private static Object newEncoder() throws Exception {
        Class<?> c = Class.forName("org.apache.rocketmq.store.CommitLog$MessageExtEncoder");
        Constructor<?> ctor = c.getDeclaredConstructor(int.class);
        ctor.setAccessible(true);
        return ctor.newInstance(MAX_BODY);
    }

    /** The three puts doAppend makes into an encoded record inside the lock. */
    private static void stamp(ByteBuffer b, int at, int sysFlag, long queueOffset, long phys, long storeTimestamp) {
        int bornHostLength = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? 4 + 4 : 16 + 4;
        b.putLong(at + 20, queueOffset);
        b.putLong(at + 28, phys);
        b.putLong(at + 28 + 8 + 4 + 8 + bornHostLength, storeTimestamp);
    }
}
