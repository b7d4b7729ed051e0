package javaprops

import (
	"strings"
	"testing"
)

func TestPropertiesSetGetDelete(t *testing.T) {
	p := New()
	p.Set("b", "1")
	p.Set("a", "2")
	p.Set("b", "3")
	if got := strings.Join(p.Keys(), ","); got != "b,a" {
		t.Errorf("keys %s", got)
	}
	if v, ok := p.Get("b"); !ok || v != "3" {
		t.Errorf("b = %q %v", v, ok)
	}
	if _, ok := p.Get("zz"); ok {
		t.Error("zz present")
	}
	p.Delete("b")
	p.Delete("nope")
	if got := strings.Join(p.Keys(), ","); got != "a" || p.Len() != 1 {
		t.Errorf("after delete: %s (%d)", got, p.Len())
	}
	keys := p.Keys()
	keys[0] = "mutated"
	if p.Keys()[0] != "a" {
		t.Error("Keys is not a copy")
	}
}

func TestMerge(t *testing.T) {
	mk := func(kv ...string) *Properties {
		p := New()
		for i := 0; i < len(kv); i += 2 {
			p.Set(kv[i], kv[i+1])
		}
		return p
	}
	p := mk("listenPort", "9876", "extra", "x")
	p.Merge(mk("extra", "y", "new", "z"))
	if got := p.Format(); got != "listenPort=9876\nextra=y\nnew=z\n" {
		t.Errorf("Merge: %q", got)
	}
	// Configuration.update: only keys that already exist are taken over.
	p.MergeIfExist(mk("listenPort", "1", "unknown", "2"))
	if got := p.Format(); got != "listenPort=1\nextra=y\nnew=z\n" {
		t.Errorf("MergeIfExist: %q", got)
	}
	p.Sort()
	if got := strings.Join(p.Keys(), ","); got != "extra,listenPort,new" {
		t.Errorf("Sort: %s", got)
	}
}

// Java 4.9.8 MixAll.properties2String: key + "=" + value + "\n", nothing
// escaped (verified: a value "10915 " stays "listenPort=10915 |", a key with
// no value prints "namesrvAddr=").
func TestFormat(t *testing.T) {
	p := New()
	p.Set("listenPort", "10915 ")
	p.Set("namesrvAddr", "")
	p.Set("a b", "x=y\\z")
	p.Set("name", "é")
	want := "listenPort=10915 \nnamesrvAddr=\na b=x=y\\z\nname=é\n"
	if got := p.Format(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := New().Format(); got != "" {
		t.Errorf("empty: %q", got)
	}
}

func TestAppendEscaped(t *testing.T) {
	p := New()
	p.Set("a b=c:d", " lead\ttab\nnl\r\f#!\\ trail ")
	p.Set("#k", "é中\U0001F600\x01\x7f")
	p.Set("", "")
	got := string(p.AppendEscaped(nil))
	want := `a\ b\=c\:d=\ lead\ttab\nnl\r\f\#\!\\ trail ` + "\n" +
		`\#k=\u00E9\u4E2D\uD83D\uDE00\u0001\u007F` + "\n" +
		"=\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	back, err := ParseString(got)
	if err != nil {
		t.Fatal(err)
	}
	if !equalMaps(toMap(back), toMap(p)) {
		t.Errorf("round trip: %q", toMap(back))
	}
}

// Format is lossy where Java's is: leading blanks of a value are lost on
// reading back.
func TestFormatIsLossyLikeJava(t *testing.T) {
	p := New()
	p.Set("k", "  v")
	back, err := ParseString(p.Format())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := back.Get("k"); v != "v" {
		t.Errorf("k = %q", v)
	}
}
