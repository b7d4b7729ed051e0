package consumequeue

import (
	"os"
	"testing"

	"github.com/sputnikmq/sputnik/store/segment"
)

func FuzzUnit(f *testing.F) {
	f.Add(Blank.Append(nil))
	f.Add(unitN(3).Append(nil))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := DecodeUnit(b)
		if len(b) < UnitSize {
			if err == nil {
				t.Fatal("short input decoded")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Append(nil); string(got) != string(b[:UnitSize]) {
			t.Fatalf("round trip: %x != %x", got, b[:UnitSize])
		}
	})
}

func FuzzExtUnit(f *testing.F) {
	u := ExtUnit{TagsCode: 5, MsgStoreTime: 6, BitMap: []byte{7, 8}}
	f.Add(u.Append(nil))
	f.Add([]byte{0xFF, 0xFF})
	f.Add([]byte{0, 30, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		u, found, err := DecodeExtUnit(b)
		if err != nil || !found {
			return
		}
		if int(u.Size) < 1 || len(u.BitMap) > len(b)-ExtUnitMinSize {
			t.Fatalf("decoded %+v from %d bytes", u, len(b))
		}
	})
}

// FuzzRecover writes 7 good units (two files of 5) and then the fuzz input
// as the rest of the last file: recovery must not panic and must keep the
// good units plus exactly the valid-unit prefix of the input.
func FuzzRecover(f *testing.F) {
	f.Add([]byte{})
	f.Add(unitN(7).Append(nil))
	f.Add(append(unitN(7).Append(nil), 0xFF))
	f.Add(append(unitN(7).Append(nil), Unit{Phy: -1, Size: 5}.Append(nil)...))
	f.Fuzz(func(t *testing.T, tail []byte) {
		root := t.TempDir()
		q, err := Open(segment.OS, root, "T", 0, tinyFile, Options{})
		if err != nil {
			t.Fatal(err)
		}
		putN(t, q, 0, 7)
		last := q.Files().Last()
		room := last.Mapped()[2*UnitSize:]
		copy(room, tail)
		q.Close()

		q, err = Open(segment.OS, root, "T", 0, tinyFile, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close()
		if err := q.Recover(); err != nil {
			t.Fatal(err)
		}
		// The last file after the copy: zeros wherever the tail stops.
		buf := make([]byte, 3*UnitSize)
		copy(buf, tail)
		want := int64(7)
		for pos := 0; pos < len(buf) && unitAt(buf, pos).Valid(); pos += UnitSize {
			want++
		}
		if got := q.MaxOffset(); got != want {
			t.Fatalf("recovered %d units, want %d", got, want)
		}
		for i := int64(0); i < 7; i++ {
			if u, err := q.Get(i); err != nil || u != unitN(i) {
				t.Fatalf("unit %d: %+v %v", i, u, err)
			}
		}
	})
}

func BenchmarkPut(b *testing.B) {
	q, err := Open(segment.OS, b.TempDir(), "T", 0, DefaultFileSize, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	b.ReportAllocs()
	b.SetBytes(UnitSize)
	for i := int64(0); b.Loop(); i++ {
		if err := q.Put(Unit{Phy: i * 100, Size: 100, TagsCode: i}, i); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	dir, err := os.MkdirTemp("", "cqbench")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	q, err := Open(segment.OS, dir, "T", 0, DefaultFileSize, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	const n = 100000
	for i := int64(0); i < n; i++ {
		if err := q.Put(Unit{Phy: i * 100, Size: 100, TagsCode: i}, i); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.SetBytes(n * UnitSize)
	var sum int64
	for b.Loop() {
		for off := int64(0); off < n; {
			us, err := q.Read(off)
			if err != nil {
				b.Fatal(err)
			}
			for i := range us.Len() {
				sum += us.At(i).Phy
			}
			off += int64(us.Len())
			us.Release()
		}
	}
	b.ReportMetric(float64(n), "units/op")
	_ = sum
}
