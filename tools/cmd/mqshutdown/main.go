// Command mqshutdown stops a running name server or broker, like Apache
// RocketMQ 4.9.8's distribution/bin/mqshutdown: it finds the processes,
// sends SIGTERM (a graceful shutdown) and prints the same lines.
//
// It finds Sputnik's mqnamesrv/mqbroker binaries and, so that one script
// serves mixed fleets, Java's NamesrvStartup/BrokerStartup processes too.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// target describes what `mqshutdown <kind>` looks for.
type target struct {
	binary    string // Sputnik's binary name
	javaClass string // the Java main class the Java script greps for
}

var targets = map[string]target{
	"broker":  {binary: "mqbroker", javaClass: "org.apache.rocketmq.broker.BrokerStartup"},
	"namesrv": {binary: "mqnamesrv", javaClass: "org.apache.rocketmq.namesrv.NamesrvStartup"},
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) < 1 {
		fmt.Println("Useage: mqshutdown broker | namesrv")
		return 0
	}
	t, ok := targets[args[0]]
	if !ok {
		fmt.Println("Useage: mqshutdown broker | namesrv")
		return 0
	}
	pids := findPIDs("/proc", t)
	if len(pids) == 0 {
		fmt.Printf("No %s running.\n", t.binary)
		return 255 // the script's `exit -1`
	}
	list := joinPIDs(pids)
	fmt.Printf("The %s(%s) is running...\n", t.binary, list)
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
			fmt.Fprintf(os.Stderr, "mqshutdown: kill %d: %v\n", pid, err)
		}
	}
	fmt.Printf("Send shutdown request to %s(%s) OK\n", t.binary, list)
	return 0
}

// joinPIDs joins with newlines, as the script's unquoted $pid expands.
func joinPIDs(pids []int) string {
	s := make([]string, len(pids))
	for i, p := range pids {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, "\n")
}

// findPIDs scans procRoot for processes matching t, excluding itself.
func findPIDs(procRoot string, t target) []int {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(procRoot, e.Name(), "cmdline"))
		if err != nil || len(raw) == 0 {
			continue
		}
		if matches(strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00"), t) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// installedPrefix is the name distribution/bin's wrappers give the Go
// binary when it is installed next to them ($ROCKETMQ_HOME/bin/sputnik-mqbroker),
// since the wrapper itself holds the Java script's name.
const installedPrefix = "sputnik-"

// matches reports whether argv is Sputnik's binary (under its own or its
// installed name) or a Java process running the Java main class.
func matches(argv []string, t target) bool {
	if base := filepath.Base(argv[0]); base == t.binary || base == installedPrefix+t.binary {
		return true
	}
	if !strings.Contains(strings.ToLower(filepath.Base(argv[0])), "java") {
		return false
	}
	for _, a := range argv[1:] {
		if strings.EqualFold(a, t.javaClass) {
			return true
		}
	}
	return false
}
