package routeinfo

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestRouteCacheNeverStale applies random table operations and checks after
// each that every cached route equals a freshly encoded one.
func TestRouteCacheNeverStale(t *testing.T) {
	tb, clk := newTable(t)
	rng := rand.New(rand.NewPCG(1, 2))
	conns := map[string]*fakeConn{}
	names := []string{"T0", "T1", "T2", "T3", "T4", "T5"}
	randTopics := func() []TopicConfig {
		var tcs []TopicConfig
		for _, n := range names {
			if rng.IntN(2) == 0 {
				tcs = append(tcs, topic(n, int32(1+rng.IntN(4)), int32(2+rng.IntN(5))))
			}
		}
		return tcs
	}
	for step := range 3000 {
		group := "g" + strconv.Itoa(rng.IntN(4))
		id := int64(rng.IntN(3))
		addr := group + ":" + strconv.Itoa(int(id)+rng.IntN(2))
		switch op := rng.IntN(10); op {
		case 0, 1, 2, 3:
			c := &fakeConn{}
			conns[addr] = c
			r := reg("c"+strconv.Itoa(rng.IntN(2)), group, id, addr, topics(int64(rng.IntN(3)), randTopics()...), c)
			if rng.IntN(3) == 0 {
				r.FilterServers = []string{"f" + strconv.Itoa(rng.IntN(2))}
			}
			tb.RegisterBroker(r)
		case 4:
			tb.UnregisterBroker("c0", addr, group, id)
		case 5:
			tb.OnConnClosed(addr, conns[addr])
		case 6:
			tb.DeleteTopicInCluster(names[rng.IntN(len(names))], "c"+strconv.Itoa(rng.IntN(2)))
		case 7:
			if rng.IntN(2) == 0 {
				tb.WipeWritePerm(group)
			} else {
				tb.AddWritePerm(group)
			}
		case 8:
			clk.now = clk.now.Add(time.Duration(rng.IntN(90)) * time.Second)
			tb.ScanNotActiveBrokers()
		case 9:
			tb.QueryDataVersion(addr, DataVersion{Timestamp: 1000, Counter: int64(rng.IntN(3))})
		}
		for _, n := range names {
			for _, std := range []bool{false, true} {
				cached, okC := tb.RouteJSON(n, std)
				var fresh []byte
				rd, okF := tb.PickupTopicRouteData(n)
				if okF {
					fresh = rd.AppendJSON(nil, std)
				}
				if okC != okF || !bytes.Equal(cached, fresh) {
					t.Fatalf("step %d topic %s standard=%v:\ncached %s\n fresh %s", step, n, std, cached, fresh)
				}
			}
		}
	}
}
