package message

import (
	"encoding/hex"
	"encoding/json"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// oracleInput is one line of compat/java RecordEncode's input.
type oracleInput struct {
	Kind          string        `json:"kind"`
	Topic         string        `json:"topic"`
	QueueID       int32         `json:"queueId"`
	Flag          int32         `json:"flag"`
	Body          string        `json:"body"`
	Header        string        `json:"header"`
	Cluster       string        `json:"cluster"`
	SysFlag       int32         `json:"sysFlag"`
	BornHost      string        `json:"bornHost"`
	BornPort      int32         `json:"bornPort"`
	StoreHost     string        `json:"storeHost"`
	StorePort     int32         `json:"storePort"`
	BornTS        int64         `json:"bornTimestamp"`
	StoreTS       int64         `json:"storeTimestamp"`
	QueueOffset   int64         `json:"queueOffset"`
	PhysOffset    int64         `json:"physicalOffset"`
	Reconsume     int32         `json:"reconsumeTimes"`
	PreparedTxOff int64         `json:"preparedTransactionOffset"`
	Entries       []oracleEntry `json:"entries,omitempty"`
}

type oracleEntry struct {
	Flag  int32  `json:"flag"`
	Body  string `json:"body"`
	Props string `json:"props"`
}

func props(kv ...string) string {
	var p Properties
	for i := 0; i+1 < len(kv); i += 2 {
		p = append(p, Property{kv[i], kv[i+1]})
	}
	return string(AppendProperties(nil, p))
}

func oracleRecords() []oracleInput {
	base := oracleInput{Kind: "record", Topic: "TopicTest", QueueID: 3, Flag: 7, Body: hex.EncodeToString([]byte("hello")),
		Cluster: "DefaultCluster", BornHost: "10.0.0.1", BornPort: 50000, StoreHost: "192.168.1.20", StorePort: 10911,
		BornTS: 1700000000000, StoreTS: 1700000000123, QueueOffset: 42, PhysOffset: 1 << 20}
	var out []oracleInput
	add := func(f func(*oracleInput)) { in := base; f(&in); out = append(out, in) }
	add(func(in *oracleInput) {
		in.Header = props("TAGS", "TagA", "KEYS", "k1 k2", "UNIQ_KEY", "AC11000100002A9F0000000000000000")
	})
	add(func(in *oracleInput) { in.Header = props("WAIT", "true", "TAGS", "TagA"); in.StoreHost = "::1" })
	add(func(in *oracleInput) { in.BornHost, in.StoreHost = "fe80::1:2", "2001:db8::7"; in.Body = "" })
	add(func(in *oracleInput) {
		in.SysFlag = TransactionPrepare | FlagCompressed
		in.Header = props("TRAN_MSG", "true", "PGROUP", "pg", "DELAY", "3", "a", "\u00e9t\u00e9 ✓")
		in.PreparedTxOff, in.Reconsume, in.QueueOffset = 4096, 5, 0
		in.Body = strings.Repeat("00ff", 700)
	})
	add(func(in *oracleInput) {
		var kv []string
		for _, k := range []string{"KEYS", "TAGS", "WAIT", "DELAY", "RETRY_TOPIC", "REAL_TOPIC", "REAL_QID", "PGROUP",
			"MIN_OFFSET", "MAX_OFFSET", "BUYER_ID", "ORIGIN_MESSAGE_ID", "TRACE_ON"} {
			kv = append(kv, k, "v-"+k)
		}
		in.Header = props(kv...) + "\x02\x02junk\x02k\x01\x02\x01v"
		in.Topic = strings.Repeat("T", MaxTopicLen)
	})
	return out
}

func oracleBatches() []oracleInput {
	b := oracleInput{Kind: "batch", Topic: "BatchTopic", QueueID: 1, Cluster: "c1", Header: props("WAIT", "true"),
		BornHost: "127.0.0.1", BornPort: 40000, StoreHost: "10.1.1.1", StorePort: 10911, BornTS: 1, StoreTS: 2,
		QueueOffset: 100, PhysOffset: 5000, Reconsume: 2, Entries: []oracleEntry{
			{Flag: 1, Body: hex.EncodeToString([]byte("one")), Props: props("UNIQ_KEY", "U1", "TAGS", "a")},
			{Flag: 2, Body: "", Props: ""},
			{Flag: 3, Body: hex.EncodeToString([]byte("three")), Props: props("KEYS", "x y")},
		}}
	v6 := b
	v6.BornHost, v6.StoreHost, v6.Header = "::2", "fd00::9", ""
	return []oracleInput{b, v6}
}

func hostOf(t *testing.T, ip string, port int32) Host {
	a, err := netip.ParseAddr(ip)
	require.NoError(t, err)
	return Host{Addr: a, Port: port}
}

func runOracle(t *testing.T, ins []oracleInput) []map[string][]byte {
	t.Helper()
	var sb strings.Builder
	for _, in := range ins {
		line, err := json.Marshal(in)
		require.NoError(t, err)
		sb.Write(line)
		sb.WriteByte('\n')
	}
	out := strings.Split(strings.TrimSpace(oracle.Run(t, sb.String(), nil, "RecordEncode")), "\n")
	require.Len(t, out, len(ins))
	res := make([]map[string][]byte, len(out))
	for i, line := range out {
		require.False(t, strings.HasPrefix(line, "ERROR"), line)
		res[i] = map[string][]byte{}
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			b, err := hex.DecodeString(v)
			require.NoError(t, err)
			res[i][k] = b
		}
	}
	return res
}

