package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// cpuMask is a cpu_set_t for up to 1024 CPUs.
type cpuMask [16]uint64

func maskOf(cpus []int) cpuMask {
	var m cpuMask
	for _, c := range cpus {
		m[c/64] |= 1 << (c % 64)
	}
	return m
}

// pin sets the CPU affinity of every thread of pid; threads it creates
// later inherit it from their creator. It runs twice to catch threads
// started while the first pass ran.
func pin(pid int, cpus []int) error {
	m := maskOf(cpus)
	for range 2 {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m[0])))
			if e != 0 && !errors.Is(e, syscall.ESRCH) { // a thread that just exited
				return fmt.Errorf("sched_setaffinity(%d): %w", tid, e)
			}
		}
	}
	return nil
}

// pinPlan splits the CPUs: the generator gets CPU 0, the server the rest.
func pinPlan() (gen, server []int, err error) {
	n := runtime.NumCPU()
	if n < 2 {
		return nil, nil, errors.New("-pin needs at least 2 CPUs")
	}
	gen = []int{0}
	for c := 1; c < n; c++ {
		server = append(server, c)
	}
	return gen, server, nil
}

// pinLookups pins the server (after its start, which ran on every CPU) and
// this process for the lookup benchmark; restore gives this process every
// CPU back.
func (c *compare) pinLookups(serverPid int) (restore func(), err error) {
	if err := pin(serverPid, c.pinServer); err != nil {
		return nil, err
	}
	if err := pin(os.Getpid(), c.pinGen); err != nil {
		return nil, err
	}
	return func() {
		all := make([]int, runtime.NumCPU())
		for i := range all {
			all[i] = i
		}
		if err := pin(os.Getpid(), all); err != nil {
			fmt.Fprintln(os.Stderr, "nsbench-compare: unpin:", err)
		}
	}, nil
}
