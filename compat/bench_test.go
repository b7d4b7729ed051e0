package compat_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// BenchmarkDecodeJavaSendFrame decodes a whole SEND_MESSAGE_V2 frame with a
// 1 KiB body exactly as the Java 4.9.8 client wrote it: frame, header and
// the typed SendMessageRequestHeaderV2. Target: ≤ 2 allocations beyond the
// pooled frame buffer.
func BenchmarkDecodeJavaSendFrame(b *testing.B) {
	for _, st := range []string{"json", "rocketmq"} {
		b.Run(st, func(b *testing.B) {
			t := &testing.T{}
			frame := readHex(t, filepath.Join("testdata", "frames", "java", "send_v2_request_1k."+st+".hex"))
			r := bytes.NewReader(frame)
			var fr *wire.FrameReader
			b.ReportAllocs()
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				r.Reset(frame)
				if fr == nil {
					fr = wire.NewFrameReader(r, 0)
				}
				c, err := fr.ReadCommand()
				if err != nil {
					b.Fatal(err)
				}
				var h protocol.SendMessageRequestHeaderV2
				if err := h.DecodeFrom(c); err != nil {
					b.Fatal(err)
				}
				c.Release()
			}
		})
	}
}
