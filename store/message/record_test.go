package message

import (
	"encoding/binary"
	"errors"
	"flag"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func sample(born, store string) Record {
	body := []byte("hello, world")
	return Record{
		BodyCRC: BodyCRC(body), QueueID: 2, Flag: 0x55, QueueOffset: 17, PhysicalOffset: 4096,
		SysFlag: FlagMultiTags, BornTimestamp: 1700000000000, StoreTimestamp: 1700000000005,
		BornHost:       Host{netip.MustParseAddr(born), 51234},
		StoreHost:      Host{netip.MustParseAddr(store), 10911},
		ReconsumeTimes: 1, PreparedTransactionOffset: 0,
		Body: body, Topic: "TopicTest",
		Properties: []byte(props("TAGS", "TagA", "UNIQ_KEY", "7F0000010001", "CLUSTER", "DefaultCluster")),
	}
}

func TestRecordRoundTrip(t *testing.T) {
	cases := []struct {
		name, born, store string
		sysFlag           int32
		size              int
	}{
		{"v4-v4", "10.0.0.1", "10.0.0.2", 0, 91},
		{"v6-v4", "2001:db8::1", "10.0.0.2", FlagBornHostV6, 103},
		{"v4-v6", "10.0.0.1", "2001:db8::2", FlagStoreHostV6, 103},
		{"v6-v6", "::1", "fe80::2", FlagBornHostV6 | FlagStoreHostV6, 115},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := sample(c.born, c.store)
			r.SysFlag |= FlagBornHostV6 // a stale bit is replaced by the hosts' widths
			b, err := AppendRecord([]byte("prefix"), &r)
			require.NoError(t, err)
			b = b[len("prefix"):]
			require.Equal(t, c.sysFlag|FlagMultiTags, r.SysFlag)
			require.Equal(t, c.size+len(r.Body)+len(r.Topic)+len(r.Properties), len(b))
			require.Equal(t, int32(len(b)), r.TotalSize)
			require.Equal(t, len(b), RecordSize(r.SysFlag, len(r.Body), len(r.Topic), len(r.Properties)))
			got, err := DecodeRecord(append(b, 0, 0, 0), true)
			require.NoError(t, err)
			require.Equal(t, r, got)
			var d Decoder
			got2, err := d.Decode(b, true)
			require.NoError(t, err)
			require.Equal(t, r, got2)
			l := Offsets(r.SysFlag)
			require.Equal(t, uint64(r.StoreTimestamp), binary.BigEndian.Uint64(b[l.StoreTimestamp:]))
			require.Equal(t, uint32(len(r.Body)), binary.BigEndian.Uint32(b[l.BodyLen:]))
			require.Equal(t, r.Body, b[l.Body:l.Body+len(r.Body)])

			// The same record in parts: the body goes at head.
			r2 := sample(c.born, c.store)
			parts, head, err := AppendRecordParts([]byte("prefix"), &r2)
			require.NoError(t, err)
			require.Equal(t, l.Body+len("prefix"), head)
			whole := append(append(append([]byte(nil), parts[len("prefix"):head]...), r2.Body...), parts[head:]...)
			require.Equal(t, b, whole)
			require.Equal(t, r.TotalSize, r2.TotalSize)
		})
	}
}

func TestPatchPosition(t *testing.T) {
	for _, born := range []string{"1.2.3.4", "::5"} {
		r := sample(born, "::6")
		b, err := AppendRecord(nil, &r)
		require.NoError(t, err)
		require.NoError(t, PatchPosition(b, 77, 1<<40, 123456))
		ts, ok := PeekStoreTimestamp(b)
		require.True(t, ok)
		require.Equal(t, int64(123456), ts)
		got, err := DecodeRecord(b, true)
		require.NoError(t, err)
		require.Equal(t, int64(77), got.QueueOffset)
		require.Equal(t, int64(1<<40), got.PhysicalOffset)
		require.Equal(t, int64(123456), got.StoreTimestamp)
		require.ErrorIs(t, PatchPosition(b[:50], 1, 2, 3), ErrShort)
	}
}

func TestAppendRecordErrors(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Record)
		want error
	}{
		{"topic 128", func(r *Record) { r.Topic = strings.Repeat("t", 128) }, ErrTopicTooLong},
		{"props 32768", func(r *Record) { r.Properties = make([]byte, 32768) }, ErrPropertiesTooLong},
		{"no born host", func(r *Record) { r.BornHost = Host{} }, ErrHost},
		{"no store host", func(r *Record) { r.StoreHost = Host{} }, ErrHost},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := sample("1.1.1.1", "2.2.2.2")
			c.mod(&r)
			b, err := AppendRecord([]byte{9}, &r)
			require.ErrorIs(t, err, c.want)
			require.Equal(t, []byte{9}, b)
		})
	}
	r := sample("1.1.1.1", "2.2.2.2")
	r.Topic, r.Properties = strings.Repeat("t", 127), make([]byte, 32767)
	_, err := AppendRecord(nil, &r)
	require.NoError(t, err, "the limits themselves are allowed")
}

