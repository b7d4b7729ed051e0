package nsbench

import (
	"slices"
	"time"
)

// Latency summarizes request latencies.
type Latency struct {
	Count int           `json:"count"`
	Mean  time.Duration `json:"meanNanos"`
	P50   time.Duration `json:"p50Nanos"`
	P90   time.Duration `json:"p90Nanos"`
	P99   time.Duration `json:"p99Nanos"`
	P999  time.Duration `json:"p999Nanos"`
	Max   time.Duration `json:"maxNanos"`
}

// Summarize sorts ns (latencies in nanoseconds) in place and summarizes
// it; percentile p is the sample at index ⌈p·n⌉-1 (nearest rank).
func Summarize(ns []int64) Latency {
	if len(ns) == 0 {
		return Latency{}
	}
	slices.Sort(ns)
	var sum int64
	for _, v := range ns {
		sum += v
	}
	return Latency{
		Count: len(ns),
		Mean:  time.Duration(sum / int64(len(ns))),
		P50:   rank(ns, 500), P90: rank(ns, 900), P99: rank(ns, 990), P999: rank(ns, 999),
		Max: time.Duration(ns[len(ns)-1]),
	}
}

// rank returns the nearest-rank percentile perMille/1000 of sorted s.
func rank(s []int64, perMille int) time.Duration {
	i := (len(s)*perMille + 999) / 1000 // ⌈n·p⌉
	return time.Duration(s[max(i-1, 0)])
}
