package routeinfo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// testdata/java_register_bodies.txt: a RegisterBrokerBody built by Java
// 4.9.8 and encoded with encode(false) (json), encode(true) (compressed),
// its TopicConfigSerializeWrapper alone (legacy), and the key orders of
// Java's ConcurrentHashMap after RegisterBrokerBody.decode of the
// compressed body and of a 300-topic JSON body.
func javaRegisterBodies(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/java_register_bodies.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "\t")
		out[k] = v
	}
	return out
}

func names(tcs []TopicConfig) string {
	s := make([]string, len(tcs))
	for i, tc := range tcs {
		s[i] = tc.TopicName
	}
	return strings.Join(s, ",")
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeJavaCompressedBody(t *testing.T) {
	j := javaRegisterBodies(t)
	rb, err := DecodeRegisterBody(unhex(t, j["compressed"]), true, 99)
	if err != nil {
		t.Fatal(err)
	}
	if rb.Topics.DataVersion != (DataVersion{Timestamp: 1700000000123, Counter: 42}) {
		t.Errorf("data version %+v", rb.Topics.DataVersion)
	}
	if got := names(rb.Topics.Topics); got != j["compressed_decoded_order"] {
		t.Errorf("order %s, Java %s", got, j["compressed_decoded_order"])
	}
	if strings.Join(rb.FilterServers, ",") != "127.0.0.1:30001" {
		t.Errorf("filter servers %q", rb.FilterServers)
	}
	for _, tc := range rb.Topics.Topics {
		// The text form carries no sysFlag and no order flag.
		if tc.TopicSysFlag != 0 || tc.Order || tc.Perm != 6 {
			t.Errorf("%+v", tc)
		}
		if tc.TopicName == "DefaultCluster" && (tc.TopicFilterType != "MULTI_TAG" || tc.ReadQueueNums != 6 || tc.WriteQueueNums != 10) {
			t.Errorf("%+v", tc)
		}
	}
}

func TestDecodeJavaJSONAndLegacyBodies(t *testing.T) {
	j := javaRegisterBodies(t)
	rb, err := DecodeRegisterBody([]byte(j["json"]), false, 99)
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := DecodeTopicConfigWrapper([]byte(j["legacy"]), 99)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []TopicConfigWrapper{rb.Topics, legacy} {
		if w.DataVersion != (DataVersion{Timestamp: 1700000000123, Counter: 42}) || len(w.Topics) != 6 {
			t.Fatalf("%+v", w)
		}
		for _, tc := range w.Topics {
			if tc.TopicName == "DefaultCluster" && (tc.TopicSysFlag != 2 || tc.Order || tc.TopicFilterType != "MULTI_TAG") {
				t.Errorf("%+v", tc)
			}
			if tc.TopicName == "%RETRY%group" && (tc.TopicSysFlag != 1 || !tc.Order) {
				t.Errorf("%+v", tc)
			}
		}
	}
	var big strings.Builder
	big.WriteString(`{"topicConfigSerializeWrapper":{"topicConfigTable":{`)
	for i := range 300 {
		if i > 0 {
			big.WriteByte(',')
		}
		n := "t" + strconv.Itoa(i)
		big.WriteString(`"` + n + `":{"topicName":"` + n + `"}`)
	}
	big.WriteString(`}}}`)
	rb, err = DecodeRegisterBody([]byte(big.String()), false, 99)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(rb.Topics.Topics); got != j["json300_decoded_order"] {
		t.Errorf("order %.200s\nJava  %.200s", got, j["json300_decoded_order"])
	}
	// Fields left out take Java's initializers; the version is stamped now.
	tc := rb.Topics.Topics[0]
	if tc.ReadQueueNums != 16 || tc.WriteQueueNums != 16 || tc.Perm != 6 || tc.TopicFilterType != "SINGLE_TAG" {
		t.Errorf("defaults %+v", tc)
	}
	if rb.Topics.DataVersion != (DataVersion{Timestamp: 99}) {
		t.Errorf("default version %+v", rb.Topics.DataVersion)
	}
}

func zlibBytes(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	_, _ = w.Write(raw)
	_ = w.Close()
	return b.Bytes()
}

func chunk(s string) []byte {
	n := len(s)
	return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, s...)
}

