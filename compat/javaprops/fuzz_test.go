package javaprops

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; a table it returns survives AppendEscaped
// and a second Parse unchanged; ParseString and a byte-at-a-time reader
// agree with Parse; ParseUTF8 never panics either.
func FuzzParse(f *testing.F) {
	for _, tt := range loadTests {
		f.Add([]byte(tt.in))
	}
	f.Add([]byte("k=\\\n"))
	f.Add([]byte("\\\n#c\n\\"))
	f.Add([]byte("a\\\r\r\n\\u0041=\\uD83D\\uDE00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(bytes.NewReader(data))
		_, _ = ParseUTF8(bytes.NewReader(data))
		p2, err2 := ParseString(string(data))
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Parse err %v, ParseString err %v", err, err2)
		}
		if err != nil {
			return
		}
		if !equalMaps(toMap(p), toMap(p2)) || strings.Join(p.Keys(), "\x00") != strings.Join(p2.Keys(), "\x00") {
			t.Fatalf("Parse and ParseString differ")
		}
		out := p.AppendEscaped(nil)
		back, err := Parse(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if !equalMaps(toMap(p), toMap(back)) {
			t.Fatalf("round trip:\n in  %q\n out %q\n got %q\nwant %q", data, out, toMap(back), toMap(p))
		}
		if strings.Join(p.Keys(), "\x00") != strings.Join(back.Keys(), "\x00") {
			t.Fatalf("key order changed")
		}
	})
}

// FuzzBind: Bind and the formatting helpers never panic on any value.
func FuzzBind(f *testing.F) {
	for _, s := range []string{"", "1", "+5", "-9223372036854775808", "1e400", "0x1p-1074", "NaN", "TRUE", "\u0661", "SLAVE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		p := New()
		for _, k := range []string{"brokerId", "brokerPermission", "autoCreateTopicEnable", "namesrvAddr", "someRatio", "someLoad", "boxed", "brokerRole", "roleBoxed", "listenPort"} {
			p.Set(k, v)
		}
		b, n, s := defaults()
		if _, err := Bind(p, b, n, s); err != nil && !strings.Contains(err.Error(), "javaprops:") {
			t.Fatalf("unexpected error text %v", err)
		}
		for _, obj := range []any{b, n, s} {
			if _, err := ToProperties(obj); err != nil {
				t.Fatal(err)
			}
			if _, err := Lines(obj, false); err != nil {
				t.Fatal(err)
			}
		}
	})
}
