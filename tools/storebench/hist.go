package storebench

import "math/bits"

// Hist is a log-linear latency histogram in nanoseconds: values below 32
// have a bucket each; every power of two 2^e above is split into 32
// buckets of width 2^(e-5), so a reported value is within 1/64 of the
// truth. compat/java StoreBench.Hist uses the same buckets, so Java's and
// Sputnik's percentiles carry the same rounding.
type Hist [histBuckets]int64

const (
	histSub     = 32 // sub-buckets per power of two (5 bits)
	histBuckets = histSub + (63-5)*histSub
)

func histIndex(v int64) int {
	if v < histSub {
		return int(max(v, 0))
	}
	e := 63 - bits.LeadingZeros64(uint64(v))
	return histSub + (e-5)*histSub + int(v>>(e-5)) - histSub
}

// histMid is the midpoint of bucket i.
func histMid(i int) int64 {
	if i < histSub {
		return int64(i)
	}
	e := (i-histSub)/histSub + 5
	low := int64(histSub+(i-histSub)%histSub) << (e - 5)
	return low + (int64(1)<<(e-5))>>1
}

// Add records one value.
func (h *Hist) Add(ns int64) { h[histIndex(ns)]++ }

// Merge adds o's counts to h.
func (h *Hist) Merge(o *Hist) {
	for i := range h {
		h[i] += o[i]
	}
}

// Latency is a percentile summary, in nanoseconds; the JSON names are the
// ones StoreBench.java prints.
type Latency struct {
	Count int64 `json:"count"`
	P50   int64 `json:"p50Nanos"`
	P99   int64 `json:"p99Nanos"`
	P999  int64 `json:"p999Nanos"`
	Max   int64 `json:"maxNanos"`
}

// Summary is the nearest-rank p50, p99, p99.9 and max of h.
func (h *Hist) Summary() Latency {
	var n int64
	for _, c := range h {
		n += c
	}
	return Latency{Count: n, P50: h.rank(n, 500), P99: h.rank(n, 990), P999: h.rank(n, 999), Max: h.rank(n, 1000)}
}

func (h *Hist) rank(n int64, perMille int64) int64 {
	want := max((n*perMille+999)/1000, 1)
	var seen int64
	for i, c := range h {
		seen += c
		if seen >= want {
			return histMid(i)
		}
	}
	return 0
}
