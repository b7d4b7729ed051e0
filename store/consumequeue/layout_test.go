package consumequeue

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestUnitCodec(t *testing.T) {
	tests := []struct {
		name  string
		unit  Unit
		hex   string
		valid bool
	}{
		{"plain", Unit{Phy: 1000, Size: 50, TagsCode: 11}, "00000000000003e8" + "00000032" + "000000000000000b", true},
		{"blank", Blank, "0000000000000000" + "7fffffff" + "0000000000000000", true},
		{"zero", Unit{}, strings.Repeat("0", 40), false},
		{"negative phy", Unit{Phy: -1, Size: 1}, "ffffffffffffffff" + "00000001" + "0000000000000000", false},
		{"negative size", Unit{Phy: 1, Size: -1}, "0000000000000001" + "ffffffff" + "0000000000000000", false},
		{"ext address", Unit{Phy: 5, Size: 9, TagsCode: math.MinInt64}, "0000000000000005" + "00000009" + "8000000000000000", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.unit.Append(nil)
			require.Equal(t, tt.hex, fmt.Sprintf("%x", b))
			var c [UnitSize]byte
			tt.unit.Put(c[:])
			require.Equal(t, b, c[:])
			got, err := DecodeUnit(b)
			require.NoError(t, err)
			require.Equal(t, tt.unit, got)
			require.Equal(t, tt.valid, got.Valid())
			_, err = DecodeUnit(b[:UnitSize-1])
			require.ErrorIs(t, err, ErrCorrupt)
		})
	}
}

func TestFileSize(t *testing.T) {
	tests := []struct {
		configured int32
		want       int64
	}{
		{6000000, 6000000}, {6000001, 6000020}, {19, 20}, {1, 20}, {0, 0}, {-39, -20},
		{math.MaxInt32, -2147483636}, // Java's int product wraps
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, FileSize(tt.configured), "%d", tt.configured)
	}
}

func TestExtAddr(t *testing.T) {
	require.True(t, IsExtAddr(math.MinInt32-1))
	require.False(t, IsExtAddr(math.MinInt32))
	require.False(t, IsExtAddr(0))
	require.EqualValues(t, math.MinInt64, decorateExt(0))
	require.EqualValues(t, 12345, undecorateExt(decorateExt(12345)))
	require.EqualValues(t, 7, undecorateExt(7))
	require.EqualValues(t, math.MinInt64+3, decorateExt(math.MinInt64+3), "already an address")
}

// dump writes an annotated hex dump of every file of a queue directory.
func dump(t *testing.T, root string) string {
	t.Helper()
	var sb strings.Builder
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(&sb, "# %s (%d bytes)\n", filepath.ToSlash(rel), len(b))
		if strings.Contains(rel, "consumequeue_ext") {
			dumpExt(&sb, b)
		} else {
			dumpUnits(&sb, b)
		}
		return nil
	}))
	return sb.String()
}

func dumpUnits(sb *strings.Builder, b []byte) {
	for pos := 0; pos+UnitSize <= len(b); pos += UnitSize {
		u := unitAt(b, pos)
		note := fmt.Sprintf("phy=%d size=%d tags=%d", u.Phy, u.Size, u.TagsCode)
		switch {
		case u.IsBlank():
			note = "blank (front fill)"
		case !u.Valid():
			note = "invalid (end)"
		}
		fmt.Fprintf(sb, "%04d  %x %x %x  %s\n", pos, b[pos:pos+8], b[pos+8:pos+12], b[pos+12:pos+20], note)
	}
}

func dumpExt(sb *strings.Builder, b []byte) {
	pos := 0
	for pos+2 <= len(b) {
		u, found, err := DecodeExtUnit(b[pos:])
		if err != nil || !found {
			fmt.Fprintf(sb, "%04d  %x  end (size %d)\n", pos, b[pos:pos+2], int16(uint16(b[pos])<<8|uint16(b[pos+1])))
			return
		}
		fmt.Fprintf(sb, "%04d  %x  size=%d tags=%d time=%d bitmap=%x\n", pos, b[pos:pos+int(u.Size)], u.Size, u.TagsCode, u.MsgStoreTime, u.BitMap)
		pos += int(u.Size)
	}
}

// TestGoldenDump pins the bytes of a small front-filled queue with ext
// files (5 units per file, ext files of 64 bytes).
func TestGoldenDump(t *testing.T) {
	root := t.TempDir()
	ext := &ExtOptions{Root: filepath.Join(root, "consumequeue_ext"), FileSize: 64}
	q, err := Open(segment.OS, filepath.Join(root, "consumequeue"), "T", 1, 100, Options{Ext: ext})
	require.NoError(t, err)
	for i := int64(0); i < 4; i++ {
		bm := []byte{byte(i), 0xAA}[:i%3]
		require.NoError(t, q.PutRequest(&Request{Phy: 1000 + 60*i, Size: 60, TagsCode: 70 + i, QueueOffset: 3 + i, StoreTimestamp: 5000 + i, BitMap: bm}))
	}
	q.Close()
	got := dump(t, root)
	golden := filepath.Join("testdata", "golden.dump")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
