package message

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func batchBody(t testing.TB, entries ...BatchEntry) []byte {
	var b []byte
	for _, e := range entries {
		var err error
		b, err = AppendBatchEntry(b, e.Flag, e.Body, e.Properties)
		require.NoError(t, err)
	}
	return b
}

func TestBatchReaderErrors(t *testing.T) {
	good := batchBody(t, BatchEntry{Flag: 1, Body: []byte("ab"), Properties: []byte("k\x01v")})
	mut := func(f func([]byte)) []byte { b := append([]byte(nil), good...); f(b); return b }
	cases := []struct {
		name string
		in   []byte
		n    int
		ok   bool
	}{
		{"empty", nil, 0, true},
		{"one", good, 1, true},
		{"two", append(append([]byte(nil), good...), good...), 2, true},
		{"ignored head fields", mut(func(b []byte) { binary.BigEndian.PutUint32(b, 1); b[5] = 9 }), 1, true},
		{"short head", good[:19], 0, false},
		{"trailing bytes", append(append([]byte(nil), good...), 0, 0), 1, false},
		{"negative body", mut(func(b []byte) { binary.BigEndian.PutUint32(b[batchOffBodyLen:], 0xFFFFFFFF) }), 0, false},
		{"body too long", mut(func(b []byte) { binary.BigEndian.PutUint32(b[batchOffBodyLen:], 5) }), 0, false},
		{"negative props", mut(func(b []byte) { binary.BigEndian.PutUint16(b[22:], 0xFFFE) }), 0, false},
		{"props too long", good[:len(good)-1], 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewBatchReader(c.in)
			n := 0
			for _, ok := r.Next(); ok; _, ok = r.Next() {
				n++
			}
			require.Equal(t, c.n, n)
			if c.ok {
				require.NoError(t, r.Err())
			} else {
				require.ErrorIs(t, r.Err(), ErrBadBatch)
			}
		})
	}
}

// Java 4.9.8: CommitLog.MessageExtEncoder.encode(MessageExtBatch): 0x02 is
// inserted only between non-empty entry and batch properties when the entry's
// do not already end with it.
func TestBatchRecordsProperties(t *testing.T) {
	body := batchBody(t,
		BatchEntry{Flag: 1, Body: []byte("x"), Properties: []byte("a\x011")},
		BatchEntry{Flag: 2, Body: nil, Properties: nil},
		BatchEntry{Flag: 3, Body: []byte("yy"), Properties: []byte("b\x012\x02")},
	)
	host := Host{netip.MustParseAddr("1.2.3.4"), 1}
	for _, batchProps := range []string{"", "CLUSTER\x01c"} {
		tmpl := BatchTemplate{Topic: "T", QueueID: 4, SysFlag: FlagBornHostV6, BornHost: host, StoreHost: host,
			Properties: []byte(batchProps)}
		out, infos, err := AppendBatchRecords([]byte("xx"), &tmpl, body)
		require.NoError(t, err)
		require.Len(t, infos, 3)
		want := []string{"a\x011", "", "b\x012\x02"}
		if batchProps != "" {
			want = []string{"a\x011\x02CLUSTER\x01c", "CLUSTER\x01c", "b\x012\x02CLUSTER\x01c"}
		}
		for i, info := range infos {
			rec := out[2+info.Offset : 2+info.Offset+int(info.Size)]
			r, err := DecodeRecord(rec, true)
			require.NoError(t, err)
			require.Equal(t, want[i], string(r.Properties))
			require.Equal(t, int32(i+1), r.Flag)
			require.Equal(t, int32(0), r.SysFlag, "host bits follow the hosts")
			require.Equal(t, BodyCRC(r.Body), r.BodyCRC)
			require.Equal(t, int32(4), r.QueueID)
		}
	}
	bad := append(append([]byte(nil), body...), 1)
	tmpl := BatchTemplate{Topic: "T", BornHost: host, StoreHost: host}
	out, _, err := AppendBatchRecords([]byte("xx"), &tmpl, bad)
	require.ErrorIs(t, err, ErrBadBatch)
	require.Equal(t, "xx", string(out))

	big := batchBody(t, BatchEntry{Properties: make([]byte, MaxPropertiesLen)})
	tmpl.Properties = []byte("k\x01v")
	_, _, err = AppendBatchRecords(nil, &tmpl, big)
	require.ErrorIs(t, err, ErrPropertiesTooLong, "Java would write a wrapped int16")
}

// Java 4.9.8: SendMessageProcessor puts CLUSTER and strips WAIT from a
// single message's stored properties, not from a batch's.
func TestSendProperties(t *testing.T) {
	h := "WAIT\x01true\x02TAGS\x01a"
	require.Equal(t, "CLUSTER\x01c\x02TAGS\x01a", string(SendProperties(nil, h, "c", false)))
	require.Equal(t, "CLUSTER\x01c\x02WAIT\x01true\x02TAGS\x01a", string(SendProperties(nil, h, "c", true)))
	require.Equal(t, "CLUSTER\x01c", string(SendProperties(nil, "", "c", false)))
}
