package remoting

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// BenchmarkRoundTripSync measures InvokeSync round trips of a 1 KiB body
// echoed back over one connection: "serial" is one caller (latency),
// "parallel" is 16×GOMAXPROCS callers sharing the connection (throughput).
func BenchmarkRoundTripSync(b *testing.B) {
	for _, st := range serializeTypes {
		for _, par := range []int{0, 16} {
			name := st.String() + "/serial"
			if par > 0 {
				name = st.String() + "/parallel"
			}
			b.Run(name, func(b *testing.B) { benchRoundTrip(b, st, par) })
		}
	}
}

func benchRoundTrip(b *testing.B, st wire.SerializeType, parallelism int) {
	log, _ := testLog()
	log.Logger.SetLevel(logrus.PanicLevel)
	s := NewServer(ServerConfig{ListenAddr: "127.0.0.1:0", Log: log})
	s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(1024))
	if err := s.Listen(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Shutdown(context.Background()) }()
	cl := NewClient(ClientConfig{Serialize: st, Log: log})
	defer cl.Close()
	addr := s.Addr().String()
	body := make([]byte, 1024)

	var mu sync.Mutex
	var lat []time.Duration
	run := func(next func() bool) {
		local := make([]time.Duration, 0, 1024)
		for next() {
			req := wire.NewRequest(int32(codeEcho))
			req.AddExt("topic", "BenchTopic")
			req.Body = body
			t0 := time.Now()
			resp, err := cl.InvokeSync(context.Background(), addr, req)
			if err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(t0))
			resp.Release()
		}
		mu.Lock()
		lat = append(lat, local...)
		mu.Unlock()
	}

	b.SetBytes(int64(2 * len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	if parallelism > 0 {
		b.SetParallelism(parallelism)
		b.RunParallel(func(pb *testing.PB) { run(pb.Next) })
	} else {
		i := 0
		run(func() bool { i++; return i <= b.N })
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
}