// Java 4.9.8: SendMessageProcessor.asyncSendMessage + CommitLog.asyncPutMessage,
// MessageExtEncoder.encode, DefaultAppendMessageCallback.doAppend.
func TestOracleRecord(t *testing.T) {
	ins := oracleRecords()
	res := runOracle(t, ins)
	for i, in := range ins {
		body, err := hex.DecodeString(in.Body)
		require.NoError(t, err)
		r := Record{QueueID: in.QueueID, Flag: in.Flag, SysFlag: in.SysFlag, BodyCRC: BodyCRC(body),
			BornTimestamp: in.BornTS, BornHost: hostOf(t, in.BornHost, in.BornPort),
			StoreTimestamp: 999, StoreHost: hostOf(t, in.StoreHost, in.StorePort),
			ReconsumeTimes: in.Reconsume, PreparedTransactionOffset: in.PreparedTxOff,
			Body: body, Topic: in.Topic, Properties: SendProperties(nil, in.Header, in.Cluster, false)}
		require.Equal(t, string(res[i]["props"]), string(r.Properties), "case %d: properties order", i)
		got, err := AppendRecord(nil, &r)
		require.NoError(t, err)
		require.NoError(t, PatchPosition(got, in.QueueOffset, in.PhysOffset, in.StoreTS))
		require.Equal(t, res[i]["store"], got, "case %d:\n%s\njava:\n%s", i, Annotate(got), Annotate(res[i]["store"]))
		if !strings.Contains(in.Header, PropWait) {
			require.Equal(t, res[i]["decoder"], got, "case %d: MessageDecoder.encode", i)
		}
		dec, err := DecodeRecord(res[i]["store"], true)
		require.NoError(t, err)
		require.Equal(t, in.Topic, dec.Topic)
		require.Equal(t, in.QueueOffset, dec.QueueOffset)
		require.Equal(t, in.PhysOffset, dec.PhysicalOffset)
		require.Equal(t, in.StoreTS, dec.StoreTimestamp)
		require.Equal(t, r.StoreHost, dec.StoreHost)
		require.Equal(t, r.SysFlag, dec.SysFlag)
	}
}

// Java 4.9.8: MessageDecoder.encodeMessages, CommitLog.MessageExtEncoder.encode(MessageExtBatch)
// and the batch doAppend.
func TestOracleBatch(t *testing.T) {
	ins := oracleBatches()
	res := runOracle(t, ins)
	for i, in := range ins {
		wire := res[i]["wire"]
		rd := NewBatchReader(wire)
		var again []byte
		n := 0
		for e, ok := rd.Next(); ok; e, ok = rd.Next() {
			want := in.Entries[n]
			require.Equal(t, want.Flag, e.Flag)
			require.Equal(t, want.Body, hex.EncodeToString(e.Body))
			require.ElementsMatch(t, ParsePropertiesString(want.Props), ParseProperties(e.Properties))
			var err error
			again, err = AppendBatchEntry(again, e.Flag, e.Body, e.Properties)
			require.NoError(t, err)
			n++
		}
		require.NoError(t, rd.Err())
		require.Equal(t, len(in.Entries), n)
		require.Equal(t, wire, again, "AppendBatchEntry re-encodes Java's entries")

		tmpl := BatchTemplate{Topic: in.Topic, QueueID: in.QueueID, SysFlag: in.SysFlag, BornTimestamp: in.BornTS,
			BornHost: hostOf(t, in.BornHost, in.BornPort), StoreTimestamp: 0, StoreHost: hostOf(t, in.StoreHost, in.StorePort),
			ReconsumeTimes: in.Reconsume, Properties: SendProperties(nil, in.Header, in.Cluster, true)}
		got, infos, err := AppendBatchRecords(nil, &tmpl, wire)
		require.NoError(t, err)
		require.Len(t, infos, n)
		for j, info := range infos {
			rec := got[info.Offset : info.Offset+int(info.Size)]
			require.NoError(t, PatchPosition(rec, in.QueueOffset+int64(j), in.PhysOffset+int64(info.Offset), in.StoreTS))
		}
		require.Equal(t, res[i]["records"], got, "case %d:\n%s\njava:\n%s", i, Annotate(got), Annotate(res[i]["records"]))
	}
}
