package fastjson

import (
	"errors"
	"math"
	"testing"
)

func TestWriterMisuse(t *testing.T) {
	tests := []struct {
		name  string
		build func(w *Writer)
	}{
		{"value without key", func(w *Writer) { w.BeginObject(); w.Int(1) }},
		{"key in array", func(w *Writer) { w.BeginArray(); w.Key("a") }},
		{"key at top", func(w *Writer) { w.KeyInt(1) }},
		{"two keys", func(w *Writer) { w.BeginObject(); w.Key("a"); w.Key("b") }},
		{"end without key value", func(w *Writer) { w.BeginObject(); w.Key("a"); w.EndObject() }},
		{"wrong end", func(w *Writer) { w.BeginObject(); w.EndArray() }},
		{"inline vs list", func(w *Writer) { w.BeginArray(); w.EndInlineArray() }},
		{"end at top", func(w *Writer) { w.EndObject() }},
		{"two top values", func(w *Writer) { w.Int(1); w.Int(2) }},
		{"unclosed", func(w *Writer) { w.BeginArray() }},
		{"dangling key", func(w *Writer) { w.BeginObject(); w.Key("a") }},
		{"key object of two values", func(w *Writer) {
			w.BeginObject()
			w.KeyObject(func(w *Writer) { w.Int(1); w.Int(2) })
		}},
		{"key object unclosed", func(w *Writer) {
			w.BeginObject()
			w.KeyObject(func(w *Writer) { w.BeginObject() })
		}},
		{"key object empty", func(w *Writer) { w.BeginObject(); w.KeyObject(func(*Writer) {}) }},
		{"absent value", func(w *Writer) { w.Value(Value{}) }},
		{"absent key", func(w *Writer) { w.Value(Value{kind: Object, kids: []Value{{}, MakeNull()}}) }},
	}
	for _, tt := range tests {
		for _, mode := range []Mode{Compact, Pretty, Standard} {
			w := NewWriter(mode)
			tt.build(w)
			if err := w.Err(); !errors.Is(err, ErrMisuse) {
				t.Errorf("%s (mode %d): err = %v, output %q", tt.name, mode, err, w.Bytes())
			}
		}
	}
	// Standard mode's key object error comes from the sub-writer.
	w := NewWriter(Standard)
	w.BeginObject()
	w.KeyObject(func(w *Writer) { w.BeginObject() })
	if !errors.Is(w.Err(), ErrMisuse) {
		t.Errorf("standard key object: %v", w.Err())
	}
}

func TestWriterStopsAtFirstMisuse(t *testing.T) {
	w := NewWriter(Compact)
	w.BeginObject()
	w.Int(1) // misuse
	w.Key("a")
	w.String("b")
	w.EndObject()
	if got := string(w.Bytes()); got != "{" {
		t.Errorf("output after misuse: %q", got)
	}
}

func TestWriterReset(t *testing.T) {
	w := NewWriter(Compact)
	w.BeginArray()
	w.Reset([]byte("prefix:"))
	if w.Err() != nil {
		t.Fatal(w.Err())
	}
	w.BeginArray()
	w.Int(1)
	w.EndArray()
	if got := string(w.Bytes()); got != "prefix:[1]" || w.Err() != nil {
		t.Errorf("got %q %v", got, w.Err())
	}
}

// Verified with fastjson 1.2.69 (values in a List).
func TestWriterNumbers(t *testing.T) {
	tenth := 0.1 // a variable: constant 0.1 + 0.2 folds to exactly 0.3
	w := NewWriter(Compact)
	w.BeginArray()
	w.Float64(0)
	w.Float64(math.Copysign(0, -1))
	w.Float64(1e10)
	w.Float64(0.001)
	w.Float64(9.999e-4)
	w.Float64(tenth + 0.2)
	w.Float64(1e23)
	w.Float64(5e-324)
	w.Float64(math.NaN())
	w.Float64(math.Inf(-1))
	w.Float32(2.5)
	w.Float32(float32(math.Inf(1)))
	w.Float32(123456.789)
	w.Int(-2147483648)
	w.Int64(math.MinInt64)
	w.Bool(true)
	w.EndArray()
	want := "[0.0,-0.0,1.0E10,0.001,9.999E-4,0.30000000000000004,1.0E23,4.9E-324,null,null,2.5,null,123456.79,-2147483648,-9223372036854775808,true]"
	if got := string(w.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// BrowserCompatible quotes longs beyond ±(2^53-1); ints never (verified).
func TestWriterStandardLongs(t *testing.T) {
	w := NewWriter(Standard)
	w.BeginArray()
	for _, n := range []int64{9007199254740991, 9007199254740992, -9007199254740991, -9007199254740992, math.MaxInt64} {
		w.Int64(n)
	}
	w.Int(math.MaxInt32)
	w.Value(MakeNumber("9007199254740992"))
	w.Value(MakeNumber("9007199254740992.5"))
	w.EndArray()
	want := `[9007199254740991,"9007199254740992",-9007199254740991,"-9007199254740992","9223372036854775807",2147483647,"9007199254740992",9007199254740992.5]`
	if got := string(w.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestWriterKeysByMode(t *testing.T) {
	v, err := Parse([]byte(`{0:"a",true:"b",null:"c",{"x":[1]}:"d",[2]:"e"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[Mode]string{
		Compact:  `{0:"a","true":"b",null:"c",{"x":[1]}:"d",[2]:"e"}`,
		Standard: `{"0":"a","true":"b","null":"c","{\"x\":[1]}":"d","[2]":"e"}`,
		Pretty:   "{0:\"a\",\n\t\"true\":\"b\",null:\"c\",{\n\t\t\"x\":[\n\t\t\t1\n\t\t]\n\t}:\"d\",[\n\t\t2\n\t]:\"e\"\n}",
	}
	for mode, w := range want {
		if got := render(t, mode, func(wr *Writer) { wr.Value(v) }); got != w {
			t.Errorf("mode %d:\n got %s\nwant %s", mode, got, w)
		}
	}
}

func TestAppendStringSamples(t *testing.T) {
	tests := []struct {
		in, compact, standard string
	}{
		{"", `""`, `""`},
		{"plain", `"plain"`, `"plain"`},
		{"a/b", `"a/b"`, `"a\/b"`},
		{"\x00\x1f\x7f", `"\u0000\u001F\u007F"`, `"\u0000\u001F\u007F"`},
		{"\u0085\u00a0", `"\u0085` + "\u00a0" + `"`, `"\u0085\u00A0"`},
		{"\u2028x\u2029", `"\u2028x\u2029"`, `"\u2028x\u2029"`},
		{"😀", `"😀"`, `"\uD83D\uDE00"`},
		{"bad\xffutf8", "\"bad\uFFFDutf8\"", `"bad\uFFFDutf8"`},
		{"\xc2", "\"\uFFFD\"", `"\uFFFD"`},
	}
	for _, tt := range tests {
		if got := string(AppendString(nil, tt.in, Compact)); got != tt.compact {
			t.Errorf("compact %q: %s, want %s", tt.in, got, tt.compact)
		}
		if got := string(AppendString(nil, tt.in, Standard)); got != tt.standard {
			t.Errorf("standard %q: %s, want %s", tt.in, got, tt.standard)
		}
	}
}
