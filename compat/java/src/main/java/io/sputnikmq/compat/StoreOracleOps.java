package io.sputnikmq.compat;

import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * Turns one JSON op into the MessageExtBrokerInner / MessageExtBatch the 4.9.8 broker would hand
 * to the store, and puts it. Each step names the Java code it mirrors; the fields are set in the
 * same order the broker sets them, because the order of puts into the properties HashMap is what
 * decides the stored properties string (MessageDecoder.messageProperties2String iterates it).
 */
final class StoreOracleOps {
    static final String HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    static final String OP_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    static final String REMOVE_TAG = "d";

    private final DefaultMessageStore store;
    /** wroteOffset of the first put of each op applied so far, by op index ("halfOp" refers here). */
    private final List<Long> opOffsets = new ArrayList<>();

    StoreOracleOps(DefaultMessageStore store) {
        this.store = store;
    }

    /** Applies one op and returns one result line per put it made (commit makes two). */
    List<Map<String, Object>> apply(JSONObject op) throws Exception {
        List<Map<String, Object>> out = applyOne(op);
        Object off = out.isEmpty() ? null : out.get(0).get("wroteOffset");
        opOffsets.add(off == null ? -1L : (Long) off);
        return out;
    }

    private List<Map<String, Object>> applyOne(JSONObject op) throws Exception {
        String kind = op.getString("op");
        switch (kind) {
            case "put":
            case "delay":
            case "half":
                return one(kind, store.putMessage(single(op, kind)));
            case "batch":
                return one(kind, store.putMessages(batch(op)));
            case "commit":
                return endTransaction(op, true);
            case "rollback":
                return endTransaction(op, false);
            default:
                throw new IllegalArgumentException("unknown op " + kind);
        }
    }