func TestDecodeBodyErrors(t *testing.T) {
	dv := chunk(`{"counter":1,"timestamp":2}`)
	count := func(n int) []byte { return []byte{0, 0, 0, byte(n)} }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name       string
		body       []byte
		compressed bool
	}{
		{"json syntax", []byte(`{"topicConfigSerializeWrapper":`), false},
		{"json wrong type", []byte(`{"topicConfigSerializeWrapper":{"dataVersion":{"counter":"x"}}}`), false},
		{"json trailing", []byte(`{} {}`), false},
		{"not zlib", []byte("plain"), true},
		{"truncated", zlibBytes(t, dv[:10]), true},
		{"no topic count", zlibBytes(t, dv), true},
		{"missing topic", zlibBytes(t, cat(dv, count(2), chunk("a 1 1 6 SINGLE_TAG"))), true},
		{"four fields", zlibBytes(t, cat(dv, count(1), chunk("a 1 1 6"), chunk("[]"))), true},
		{"bad number", zlibBytes(t, cat(dv, count(1), chunk("a x 1 6 SINGLE_TAG"), chunk("[]"))), true},
		{"bad filter type", zlibBytes(t, cat(dv, count(1), chunk("a 1 1 6 NO_TAG"), chunk("[]"))), true},
		{"negative length", zlibBytes(t, cat(dv, count(1), []byte{0xFF, 0xFF, 0xFF, 0xFF})), true},
		{"huge length", zlibBytes(t, cat(dv, count(1), []byte{0x7F, 0xFF, 0xFF, 0xFF}, []byte("abc"))), true},
		{"bad version json", zlibBytes(t, cat(chunk("{"), count(0), chunk("[]"))), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := DecodeRegisterBody(tt.body, tt.compressed, 0); !errors.Is(err, ErrBadBody) {
				t.Fatalf("err = %v, want ErrBadBody", err)
			}
		})
	}
}

func TestDecodeCompressedLenientParts(t *testing.T) {
	dv := chunk(`{"counter":3,"timestamp":4}`)
	// Trailing blanks are dropped by String.split; a bad filter server list
	// is logged by Java and replaced by an empty one; trailing data is
	// ignored.
	body := zlibBytes(t, bytes.Join([][]byte{dv, {0, 0, 0, 1}, chunk("t 1 2 4 SINGLE_TAG  "), chunk("not json"), []byte("extra")}, nil))
	rb, err := DecodeRegisterBody(body, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := TopicConfig{TopicName: "t", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 4, TopicFilterType: "SINGLE_TAG"}
	if len(rb.Topics.Topics) != 1 || rb.Topics.Topics[0] != want {
		t.Errorf("%+v", rb.Topics.Topics)
	}
	if rb.FilterServers == nil || len(rb.FilterServers) != 0 {
		t.Errorf("filter servers %#v", rb.FilterServers)
	}
}

func TestDecodeJSONNullFilterServers(t *testing.T) {
	rb, err := DecodeRegisterBody([]byte(`{filterServerList:null,topicConfigSerializeWrapper:{topicConfigTable:{'a':{topicName:'a',perm:"4"},"b":null}}}`), false, 5)
	if err != nil {
		t.Fatal(err)
	}
	if rb.FilterServers != nil {
		t.Errorf("null list decoded as %#v", rb.FilterServers)
	}
	if len(rb.Topics.Topics) != 1 || rb.Topics.Topics[0].Perm != 4 {
		t.Errorf("%+v", rb.Topics.Topics)
	}
}
