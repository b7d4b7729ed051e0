package routeinfo

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Fuzz targets for the REGISTER_BROKER body decoders (all three forms) and
// the route decoder. Their seed corpora run in plain `go test`.

func addBodySeeds(f *testing.F) {
	data, err := os.ReadFile("testdata/java_register_bodies.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		switch k {
		case "json", "legacy":
			f.Add([]byte(v), uint8(0))
			f.Add([]byte(v), uint8(2))
		case "compressed", "empty_compressed":
			b, err := hex.DecodeString(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b, uint8(1))
		}
	}
	f.Add([]byte(`{filterServerList:[,'a',],topicConfigSerializeWrapper:{topicConfigTable:{0:{topicName:0}}}}`), uint8(0))
	f.Add([]byte(`null`), uint8(0))
	f.Add([]byte{0x78, 0x9c}, uint8(1))
}

// FuzzDecodeRegisterBody: mode 0 = RegisterBrokerBody JSON, 1 = compressed,
// 2 = legacy TopicConfigSerializeWrapper. Decoding must not panic, and a
// compressed body that decodes must survive re-encoding.
func FuzzDecodeRegisterBody(f *testing.F) {
	addBodySeeds(f)
	f.Fuzz(func(t *testing.T, body []byte, mode uint8) {
		switch mode % 3 {
		case 0:
			_, _ = DecodeRegisterBody(body, false, 1)
		case 2:
			_, _ = DecodeTopicConfigWrapper(body, 1)
		case 1:
			rb, err := DecodeRegisterBody(body, true, 1)
			if err != nil {
				return
			}
			again, err := DecodeRegisterBody(encodeCompressed(t, rb), true, 1)
			if err != nil {
				t.Fatalf("re-encoded body fails: %v", err)
			}
			if !reflect.DeepEqual(rb.Topics, again.Topics) {
				t.Fatalf("topics changed:\n%+v\n%+v", rb.Topics, again.Topics)
			}
		}
	})
}

// encodeCompressed writes rb as RegisterBrokerBody.encode(true) does.
func encodeCompressed(t *testing.T, rb *RegisterBody) []byte { return encodeCompressedB(t, rb) }

func encodeCompressedB(t testing.TB, rb *RegisterBody) []byte {
	out, err := rb.AppendCompressed(nil, zlib.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzDecodeTopicRouteData: a decodable route re-encodes to a fixed point.
func FuzzDecodeTopicRouteData(f *testing.F) {
	data, err := os.ReadFile("testdata/java_fastjson_bodies.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, _ := strings.Cut(line, "\t"); strings.HasPrefix(k, "route") {
			f.Add([]byte(v))
		}
	}
	f.Add([]byte(`{"queueDatas":[{"topicSynFlag":1}],"brokerDatas":[{"brokerAddrs":{"x":"y"}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		rd, err := DecodeTopicRouteData(body)
		if err != nil {
			return
		}
		for _, standard := range []bool{false, true} {
			first := rd.AppendJSON(nil, standard)
			rd2, err := DecodeTopicRouteData(first)
			if err != nil {
				t.Fatalf("own output does not decode: %v\n%s", err, first)
			}
			if second := rd2.AppendJSON(nil, standard); !bytes.Equal(first, second) {
				t.Fatalf("not a fixed point:\n%s\n%s", first, second)
			}
		}
	})
}
