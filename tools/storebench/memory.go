package storebench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
)

// Memory is what a store process holds, from /proc/PID/status (bytes) and
// the runtime: Go's heap for Sputnik, the JVM heap for Java. RSS counts
// the mapped commit-log pages a process touched (RssFile); RssAnon is the
// process's own memory. The JSON names are the ones StoreBench.java prints.
type Memory struct {
	VmHWM   int64 `json:"VmHWM"`
	VmRSS   int64 `json:"VmRSS"`
	RssAnon int64 `json:"RssAnon"`
	RssFile int64 `json:"RssFile"`
	// HeapUsed is Go's HeapInuse or Java's totalMemory-freeMemory.
	HeapUsed int64 `json:"HeapUsed"`
	// HeapCommitted is Go's Sys (all memory from the OS) or Java's
	// totalMemory.
	HeapCommitted int64 `json:"HeapCommitted"`
}

// ErrStatus: a /proc/PID/status memory line is not "Key: N kB".
var ErrStatus = errors.New("storebench: bad /proc status line")

// procStatus reads the memory lines of /proc/<pid>/status ("self" for
// this process).
func procStatus(pid string) (Memory, error) {
	raw, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return Memory{}, fmt.Errorf("storebench: read status of %s: %w", pid, err)
	}
	return parseStatus(raw)
}

// parseStatus reads the VmHWM, VmRSS, RssAnon and RssFile lines (kB) of
// a /proc/PID/status text; other lines are ignored.
func parseStatus(raw []byte) (Memory, error) {
	var m Memory
	fields := map[string]*int64{"VmHWM:": &m.VmHWM, "VmRSS:": &m.VmRSS, "RssAnon:": &m.RssAnon, "RssFile:": &m.RssFile}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) < 2 {
			continue
		}
		if dst, ok := fields[string(f[0])]; ok {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil || kb < 0 || kb > math.MaxInt64/1024 {
				return Memory{}, fmt.Errorf("%w: status line %q", ErrStatus, sc.Text())
			}
			*dst = kb * 1024
		}
	}
	return m, sc.Err()
}

// selfMemory is this process's Memory with Go's heap numbers.
func selfMemory() (Memory, error) {
	m, err := procStatus("self")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.HeapUsed, m.HeapCommitted = int64(ms.HeapInuse), int64(ms.Sys)
	return m, err
}

// Peak is the highest RSS and anonymous RSS sampled from a child process.
type Peak struct {
	RSS  int64 `json:"rss"`
	Anon int64 `json:"anon"`
}

func (p *Peak) sample(pid string) {
	m, err := procStatus(pid)
	if err != nil {
		return // the process has exited
	}
	p.RSS, p.Anon = max(p.RSS, m.VmRSS), max(p.Anon, m.RssAnon)
}
