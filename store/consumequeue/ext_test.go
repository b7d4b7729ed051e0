package consumequeue

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

func TestExtUnitCodec(t *testing.T) {
	tests := []struct {
		name string
		unit ExtUnit
	}{
		{"no bit map", ExtUnit{TagsCode: 7, MsgStoreTime: 9}},
		{"bit map", ExtUnit{TagsCode: -1, MsgStoreTime: 1 << 40, BitMap: []byte{1, 2, 3}}},
		{"max", ExtUnit{BitMap: bytes.Repeat([]byte{0xEE}, ExtUnitMaxSize-ExtUnitMinSize)}},
	}
	for _, tt := range tests {
		b := tt.unit.Append(nil)
		require.Len(t, b, tt.unit.EncodedSize(), tt.name)
		got, found, err := DecodeExtUnit(b)
		require.NoError(t, err, tt.name)
		require.True(t, found)
		want := tt.unit
		want.Size = int16(len(b))
		require.Equal(t, want, got, tt.name)
		for cut := 2; cut < len(b) && cut < 64; cut++ {
			_, _, err := DecodeExtUnit(b[:cut])
			if len(tt.unit.BitMap) == 0 && cut >= ExtUnitMinSize {
				require.NoError(t, err)
				continue
			}
			require.ErrorIs(t, err, ErrCorrupt, "%s cut at %d", tt.name, cut)
		}
	}
	for _, b := range [][]byte{nil, {0}, {0, 0}, {0xFF, 0xFF, 1}} {
		_, found, err := DecodeExtUnit(b)
		require.NoError(t, err)
		require.False(t, found)
	}
}

func openExt(t *testing.T, root string, size int64) *Ext {
	t.Helper()
	e, err := OpenExt(segment.OS, root, "T", 2, size, nil)
	require.NoError(t, err)
	t.Cleanup(e.Close)
	return e
}

// Java 4.9.8: ConsumeQueueExt.put / get / recover / truncateByMaxAddress.
func TestExtRoundTrip(t *testing.T) {
	root := t.TempDir()
	e := openExt(t, root, 64)
	require.EqualValues(t, decorateExt(0), e.MaxAddress())
	var addrs []int64
	var units []ExtUnit
	for i := range 7 {
		u := ExtUnit{TagsCode: int64(i), MsgStoreTime: int64(1000 + i), BitMap: bytes.Repeat([]byte{byte(i)}, i*3)}
		addr, err := e.Put(u)
		require.NoError(t, err)
		require.True(t, IsExtAddr(addr))
		u.Size = int16(u.EncodedSize())
		if len(u.BitMap) == 0 {
			u.BitMap = nil
		}
		addrs, units = append(addrs, addr), append(units, u)
	}
	check := func(n int) {
		for i := range n {
			got, err := e.Get(addrs[i])
			require.NoError(t, err, "unit %d", i)
			require.Equal(t, units[i], got, "unit %d", i)
		}
	}
	check(7)
	_, err := e.Get(5)
	require.ErrorIs(t, err, ErrNotHeld)
	_, err = e.Put(ExtUnit{BitMap: make([]byte, 64)})
	require.ErrorIs(t, err, ErrExtUnitTooLarge)
	_, err = e.Put(ExtUnit{BitMap: make([]byte, ExtUnitMaxSize)})
	require.ErrorIs(t, err, ErrExtUnitTooLarge)

	e.Close()
	e = openExt(t, root, 64)
	require.NoError(t, e.Recover())
	check(7)
	require.EqualValues(t, addrs[6]+int64(units[6].Size), e.MaxAddress())
	require.NoError(t, e.TruncateByMaxAddress(addrs[3]))
	check(4)
	_, err = e.Get(addrs[4])
	require.ErrorIs(t, err, ErrNotHeld)
	require.NoError(t, e.TruncateByMinAddress(addrs[3]))
	require.Equal(t, undecorateExt(addrs[3])/64*64, undecorateExt(e.MinAddress()))
}

func TestExtRecoverCorrupt(t *testing.T) {
	root := t.TempDir()
	e := openExt(t, root, 64)
	_, err := e.Put(ExtUnit{TagsCode: 1})
	require.NoError(t, err)
	path := e.Files().Last().Path()
	e.Close()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	binary.BigEndian.PutUint16(b[20:], 50) // a size running past the file
	require.NoError(t, os.WriteFile(path, b, 0o644))
	e = openExt(t, root, 64)
	require.ErrorIs(t, e.Recover(), ErrCorrupt)
}

// With ext files, Queue.Recover cuts them after the last address its units
// hold (Java ConsumeQueue.recover).
func TestQueueRecoverCutsExt(t *testing.T) {
	root := t.TempDir()
	opts := Options{Ext: &ExtOptions{Root: filepath.Join(root, "ext"), FileSize: 1000}}
	q, err := Open(segment.OS, root, "T", 0, tinyFile, opts)
	require.NoError(t, err)
	for i := range int64(4) {
		require.NoError(t, q.PutRequest(&Request{Phy: 100 * i, Size: 100, TagsCode: i, QueueOffset: i, BitMap: []byte{byte(i)}}))
	}
	u3, err := q.Get(3)
	require.NoError(t, err)
	clear(q.Files().Last().Mapped()[3*UnitSize : 4*UnitSize]) // unit 3 lost, its ext unit not
	q.Close()
	q, err = Open(segment.OS, root, "T", 0, tinyFile, opts)
	require.NoError(t, err)
	defer q.Close()
	require.NoError(t, q.Recover())
	require.EqualValues(t, 3, q.MaxOffset())
	u2, err := q.Get(2)
	require.NoError(t, err)
	x, err := q.ExtUnit(u2.TagsCode)
	require.NoError(t, err)
	require.Equal(t, []byte{2}, x.BitMap)
	_, err = q.ExtUnit(u3.TagsCode)
	require.ErrorIs(t, err, ErrNotHeld)
}
