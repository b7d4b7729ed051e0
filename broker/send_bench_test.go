package broker

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkSendV2 is one synchronous 1 KiB SEND_MESSAGE_V2 round trip to
// an in-process broker over loopback (client and broker allocations both
// count).
func BenchmarkSendV2(b *testing.B) {
	br, cl := startBroker(b, "flushDiskType=ASYNC_FLUSH", "mappedFileSizeCommitLog=1073741824", "maxIndexNum=20000000", "maxHashSlotNum=5000000")
	addr := br.Addr()
	body := strings.Repeat("x", 1024)
	ctx := context.Background()
	if _, err := cl.InvokeSync(ctx, addr, sendV2("BenchT", 0, body, "TagA")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := cl.InvokeSync(ctx, addr, sendV2("BenchT", 0, body, "TagA"))
		if err != nil || resp.Code != 0 {
			b.Fatal(err, resp)
		}
	}
}
