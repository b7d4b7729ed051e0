package wire

import (
	"bytes"
	"testing"
)

// sendV2 is a SEND_MESSAGE_V2 request as the Java client builds it.
func sendV2(st SerializeType) *Command {
	c := NewRequest(310)
	c.Serialize = st
	c.Opaque = 1234
	for _, kv := range [][2]string{
		{"a", "please_rename_unique_group_name"}, {"b", "TopicTest"}, {"c", "TBW102"},
		{"d", "4"}, {"e", "3"}, {"f", "0"}, {"g", "1700000000000"}, {"h", "0"},
		{"i", "KEYS\x01OrderID188\x02UNIQ_KEY\x017F000001A0B418B4AAC2000000000000\x02WAIT\x01true\x02TAGS\x01TagA"},
		{"j", "0"}, {"k", "false"}, {"m", "false"},
	} {
		c.AddExt(kv[0], kv[1])
	}
	c.MarkHeader(0, true, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "m"}) // a FastCodesHeader, as EncodeTo marks it
	c.Body = bytes.Repeat([]byte{'x'}, 1024)
	return c
}

// pullResp is a PULL_MESSAGE response with a 32 KiB body.
func pullResp(st SerializeType) *Command {
	c := NewResponse(&Command{Opaque: 99, Serialize: st}, 0, "FOUND")
	for _, kv := range [][2]string{
		{"suggestWhichBrokerId", "0"}, {"nextBeginOffset", "132"}, {"minOffset", "0"}, {"maxOffset", "200"},
	} {
		c.AddExt(kv[0], kv[1])
	}
	c.MarkHeader(0, true, []string{"suggestWhichBrokerId", "nextBeginOffset", "maxOffset", "minOffset"})
	c.Body = bytes.Repeat([]byte{'y'}, 32<<10)
	return c
}

func benchEncode(b *testing.B, c *Command) {
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	b.SetBytes(int64(c.BodyLen()))
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = AppendFramePrefix(buf[:0], c)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func benchDecode(b *testing.B, c *Command) {
	frame, err := AppendFrame(nil, c)
	if err != nil {
		b.Fatal(err)
	}
	r := bytes.NewReader(frame)
	fr := NewFrameReader(r, 0)
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Reset(frame)
		fr.r.Reset(r)
		got, err := fr.ReadCommand()
		if err != nil {
			b.Fatal(err)
		}
		got.Release()
	}
}

func BenchmarkEncodeSendV2(b *testing.B) {
	b.Run("JSON", func(b *testing.B) { benchEncode(b, sendV2(SerializeJSON)) })
	b.Run("ROCKETMQ", func(b *testing.B) { benchEncode(b, sendV2(SerializeRocketMQ)) })
}

func BenchmarkDecodeSendV2(b *testing.B) {
	b.Run("JSON", func(b *testing.B) { benchDecode(b, sendV2(SerializeJSON)) })
	b.Run("ROCKETMQ", func(b *testing.B) { benchDecode(b, sendV2(SerializeRocketMQ)) })
}

func BenchmarkEncodePullResponse(b *testing.B) {
	b.Run("JSON", func(b *testing.B) { benchEncode(b, pullResp(SerializeJSON)) })
	b.Run("ROCKETMQ", func(b *testing.B) { benchEncode(b, pullResp(SerializeRocketMQ)) })
}

func BenchmarkDecodePullResponse(b *testing.B) {
	b.Run("JSON", func(b *testing.B) { benchDecode(b, pullResp(SerializeJSON)) })
	b.Run("ROCKETMQ", func(b *testing.B) { benchDecode(b, pullResp(SerializeRocketMQ)) })
}

// BenchmarkEncodeBinaryHeader is the header alone (target: ≤ 150 ns).
func BenchmarkEncodeBinaryHeader(b *testing.B) {
	c := sendV2(SerializeRocketMQ)
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = appendBinaryHeader(buf[:0], c)
	}
}
