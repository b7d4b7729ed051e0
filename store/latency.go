package store

import (
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// Put and get durations as Java 4.9.8's StoreStatsService keeps them, in
// whole milliseconds of the wall clock read before and after (so a 0.3 ms
// put that crosses a millisecond tick counts 1):
//
//   - the longest put and the longest get since start
//     (putMessageEntireTimeMax, getMessageEntireTimeMax);
//   - puts per duration range (putMessageDistributeTime) and per fine bucket
//     (for putLatency99 and putLatency999), counted per minute: the figures
//     reported are those of the last whole minute.
//
// A put is timed from after its checks to its answer, the flush included
// when it waits for one (Java asyncPutMessage's future); a get over the
// whole read.

// distributeRanges is PUT_MESSAGE_ENTIRE_TIME_MAX_DESC.
var distributeRanges = [...]string{
	"[<=0ms]", "[0~10ms]", "[10~50ms]", "[50~100ms]", "[100~200ms]", "[200~500ms]", "[500ms~1s]",
	"[1~2s]", "[2~3s]", "[3~4s]", "[4~5s]", "[5~10s]", "[10s~]",
}

// distributeBelow[i] is the exclusive upper end of range i+1; range 0 is
// d <= 0, the last is everything from 10 s on (setPutMessageEntireTimeMax).
var distributeBelow = [...]int64{10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10000}

// pxBucketCount is the number of PUT_MESSAGE_ENTIRE_TIME_BUCKETS buckets:
// 20 of 1 ms, 15 of 2, 10 of 5, 10 of 10, 6 of 50, 5 of 100, 9 of 1000,
// and one up to Long.MAX_VALUE.
const pxBucketCount = 20 + 15 + 10 + 10 + 6 + 5 + 9 + 1

// pxBounds are the buckets' inclusive upper ends: 1, 2, … 20, 22, … 50,
// 55, … 100, 110, … 200, 250, … 500, 600, … 1000, 2000, … 10000, MaxInt64.
// A duration counts in the first bucket whose end is at least it
// (TreeMap.ceilingEntry).
var pxBounds = func() [pxBucketCount]int64 {
	var b [pxBucketCount]int64
	i, end := 0, int64(0)
	for _, step := range []struct{ width, times int64 }{{1, 20}, {2, 15}, {5, 10}, {10, 10}, {50, 6}, {100, 5}, {1000, 9}} {
		for range step.times {
			end += step.width
			b[i] = end
			i++
		}
	}
	b[i] = 1<<63 - 1
	return b
}()

// minuteCounts are one minute's put counts.
type minuteCounts struct {
	ranges  [len(distributeRanges)]atomic.Int64
	buckets [pxBucketCount]atomic.Int64
}

func (c *minuteCounts) add(ms int64) {
	c.ranges[distributeRange(ms)].Add(1)
	c.buckets[sort.Search(pxBucketCount, func(i int) bool { return pxBounds[i] >= ms })].Add(1)
}

func distributeRange(ms int64) int {
	if ms <= 0 {
		return 0
	}
	return 1 + sort.Search(len(distributeBelow), func(i int) bool { return ms < distributeBelow[i] })
}

// latencyStats times puts and gets; the zero value is ready.
type latencyStats struct {
	putMax, getMax atomic.Int64
	cur            atomic.Pointer[minuteCounts] // the minute being counted
	last           atomic.Pointer[minuteCounts] // the last whole minute; nil in the first
}

func (l *latencyStats) put(ms int64) {
	l.counting().add(ms)
	raiseTo(&l.putMax, ms)
}

func (l *latencyStats) counting() *minuteCounts {
	if c := l.cur.Load(); c != nil {
		return c
	}
	l.cur.CompareAndSwap(nil, new(minuteCounts))
	return l.cur.Load()
}

func (l *latencyStats) get(ms int64) { raiseTo(&l.getMax, ms) }

func raiseTo(m *atomic.Int64, v int64) {
	for {
		old := m.Load()
		if v <= old || m.CompareAndSwap(old, v) {
			return
		}
	}
}

// rotate starts a new minute and returns the one that ended (Java
// printTps' resetPutMessageDistributeTime and resetPutMessageTimeBuckets).
func (l *latencyStats) rotate() *minuteCounts {
	ended := l.cur.Swap(new(minuteCounts))
	if ended == nil {
		ended = new(minuteCounts)
	}
	l.last.Store(ended)
	return ended
}

// distribution is putMessageDistributeTimeToString: "[<=0ms]:n [0~10ms]:n
// … " with a trailing space, "null" (String.valueOf of null) before the
// first minute has ended.
func (c *minuteCounts) distribution() string {
	if c == nil {
		return "null"
	}
	var b strings.Builder
	for i, name := range distributeRanges {
		b.WriteString(name)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(c.ranges[i].Load(), 10))
		b.WriteByte(' ')
	}
	return b.String()
}

// total is the number of puts counted.
func (c *minuteCounts) total() int64 {
	var n int64
	for i := range c.ranges {
		n += c.ranges[i].Load()
	}
	return n
}

// percentile is findPutMessageEntireTimePX: the duration below which a
// fraction px of the minute's puts fall, interpolated linearly inside the
// bucket that holds the (long)(total·px)-th put; 0 with nothing counted or
// before the first minute has ended.
func (c *minuteCounts) percentile(px float64) float64 {
	if c == nil {
		return 0
	}
	var counts [pxBucketCount]int64
	var total int64
	for i := range c.buckets {
		counts[i] = c.buckets[i].Load()
		total += counts[i]
	}
	index := int64(float64(total) * px)
	var passed int64
	for i, n := range counts {
		if index > passed+n {
			passed += n
			continue
		}
		if n == 0 {
			if i == 0 {
				return 0
			}
			return float64(pxBounds[i-1])
		}
		rel := index - passed
		if i == 0 {
			return float64(pxBounds[0]*rel) / float64(n)
		}
		return float64(pxBounds[i-1]) + float64((pxBounds[i]-pxBounds[i-1])*rel)/float64(n)
	}
	return 0
}