    private static List<Map<String, Object>> one(String kind, PutMessageResult r) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(StoreOracle.result(kind, r));
        return out;
    }

    // ------------------------------------------------------------------ put / delay / half

    /**
     * SendMessageProcessor.asyncSendMessage: properties parsed into a HashMap, WAIT left out of the
     * stored string, and TRAN_MSG=true routed through TransactionalMessageBridge.parseHalfMessageInner.
     * With "raw": true the pairs are joined verbatim and no broker step runs (a store-level put).
     */
    MessageExtBrokerInner single(JSONObject op, String kind) {
        List<String[]> pairs = pairs(op.getJSONArray("properties"));
        if (kind.equals("delay")) {
            pairs.add(new String[] {MessageConst.PROPERTY_DELAY_TIME_LEVEL, String.valueOf(op.getIntValue("level"))});
        } else if (kind.equals("half") && !hasKey(pairs, MessageConst.PROPERTY_TRANSACTION_PREPARED)) {
            pairs.add(new String[] {MessageConst.PROPERTY_TRANSACTION_PREPARED, "true"});
        }
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic(op.getString("topic"));
        msg.setQueueId(op.getIntValue("queueId"));
        msg.setBody(Util.unhex(str(op, "body")));
        msg.setFlag(op.getIntValue("flag"));
        Map<String, String> props = hashMap(pairs);
        MessageAccessor.setProperties(msg, props);
        msg.setBornTimestamp(op.getLongValue("bornTimestamp"));
        msg.setBornHost(host(op.getString("bornHost"), "127.0.0.1:50000"));
        msg.setStoreHost(host(op.getString("storeHost"), "127.0.0.1:10911"));
        msg.setReconsumeTimes(op.getIntValue("reconsumeTimes"));
        msg.setSysFlag(op.getIntValue("sysFlag"));
        msg.setPreparedTransactionOffset(op.getLongValue("preparedTransactionOffset"));
        if (op.getBooleanValue("raw")) {
            msg.setPropertiesString(joinVerbatim(pairs));
            return msg;
        }
        if (props.containsKey(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)) {
            String wait = props.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
            msg.setPropertiesString(MessageDecoder.messageProperties2String(props));
            props.put(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, wait);
        } else {
            msg.setPropertiesString(MessageDecoder.messageProperties2String(props));
        }
        if (Boolean.parseBoolean(props.get(MessageConst.PROPERTY_TRANSACTION_PREPARED))) {
            parseHalfMessageInner(msg);
        }
        return msg;
    }

    /** TransactionalMessageBridge.parseHalfMessageInner (4.9.8). */
    static void parseHalfMessageInner(MessageExtBrokerInner msg) {
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_REAL_TOPIC, msg.getTopic());
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_REAL_QUEUE_ID, String.valueOf(msg.getQueueId()));
        msg.setSysFlag(MessageSysFlag.resetTransactionValue(msg.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msg.setTopic(HALF_TOPIC);
        msg.setQueueId(0);
        msg.setPropertiesString(MessageDecoder.messageProperties2String(msg.getProperties()));
    }

    // ------------------------------------------------------------------ batch

    /**
     * The client's MessageBatch body (MessageDecoder.encodeMessages over entries whose properties
     * were put into the Message's HashMap in the given order), wrapped the way
     * SendMessageProcessor.asyncSendBatchMessage builds its MessageExtBatch.
     */
    MessageExtBatch batch(JSONObject op) {
        List<Message> entries = new ArrayList<>();
        JSONArray list = op.getJSONArray("entries");
        for (int i = 0; list != null && i < list.size(); i++) {
            JSONObject e = list.getJSONObject(i);
            Message m = new Message();
            m.setTopic(op.getString("topic"));
            m.setFlag(e.getIntValue("flag"));
            m.setBody(Util.unhex(str(e, "body")));
            for (String[] kv : pairs(e.getJSONArray("properties"))) {
                MessageAccessor.putProperty(m, kv[0], kv[1]);
            }
            entries.add(m);
        }
        MessageExtBatch b = new MessageExtBatch();
        b.setTopic(op.getString("topic"));
        b.setQueueId(op.getIntValue("queueId"));
        b.setSysFlag(op.getIntValue("sysFlag"));
        b.setFlag(op.getIntValue("flag"));
        MessageAccessor.setProperties(b, hashMap(pairs(op.getJSONArray("properties"))));
        b.setBody(MessageDecoder.encodeMessages(entries));
        b.setBornTimestamp(op.getLongValue("bornTimestamp"));
        b.setBornHost(host(op.getString("bornHost"), "127.0.0.1:50000"));
        b.setStoreHost(host(op.getString("storeHost"), "127.0.0.1:10911"));
        b.setReconsumeTimes(op.getIntValue("reconsumeTimes"));
        return b;
    }

    // ------------------------------------------------------------------ commit / rollback

    /**
     * EndTransactionProcessor (4.9.8) for the half message stored at "halfOffset" (or written by
     * the op with index "halfOp" in this run): commit puts
     * endMessageTransaction's message with the COMMIT type, then both write the op message of
     * TransactionalMessageBridge.addRemoveTagInTransactionOp.
     */
    List<Map<String, Object>> endTransaction(JSONObject op, boolean commit) {
        long halfOffset = op.containsKey("halfOp") ? opOffsets.get(op.getIntValue("halfOp")) : op.getLongValue("halfOffset");
        MessageExt half = store.lookMessageByOffset(halfOffset);
        if (half == null) {
            throw new IllegalArgumentException("no message at halfOffset " + halfOffset);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        if (commit) {
            MessageExtBrokerInner fin = endMessageTransaction(half);
            fin.setSysFlag(MessageSysFlag.resetTransactionValue(fin.getSysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE));
            fin.setQueueOffset(half.getQueueOffset());
            fin.setPreparedTransactionOffset(half.getCommitLogOffset());
            fin.setStoreTimestamp(half.getStoreTimestamp());
            MessageAccessor.clearProperty(fin, MessageConst.PROPERTY_TRANSACTION_PREPARED);
            out.add(StoreOracle.result("commit", store.putMessage(fin)));
        }
        out.add(StoreOracle.result("op", store.putMessage(opMessage(op, half))));
        return out;
    }

    /** EndTransactionProcessor.endMessageTransaction: the string keeps REAL_TOPIC/REAL_QID/TRAN_MSG. */
    static MessageExtBrokerInner endMessageTransaction(MessageExt half) {
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(half.getUserProperty(MessageConst.PROPERTY_REAL_TOPIC));
        m.setQueueId(Integer.parseInt(half.getUserProperty(MessageConst.PROPERTY_REAL_QUEUE_ID)));
        m.setBody(half.getBody());
        m.setFlag(half.getFlag());
        m.setBornTimestamp(half.getBornTimestamp());
        m.setBornHost(half.getBornHost());
        m.setStoreHost(half.getStoreHost());
        m.setReconsumeTimes(half.getReconsumeTimes());
        m.setWaitStoreMsgOK(false);
        m.setTransactionId(half.getUserProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        m.setSysFlag(half.getSysFlag());
        MessageAccessor.setProperties(m, half.getProperties());
        m.setPropertiesString(MessageDecoder.messageProperties2String(half.getProperties()));
        MessageAccessor.clearProperty(m, MessageConst.PROPERTY_REAL_TOPIC);
        MessageAccessor.clearProperty(m, MessageConst.PROPERTY_REAL_QUEUE_ID);
        return m;
    }

    /**
     * TransactionalMessageBridge.makeOpMessageInner for new Message(OP_TOPIC, "d", queueOffset):
     * the string is built before WAIT=false and UNIQ_KEY are put into the map, so it holds only the
     * Message constructor's TAGS and WAIT=true. bornTimestamp (System.currentTimeMillis() in Java) and
     * storeHost (brokerIP1:listenPort) come from the op so the record is reproducible.
     */
    static MessageExtBrokerInner opMessage(JSONObject op, MessageExt half) {
        byte[] body = String.valueOf(half.getQueueOffset()).getBytes(StandardCharsets.UTF_8);
        Message message = new Message(OP_TOPIC, REMOVE_TAG, body);
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(message.getTopic());
        m.setBody(message.getBody());
        m.setQueueId(half.getQueueId());
        m.setTags(message.getTags());
        m.setTagsCode(MessageExtBrokerInner.tagsString2tagsCode(m.getTags()));
        m.setSysFlag(0);
        MessageAccessor.setProperties(m, message.getProperties());
        m.setPropertiesString(MessageDecoder.messageProperties2String(message.getProperties()));
        m.setBornTimestamp(op.getLongValue("bornTimestamp"));
        InetSocketAddress storeHost = host(op.getString("storeHost"), "127.0.0.1:10911");
        m.setBornHost(storeHost);
        m.setStoreHost(storeHost);
        m.setWaitStoreMsgOK(false);
        return m;
    }

    // ------------------------------------------------------------------ kill

    /** Deterministic kill-loop message: body and keys derived from seq only. */
    MessageExtBrokerInner killMessage(String topic, int queueId, long seq, int bodySize) {
        byte[] body = new byte[bodySize];
        for (int i = 0; i < bodySize; i++) {
            body[i] = (byte) ('a' + (int) ((seq + i) % 26));
        }
        Map<String, String> props = new HashMap<>();
        props.put(MessageConst.PROPERTY_KEYS, "seq-" + seq);
        props.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, String.format("KILL%028d", seq));
        MessageExtBrokerInner m = new MessageExtBrokerInner();
        m.setTopic(topic);
        m.setQueueId(queueId);
        m.setBody(body);
        MessageAccessor.setProperties(m, props);
        m.setPropertiesString(MessageDecoder.messageProperties2String(props));
        m.setBornTimestamp(1700000000000L + seq);
        m.setBornHost(host(null, "127.0.0.1:50000"));
        m.setStoreHost(host(null, "127.0.0.1:10911"));
        return m;
    }

    // ------------------------------------------------------------------ helpers

    static String str(JSONObject o, String key) {
        String s = o.getString(key);
        return s == null ? "" : s;
    }

    static List<String[]> pairs(JSONArray a) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; a != null && i < a.size(); i++) {
            JSONArray kv = a.getJSONArray(i);
            if (kv.size() != 2) {
                throw new IllegalArgumentException("property pair must be [key,value]: " + kv);
            }
            out.add(new String[] {kv.getString(0), kv.getString(1)});
        }
        return out;
    }

    static boolean hasKey(List<String[]> pairs, String key) {
        for (String[] kv : pairs) {
            if (kv[0].equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** The HashMap MessageDecoder.string2messageProperties would build: default capacity, in order. */
    static Map<String, String> hashMap(List<String[]> pairs) {
        Map<String, String> m = new HashMap<>();
        for (String[] kv : pairs) {
            m.put(kv[0], kv[1]);
        }
        return m;
    }

    static String joinVerbatim(List<String[]> pairs) {
        StringBuilder sb = new StringBuilder();
        for (String[] kv : pairs) {
            if (sb.length() > 0) {
                sb.append(MessageDecoder.PROPERTY_SEPARATOR);
            }
            sb.append(kv[0]).append(MessageDecoder.NAME_VALUE_SEPARATOR).append(kv[1]);
        }
        return sb.toString();
    }

    /** "a.b.c.d:port" or "[v6]:port" (IP literals only, no DNS). */
    static InetSocketAddress host(String s, String dflt) {
        if (s == null || s.isEmpty()) {
            s = dflt;
        }
        int colon = s.lastIndexOf(':');
        String h = s.substring(0, colon);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(h), Integer.parseInt(s.substring(colon + 1)));
        } catch (Exception e) {
            throw new IllegalArgumentException("bad host " + s, e);
        }
    }
}
