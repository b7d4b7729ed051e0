package protocol

import (
	"bytes"
	"reflect"
	"sort"
	"testing"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// fuzzKeys is every wire key of the spec, sorted: the fuzz input names keys
// by index so that random bytes hit real fields.
func fuzzKeys(tb testing.TB) (keys, classes []string) {
	seen := map[string]bool{}
	for _, h := range loadSpec(tb).Headers {
		classes = append(classes, h.Class)
		for _, f := range h.Fields {
			if !seen[f.Java] {
				seen[f.Java] = true
				keys = append(keys, f.Java)
			}
		}
	}
	sort.Strings(keys)
	return keys, classes
}

// fuzzCommand turns fuzz input into extFields: entries are separated by
// 0x00; an entry's first byte picks keys[b % len(keys)] and the rest is the
// value, except that a first byte >= 0xF0 makes the rest a raw key with an
// empty value.
func fuzzCommand(data []byte, keys []string) *wire.Command {
	c := wire.NewRequest(0)
	for _, e := range bytes.Split(data, []byte{0}) {
		switch {
		case len(e) == 0:
		case e[0] >= 0xF0:
			c.AddExt(string(e[1:]), "")
		default:
			c.AddExt(keys[int(e[0])%len(keys)], string(e[1:]))
		}
	}
	return c
}

// fuzzInput is the inverse of fuzzCommand for known keys (seeds).
func fuzzInput(keys []string, kv ...string) []byte {
	var b []byte
	for i := 0; i+1 < len(kv); i += 2 {
		k := sort.SearchStrings(keys, kv[i])
		b = append(append(append(b, byte(k)), kv[i+1]...), 0)
	}
	return b
}

// FuzzDecodeHeaders decodes random extFields with every header type. It
// must never panic, fail only with a SYSTEM_ERROR *Error, and whatever
// decodes must re-encode to something that decodes to the same header.
func FuzzDecodeHeaders(f *testing.F) {
	keys, classes := fuzzKeys(f)
	f.Add(fuzzInput(keys, sendV2...))
	f.Add(fuzzInput(keys, "topic", "T", "queueId", "\u0661", "timestamp", "-9223372036854775808", "offset", "9223372036854775808"))
	f.Add(fuzzInput(keys, "consumerGroup", "G", "topic", "T", "queueId", "0", "queueOffset", "12", "maxMsgNums", "32",
		"sysFlag", "3", "commitOffset", "-1", "suspendTimeoutMillis", "20000", "subVersion", "0", "expressionType", "TAG"))
	f.Add(fuzzInput(keys, "changed", "TRUE", "acceptStandardJsonOnly", "x", "bodyCrc32", "+", "j", "1e3"))
	f.Add([]byte("\xf0unknownKey\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzCommand(data, keys)
		for _, class := range classes {
			h := NewHeader(class)
			if err := h.DecodeFrom(c); err != nil {
				if pe, ok := AsError(err); !ok || pe.Code != RespSystemError {
					t.Fatalf("%s: error %v is not a SYSTEM_ERROR *Error", class, err)
				}
				continue
			}
			again := wire.NewRequest(0)
			h.EncodeTo(again)
			back := NewHeader(class)
			if err := back.DecodeFrom(again); err != nil {
				t.Fatalf("%s: re-encoded header does not decode: %v (%v)", class, err, again.Ext)
			}
			if !reflect.DeepEqual(back, h) {
				t.Fatalf("%s: re-decoded %+v, first decoded %+v", class, back, h)
			}
		}
	})
}
