package store

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// Store statistics as Java 4.9.8's StoreStatsService keeps them: counts of
// stored messages and bytes, failed appends, found and missed reads and
// messages handed to readers, sampled every second into 601-sample windows
// the 10 s, 60 s and 600 s rates are read from (GET_BROKER_RUNTIME_INFO's
// putTps, getFoundTps, … and BrokerStats' msgPutTotal*/msgGetTotal*).
type storeStats struct {
	putTimes, putSize, putFailed atomic.Int64
	getFound, getMiss            atomic.Int64
	transferred                  atomic.Int64

	mu                         sync.Mutex
	put, found, miss, transfer []callSample
}

// callSample is StoreStatsService's CallSnapshot.
type callSample struct{ at, total int64 }

// statsSamples is MAX_RECORDS_OF_SAMPLING + 1.
const statsSamples = 600 + 1

func (st *storeStats) putOK(msgs int, bytes int) {
	st.putTimes.Add(int64(msgs))
	st.putSize.Add(int64(bytes))
}

func (st *storeStats) got(res *GetResult) {
	if res.Status == Found {
		st.getFound.Add(1)
	} else {
		st.getMiss.Add(1)
	}
	st.transferred.Add(int64(len(res.Messages)))
}

// sample is StoreStatsService.sampling.
func (st *storeStats) sample(now int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range []struct {
		list  *[]callSample
		total int64
	}{{&st.put, st.putTimes.Load()}, {&st.found, st.getFound.Load()}, {&st.miss, st.getMiss.Load()},
		{&st.transfer, st.transferred.Load()}} {
		*s.list = append(*s.list, callSample{at: now, total: s.total})
		if len(*s.list) > statsSamples {
			*s.list = append((*s.list)[:0], (*s.list)[1:]...)
		}
	}
}

// rate is CallSnapshot.getTPS between the last sample and the one n
// samples before it; ok is false when there are not that many yet.
func rate(list []callSample, n int) (float64, bool) {
	if len(list) <= n {
		return 0, false
	}
	first, last := list[len(list)-(n+1)], list[len(list)-1]
	return float64(last.total-first.total) / float64(last.at-first.at) * 1000, true
}

// tps is getPutTps() and its kind: the 10, 60 and 600 s rates in Java's
// Double.toString, each "" while the window is not full yet.
func tps(list []callSample) string {
	out := ""
	for i, n := range []int{10, 60, 600} {
		if i > 0 {
			out += " "
		}
		if r, ok := rate(list, n); ok {
			out += javalang.FormatDouble(r)
		}
	}
	return out
}

// totalTps is getGetTotalTps(): found plus missed reads per second, 0.0
// for a window not full yet.
func totalTps(found, miss []callSample) string {
	out := ""
	for i, n := range []int{10, 60, 600} {
		if i > 0 {
			out += " "
		}
		f, _ := rate(found, n)
		m, _ := rate(miss, n)
		out += javalang.FormatDouble(f + m)
	}
	return out
}

// RuntimeStats are the counters and rates of StoreStatsService.
type RuntimeStats struct {
	PutMessageTimesTotal int64 // messages stored
	PutMessageSizeTotal  int64 // bytes stored
	PutMessageFailed     int64 // appends that failed
	Transferred          int64 // messages handed to readers
	PutTps               string
	GetFoundTps          string
	GetMissTps           string
	GetTotalTps          string
	GetTransferedTps     string
}

// RuntimeStats reads the store's statistics.
func (s *Store) RuntimeStats() RuntimeStats {
	st := &s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	return RuntimeStats{
		PutMessageTimesTotal: st.putTimes.Load(), PutMessageSizeTotal: st.putSize.Load(),
		PutMessageFailed: st.putFailed.Load(), Transferred: st.transferred.Load(),
		PutTps: tps(st.put), GetFoundTps: tps(st.found), GetMissTps: tps(st.miss),
		GetTotalTps: totalTps(st.found, st.miss), GetTransferedTps: tps(st.transfer),
	}
}

// statsLoop samples every second (StoreStatsService.run).
func (s *Store) statsLoop(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			s.stats.sample(s.opt.Now())
		}
	}
}
