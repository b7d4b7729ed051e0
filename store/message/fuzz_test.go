package message

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"unicode/utf8"
)

func seedRecords(f *testing.F) {
	for _, hosts := range [][2]string{{"1.2.3.4", "5.6.7.8"}, {"::1", "1.2.3.4"}, {"1.2.3.4", "fd00::1"}} {
		r := sample(hosts[0], hosts[1])
		b, err := AppendRecord(nil, &r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, true)
		f.Add(b[:len(b)/2], false)
	}
	f.Add([]byte{0, 0, 0, 8, 0xCB, 0xD4, 0x31, 0x94}, true)
	f.Add([]byte{}, false)
}

// FuzzDecodeRecord: decoding never panics, and a record that decodes is
// reproduced byte for byte by AppendRecord (after Java's reading of a
// negative BODYLEN/PROPERTIESLEN as 0).
func FuzzDecodeRecord(f *testing.F) {
	seedRecords(f)
	f.Fuzz(func(t *testing.T, b []byte, checkCRC bool) {
		r, err := DecodeRecord(b, checkCRC)
		_ = Annotate(b)
		if err != nil {
			var ce *CorruptError
			if !errors.Is(err, ErrShort) && !errors.Is(err, ErrBlank) && !errors.As(err, &ce) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		want := normalise(b[:r.TotalSize], r.SysFlag)
		sysFlag := r.SysFlag
		got, err := AppendRecord(nil, &r)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if r.SysFlag != sysFlag {
			return // the host bits are derived from the addresses; fine
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("re-encode differs:\n%s\nwant\n%s", Annotate(got), Annotate(want))
		}
	})
}

// normalise rewrites negative BODYLEN/PROPERTIESLEN to 0, as Java reads them.
func normalise(b []byte, sysFlag int32) []byte {
	b = bytes.Clone(b)
	l := Offsets(sysFlag)
	bodyLen := int(int32(binary.BigEndian.Uint32(b[l.BodyLen:])))
	if bodyLen < 0 {
		binary.BigEndian.PutUint32(b[l.BodyLen:], 0)
	}
	at := l.Body + max(bodyLen, 0)
	at += 1 + int(b[at]) // TOPICLEN is not negative in a decoded record
	if int16(binary.BigEndian.Uint16(b[at:])) < 0 {
		binary.BigEndian.PutUint16(b[at:], 0)
	}
	return b
}

// FuzzParseProperties: parsing never panics and is idempotent through
// AppendProperties.
func FuzzParseProperties(f *testing.F) {
	for _, s := range []string{"", "a\x01b", "a\x01b\x02c\x01d\x02", "\x01\x02\x01", "k\x01v\x01w\x02k\x01x", "\xff\x01\xfe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := ParseProperties(b)
		for _, kv := range p {
			v, ok := LookupProperty(b, kv.Key)
			if utf8.Valid(b) && (!ok || string(v) != kv.Value) {
				t.Fatalf("LookupProperty(%q) = %q, %v; parsed %q", kv.Key, v, ok, kv.Value)
			}
		}
		again := ParseProperties(AppendProperties(nil, p))
		if len(again) != len(p) {
			t.Fatalf("round trip: %q vs %q", p, again)
		}
		for i := range p {
			if p[i] != again[i] {
				t.Fatalf("round trip: %q vs %q", p, again)
			}
		}
	})
}

// FuzzBatch: the batch reader never panics; a body it accepts re-encodes
// identically except for the ignored head fields, and its records decode.
func FuzzBatch(f *testing.F) {
	f.Add(batchBody(f, BatchEntry{Flag: 1, Body: []byte("ab"), Properties: []byte("k\x01v")}, BatchEntry{}), []byte("C\x01c"))
	f.Add([]byte{0, 0, 0, 0}, []byte(nil))
	f.Fuzz(func(t *testing.T, body, batchProps []byte) {
		var again []byte
		r := NewBatchReader(body)
		for e, ok := r.Next(); ok; e, ok = r.Next() {
			var err error
			if again, err = AppendBatchEntry(again, e.Flag, e.Body, e.Properties); err != nil {
				t.Fatal(err)
			}
		}
		if r.Err() != nil {
			return
		}
		if len(again) != len(body) {
			t.Fatalf("re-encoded %d bytes, had %d", len(again), len(body))
		}
		tmpl := BatchTemplate{Topic: "T", BornHost: sample("1.1.1.1", "::2").BornHost, StoreHost: sample("1.1.1.1", "::2").StoreHost, Properties: batchProps}
		out, infos, err := AppendBatchRecords(nil, &tmpl, body)
		if err != nil {
			return // properties too long
		}
		for _, info := range infos {
			if _, err := DecodeRecord(out[info.Offset:], true); err != nil {
				t.Fatalf("stored record %d: %v", info.Offset, err)
			}
		}
	})
}

// lookupPropertyReference is LookupProperty written the plain way (split
// into pairs, split each at its first name-value separator), the oracle
// of FuzzLookupProperty.
func lookupPropertyReference(raw []byte, key string) ([]byte, bool) {
	var val []byte
	found := false
	for len(raw) > 0 {
		seg, rest, _ := bytes.Cut(raw, []byte{PropertySeparator})
		raw = rest
		k, v, ok := bytes.Cut(seg, []byte{NameValueSeparator})
		if ok && len(v) > 0 && string(k) == key && key != "" {
			val, found = v, true
		}
	}
	return val, found
}

// FuzzLookupProperty: the fast lookup agrees with the plain one for any
// raw string and key.
func FuzzLookupProperty(f *testing.F) {
	for _, s := range [][2]string{{"TAGS\x01a\x02KEYS\x01k", "TAGS"}, {"a\x01b\x02a\x01\x02a\x01c", "a"}, {"a\x01\x01b", "a"}, {"\x01v", ""}, {"k\x01v", "k\x01"}, {"kk\x01v\x02k\x01w", "k"}} {
		f.Add([]byte(s[0]), s[1])
	}
	f.Fuzz(func(t *testing.T, raw []byte, key string) {
		got, gotOK := LookupProperty(raw, key)
		want, wantOK := lookupPropertyReference(raw, key)
		if gotOK != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("LookupProperty(%q, %q) = %q, %v; want %q, %v", raw, key, got, gotOK, want, wantOK)
		}
		if v, ok := LookupPropertyString(string(raw), key); ok != wantOK || v != string(want) {
			t.Fatalf("LookupPropertyString(%q, %q) = %q, %v; want %q, %v", raw, key, v, ok, want, wantOK)
		}
		keys := []string{PropTags, key, "", key + "\x01", PropKeys}
		vals := make([][]byte, len(keys))
		LookupProperties(raw, keys, vals)
		for i, k := range keys {
			want, _ := lookupPropertyReference(raw, k)
			if !bytes.Equal(vals[i], want) || (vals[i] == nil) != (want == nil) {
				t.Fatalf("LookupProperties(%q) key %q = %q; want %q", raw, k, vals[i], want)
			}
		}
	})
}
