// Package procfs reads what the benchmark harnesses report about a
// process and the machine from /proc: Memory (VmRSS, VmHWM, threads), CPU
// time, load average, and a sampler that tracks a process's peak RSS.
package procfs

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// clockTick is USER_HZ, the unit of /proc/<pid>/stat and /proc/stat times
// (100 on every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// MemStatus is a reading of /proc/<pid>/status, in bytes.
type MemStatus struct {
	RSS     int64 // VmRSS
	HWM     int64 // VmHWM: the kernel's own peak of VmRSS
	Anon    int64 // RssAnon: the resident part that no file backs
	Threads int
}

// ReadStatus reads a process's /proc/<pid>/status.
func ReadStatus(pid int) (MemStatus, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return MemStatus{}, err
	}
	var s MemStatus
	for line := range bytes.Lines(b) {
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		f := bytes.Fields(val)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			continue
		}
		switch string(key) {
		case "VmRSS":
			s.RSS = n << 10 // kB
		case "VmHWM":
			s.HWM = n << 10
		case "RssAnon":
			s.Anon = n << 10
		case "Threads":
			s.Threads = int(n)
		}
	}
	if s.RSS == 0 && s.HWM == 0 {
		return s, fmt.Errorf("/proc/%d/status: no VmRSS", pid)
	}
	return s, nil
}

// statFields are the fields of /proc/<pid>/stat after the command name
// (which may hold spaces, so they count from the last ')'): f[0] is
// state, field 3 of proc(5), so field n is f[n-3]. At least want are
// required.
func statFields(pid, want int) ([][]byte, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no ')'", pid)
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < want {
		return nil, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	return f, nil
}

// ProcessCPU is utime+stime of pid from /proc/<pid>/stat.
func ProcessCPU(pid int) (time.Duration, error) {
	f, err := statFields(pid, 13) // utime(14) stime(15)
	if err != nil {
		return 0, err
	}
	ut, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	st, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad utime/stime", pid)
	}
	return time.Duration(ut+st) * clockTick, nil
}

// ProcessStart is when pid began, to a clock tick: its start time in
// /proc/<pid>/stat (ticks since boot) placed on the wall clock through
// /proc/uptime.
func ProcessStart(pid int) (time.Time, error) {
	now := time.Now()
	f, err := statFields(pid, 20) // starttime(22)
	if err != nil {
		return time.Time{}, err
	}
	ticks, err := strconv.ParseInt(string(f[19]), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("/proc/%d/stat: bad starttime: %w", pid, err)
	}
	up, err := uptime()
	if err != nil {
		return time.Time{}, err
	}
	return now.Add(time.Duration(ticks)*clockTick - up), nil
}

// uptime is the first number of /proc/uptime: time since boot.
func uptime() (time.Duration, error) {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, err
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0, fmt.Errorf("/proc/uptime: empty")
	}
	secs, err := strconv.ParseFloat(string(f[0]), 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/uptime: %w", err)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// MachineCPU is the busy time of all CPUs (total minus idle, iowait and steal)
// from /proc/stat's first line.
func MachineCPU() (time.Duration, error) {
	t, err := ReadMachineTimes()
	return t.Busy, err
}

// MachineTimes are /proc/stat's first line summed up: Busy is all CPUs'
// time neither idle, waiting for I/O nor stolen; Steal the time a virtual
// machine's CPUs wanted to run while the host ran something else; Total
// all of it.
type MachineTimes struct {
	Busy, Steal, Total time.Duration
}

// StealShare is the share of the CPU time between t0 and t that the host
// stole; zero when no time passed.
func (t MachineTimes) StealShare(t0 MachineTimes) float64 {
	total := t.Total - t0.Total
	if total <= 0 {
		return 0
	}
	return float64(t.Steal-t0.Steal) / float64(total)
}

// StartSteal starts measuring the host's steal; the function it returns
// gives the share of the machine's CPU time stolen since (0 when
// /proc/stat could not be read either time).
func StartSteal() func() float64 {
	t0, err0 := ReadMachineTimes()
	return func() float64 {
		t, err := ReadMachineTimes()
		if err0 != nil || err != nil {
			return 0
		}
		return t.StealShare(t0)
	}
}

// ReadMachineTimes reads MachineTimes from /proc/stat.
func ReadMachineTimes() (MachineTimes, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return MachineTimes{}, err
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[0]) != "cpu" {
		return MachineTimes{}, fmt.Errorf("/proc/stat: unexpected first line %q", line)
	}
	var busy, steal, total int64
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return MachineTimes{}, fmt.Errorf("/proc/stat: %w", err)
		}
		switch {
		case i >= 8: // guest times, already counted in user
			continue
		case i == 7:
			steal = n
		case i != 3 && i != 4: // not idle or iowait
			busy += n
		}
		total += n
	}
	return MachineTimes{Busy: time.Duration(busy) * clockTick, Steal: time.Duration(steal) * clockTick,
		Total: time.Duration(total) * clockTick}, nil
}

// LoadAvg is /proc/loadavg's three averages.
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return "?"
	}
	return string(bytes.Join(f[:3], []byte(" ")))
}

// Sampler reads a process's Memory every interval until stopped,
// keeping the highest VmRSS seen and the last VmHWM.
type Sampler struct {
	pid  int
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	peak    int64 // Lock should be held
	last    MemStatus
	samples int
}

func StartSampler(pid int, every time.Duration) *Sampler {
	s := &Sampler{pid: pid, stop: make(chan struct{}), done: make(chan struct{})}
	s.sample()
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.sample()
			}
		}
	}()
	return s
}

func (s *Sampler) sample() {
	m, err := ReadStatus(s.pid)
	if err != nil {
		return // the process is gone
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peak = max(s.peak, m.RSS)
	s.last = m
	s.samples++
}

// Memory is what the sampler saw so far, with a fresh reading.
type Memory struct {
	PeakRSS int64 `json:"peakRSSBytes"` // highest sampled VmRSS
	HWM     int64 `json:"vmHWMBytes"`   // the kernel's peak, at the last reading
	RSS     int64 `json:"rssBytes"`     // at the last reading
	Threads int   `json:"threads"`
	Samples int   `json:"samples"`
}

func (s *Sampler) Read() Memory {
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return Memory{PeakRSS: s.peak, HWM: s.last.HWM, RSS: s.last.RSS, Threads: s.last.Threads, Samples: s.samples}
}

// Close stops sampling and returns the final reading.
func (s *Sampler) Close() Memory {
	m := s.Read()
	close(s.stop)
	<-s.done
	return m
}
