package commitlog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sputnikmq/sputnik/store/segment"
)

// FuzzRecoverTail appends arbitrary bytes after valid records in the
// newest segment: recovery must not panic, must keep every valid record
// before the tail, and must leave a log that takes new appends.
func FuzzRecoverTail(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 100, 0xDA, 0xA3, 0x20, 0xA7})
	f.Add([]byte{0, 0, 0x10, 0, 0xCB, 0xD4, 0x31, 0x94})
	f.Add(record(f, "T", 0, "valid record as tail"))
	f.Fuzz(func(t *testing.T, tail []byte) {
		dir := t.TempDir()
		cl := openLog(t, dir)
		var end int64
		for i := range 3 {
			end = put(t, cl, "T", int32(i), "prefix").End()
		}
		if err := cl.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, segment.FileName(0))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		copy(b[end:], tail)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cl = openLog(t, dir)
		defer cl.Close()
		scan, err := cl.RecoverAbnormally(true, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if scan.End < end {
			t.Fatalf("recovery lost valid records: end %d < %d", scan.End, end)
		}
		if _, err := cl.Append(&Put{Records: record(t, "T", 0, "after"), QueueKey: "T-0", Consumable: true}); err != nil {
			t.Fatalf("append after recovery: %v", err)
		}
	})
}