// Java 4.9.8: CommitLog.checkMessageAndReturnSize — what it accepts and how it
// classifies what it rejects.
func TestDecodeRecordErrors(t *testing.T) {
	r := sample("1.1.1.1", "2.2.2.2")
	good, err := AppendRecord(nil, &r)
	require.NoError(t, err)
	l := Offsets(r.SysFlag)
	topicAt := l.Body + len(r.Body)
	propsAt := topicAt + 1 + len(r.Topic)
	mut := func(f func(b []byte)) []byte { b := append([]byte(nil), good...); f(b); return b }
	put32 := func(at int, v int32) func([]byte) {
		return func(b []byte) { binary.BigEndian.PutUint32(b[at:], uint32(v)) }
	}
	cases := []struct {
		name     string
		in       []byte
		checkCRC bool
		want     []error
		size     int32 // CorruptError.Size
	}{
		{"ok", good, true, nil, 0},
		{"empty", nil, true, []error{ErrShort}, 0},
		{"7 bytes", good[:7], true, []error{ErrShort}, 0},
		{"blank", []byte{0, 0, 1, 0, 0xCB, 0xD4, 0x31, 0x94}, true, []error{ErrBlank}, 0},
		{"bad magic", mut(put32(OffMagic, 0x12345678)), true, []error{ErrCorrupt, ErrBadMagic}, 0},
		{"negative total", mut(put32(0, -1)), true, []error{ErrCorrupt, ErrBadLength}, 0},
		{"total < host", mut(put32(0, 7)), true, []error{ErrCorrupt, ErrBadLength}, 0},
		{"crc", mut(func(b []byte) { b[l.Body] ^= 1 }), true, []error{ErrCorrupt, ErrBadCRC}, 0},
		{"crc unchecked", mut(func(b []byte) { b[l.Body] ^= 1 }), false, nil, 0},
		{"body > total", mut(put32(l.BodyLen, int32(len(good)+1))), true, []error{ErrCorrupt, ErrBadLength}, 0},
		{"body shortened", append(mut(put32(l.BodyLen, int32(len(r.Body)-1))), make([]byte, 200)...), false, []error{ErrCorrupt, ErrSizeMismatch}, int32(len(good))},
		{"negative topic", mut(func(b []byte) { b[topicAt] = 0x80 }), true, []error{ErrCorrupt, ErrBadLength}, 0},
		{"total +1", mut(put32(0, int32(len(good)+1))), true, []error{ErrCorrupt, ErrSizeMismatch}, int32(len(good) + 1)},
		{"props cut", good[:len(good)-1], true, []error{ErrShort}, 0},
		{"header cut", good[:l.Body-1], true, []error{ErrShort}, 0},
		{"topic len cut", good[:topicAt], true, []error{ErrShort}, 0},
		{"props len cut", good[:propsAt+1], true, []error{ErrShort}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeRecord(c.in, c.checkCRC)
			if c.want == nil {
				require.NoError(t, err)
				return
			}
			for _, w := range c.want {
				require.ErrorIs(t, err, w)
			}
			if errors.Is(err, ErrBlank) {
				require.Equal(t, int32(256), got.TotalSize)
			}
			var ce *CorruptError
			if errors.As(err, &ce) {
				require.Equal(t, c.size, ce.Size)
			}
			if errors.Is(err, ErrShort) || errors.Is(err, ErrBlank) {
				require.NotErrorIs(t, err, ErrCorrupt)
			}
		})
	}
}

// Java 4.9.8 quirks of checkMessageAndReturnSize: an empty body's CRC is not
// checked; a negative BODYLEN/PROPERTIESLEN counts as 0.
func TestDecodeJavaQuirks(t *testing.T) {
	r := sample("1.1.1.1", "2.2.2.2")
	r.Body, r.BodyCRC, r.Properties = nil, 12345, nil
	b, err := AppendRecord(nil, &r)
	require.NoError(t, err)
	got, err := DecodeRecord(b, true)
	require.NoError(t, err)
	require.Equal(t, int32(12345), got.BodyCRC)
	l := Offsets(r.SysFlag)
	binary.BigEndian.PutUint32(b[l.BodyLen:], 0xFFFFFFF0)
	binary.BigEndian.PutUint16(b[len(b)-2:], 0xFFFF)
	got, err = DecodeRecord(b, true)
	require.NoError(t, err)
	require.Empty(t, got.Body)
	require.Empty(t, got.Properties)
}

func TestBlankAndPeek(t *testing.T) {
	b := make([]byte, 16)
	require.NoError(t, PutBlank(b, 1000))
	require.ErrorIs(t, PutBlank(b[:7], 1), ErrShort)
	size, magic, ok := PeekTotalSize(b)
	require.True(t, ok)
	require.Equal(t, int32(1000), size)
	require.Equal(t, MagicBlank, magic)
	got, err := DecodeRecord(b, true)
	require.ErrorIs(t, err, ErrBlank)
	require.Equal(t, int32(1000), got.TotalSize)
	_, ok = PeekStoreTimestamp(b)
	require.False(t, ok, "a blank has no store time")
}

func TestGolden(t *testing.T) {
	cases := map[string]Record{
		"v4v4": sample("192.168.0.10", "10.0.0.2"),
		"v6v6": sample("2001:db8::10", "fd00::2"),
		"v6v4": sample("::ffff:1.2.3.4", "10.0.0.2"),
	}
	long := sample("10.0.0.1", "10.0.0.2")
	long.Body = []byte(strings.Repeat("0123456789abcdef", 5))
	long.BodyCRC = BodyCRC(long.Body)
	cases["longbody"] = long
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := AppendRecord(nil, &r)
			require.NoError(t, err)
			got := Annotate(b) + "--- truncated ---\n" + Annotate(b[:70])
			path := filepath.Join("testdata", name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(want), got)
		})
	}
}

func TestMaxRecordSize(t *testing.T) {
	for _, tc := range []struct{ body, want int }{
		{4 << 20, 4<<20 + 64*1024},
		{0, 64 * 1024},
		{math.MaxInt32 - 64*1024, math.MaxInt32},
		{math.MaxInt32 - 64*1024 + 1, math.MaxInt32}, // Java caps at Integer.MAX_VALUE
	} {
		require.Equal(t, tc.want, MaxRecordSize(tc.body), "body limit %d", tc.body)
	}
}
