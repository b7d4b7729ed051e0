package fastjson

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func equalValues(a, b Value) bool {
	if a.kind != b.kind || a.text != b.text || len(a.kids) != len(b.kids) {
		return false
	}
	for i := range a.kids {
		if !equalValues(a.kids[i], b.kids[i]) {
			return false
		}
	}
	return true
}

// FuzzParse: Parse never panics; what it accepts, the Writer renders in
// every mode without error; the Compact and Pretty renderings parse back to
// the same tree; Standard rendering is stable after one round (it turns
// non-String keys and big longs into strings).
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for _, name := range seeds {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"m":{0:1,"1":"2",'3':4}}`, `{,"a":[1,,2,],}`, `{{"brokerName":"b","queueId":0,"topic":"t"}:11}`,
		`{"s":"\x41\v\0\F\'\u00e9\uD83D\uDE00\uD83D"}`, `{$s:1,_a:2,null:3}`, `{"l":12S,"d":1.,"n":NaN}`,
		"/*c*/ [1] // x", `[9007199254740993,-0,1e999]`, "\"\xff\xc2\"", `{"a":"\u2028\u0085/"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		for _, mode := range []Mode{Compact, Pretty} {
			w := NewWriter(mode)
			w.Value(v)
			if err := w.Err(); err != nil {
				t.Fatalf("mode %d: %v", mode, err)
			}
			back, err := Parse(w.Bytes())
			if err != nil {
				t.Fatalf("mode %d: re-parse of %q: %v", mode, w.Bytes(), err)
			}
			if !equalValues(v, back) {
				t.Fatalf("mode %d: round trip changed the tree:\n in  %q\n out %q", mode, data, w.Bytes())
			}
		}
		w := NewWriter(Standard)
		w.Value(v)
		once := append([]byte(nil), w.Bytes()...)
		again, err := Parse(once)
		if err != nil {
			t.Fatalf("standard: re-parse of %q: %v", once, err)
		}
		w.Reset(nil)
		w.Value(again)
		if !bytes.Equal(once, w.Bytes()) {
			t.Fatalf("standard rendering not stable:\n %q\n %q", once, w.Bytes())
		}
		// Conversions never panic either.
		var d Decoder
		for k, x := range v.Members() {
			_, _ = k.AsInt()
			_, _ = x.AsInt64()
			_, _ = x.AsBool()
			_, _ = x.AsFloat64()
			_ = d.String(x, "")
		}
	})
}
