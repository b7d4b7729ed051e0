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
	latency                      latencyStats

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

	PutMessageEntireTimeMax  int64   // longest put since start, ms
	GetMessageEntireTimeMax  int64   // longest get since start, ms
	PutMessageDistributeTime string  // the last whole minute's puts per duration range, "null" before
	PutLatency99             float64 // the last whole minute's 99th percentile put duration, ms
	PutLatency999            float64 // and its 99.9th
}

// RuntimeStats reads the store's statistics.
func (s *Store) RuntimeStats() RuntimeStats {
	st := &s.stats
	last := st.latency.last.Load()
	st.mu.Lock()
	defer st.mu.Unlock()
	return RuntimeStats{
		PutMessageTimesTotal: st.putTimes.Load(), PutMessageSizeTotal: st.putSize.Load(),
		PutMessageFailed: st.putFailed.Load(), Transferred: st.transferred.Load(),
		PutTps: tps(st.put), GetFoundTps: tps(st.found), GetMissTps: tps(st.miss),
		GetTotalTps: totalTps(st.found, st.miss), GetTransferedTps: tps(st.transfer),
		PutMessageEntireTimeMax: st.latency.putMax.Load(), GetMessageEntireTimeMax: st.latency.getMax.Load(),
		PutMessageDistributeTime: last.distribution(),
		PutLatency99:             last.percentile(0.99), PutLatency999: last.percentile(0.999),
	}
}

// statsLoop samples every second and, once a minute, logs the rates and
// starts a new minute of put durations (StoreStatsService.run, printTps).
func (s *Store) statsLoop(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	minuteFrom := s.opt.Now()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			now := s.opt.Now()
			s.stats.sample(now)
			if now > minuteFrom+statsMinute {
				minuteFrom = now
				s.logMinute()
			}
		}
	}
}

// statsMinute is printTPSInterval (ms).
const statsMinute = 60 * 1000

// logMinute logs the last minute's rates and put durations, as Java's
// [STORETPS] and [PAGECACHERT] lines, and starts the next minute.
func (s *Store) logMinute() {
	st := &s.stats
	st.mu.Lock()
	rates := [4]string{}
	for i, list := range [][]callSample{st.put, st.found, st.miss, st.transfer} {
		if r, ok := rate(list, 60); ok {
			rates[i] = javalang.FormatDouble(r)
		}
	}
	st.mu.Unlock()
	s.log.Infof("[STORETPS] put_tps %s get_found_tps %s get_miss_tps %s get_transfered_tps %s",
		rates[0], rates[1], rates[2], rates[3])
	ended := st.latency.rotate()
	s.log.Infof("[PAGECACHERT] TotalPut %d, PutMessageDistributeTime %s", ended.total(), ended.distribution())
}
