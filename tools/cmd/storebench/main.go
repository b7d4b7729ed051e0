// Command storebench compares Sputnik's message store with the page cache
// and with Java 4.9.8's DefaultMessageStore in one run (issue #5): append
// throughput and latency for each message size and producer count, the
// recovery time of a large commit log after kill -9 and after a clean
// shutdown, and the memory each store process holds. The work is in
// package tools/storebench; every store run is a child process (this
// binary re-executed, or java with compat/java's StoreBench).
//
//	storebench -dir /data/bench -sizes 128,1024,65536 -threads 4,16 -json report.json
//	storebench -append=false -recovery -recovery-bytes 10GiB -java-fill
//
// The Markdown table goes to stdout (and -md), progress to stderr; all
// data under -dir is deleted as runs finish. Exit status 1 on any failure.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/sputnikmq/sputnik/tools/benchcli"
	"github.com/sputnikmq/sputnik/tools/storebench"
)

func main() {
	storebench.ChildMain()
	o := storebench.Defaults()
	var (
		sizes, threads, bytes, recBytes, segment, settings string
		jsonOut, mdOut                                     string
	)
	flag.StringVar(&o.Dir, "dir", o.Dir, "data directory (same file system for stores and page-cache baselines)")
	flag.StringVar(&sizes, "sizes", "128,1024,65536", "message body sizes, comma-separated")
	flag.StringVar(&threads, "threads", "4,16", "producer goroutines/threads, comma-separated")
	flag.StringVar(&bytes, "bytes", "2GiB", "body bytes per append run (also the baseline size)")
	flag.Int64Var(&o.MaxMessages, "max-msgs", o.MaxMessages, "cap on messages per append run")
	flag.StringVar(&segment, "segment", "1GiB", "commit-log file size (mappedFileSizeCommitLog), both stores")
	flag.IntVar(&o.Queues, "queues", o.Queues, "queues of the benchmark topic")
	flag.StringVar(&settings, "store", "", "MessageStoreConfig key=value pairs for both stores, comma-separated (e.g. transientStorePoolEnable=true)")
	flag.BoolVar(&o.Append, "append", o.Append, "run the append part (with page-cache baselines)")
	flag.BoolVar(&o.Recovery, "recovery", o.Recovery, "run the recovery part")
	flag.BoolVar(&o.Java, "java", o.Java, "run Java 4.9.8's DefaultMessageStore too")
	flag.IntVar(&o.Rounds, "rounds", o.Rounds, "repeat the append matrix this many times")
	flag.IntVar(&o.BaselineRepeats, "baseline-repeats", o.BaselineRepeats, "repeat each page-cache measurement (before and after the appends)")
	flag.BoolVar(&o.Settle, "settle", o.Settle, "write and delete -bytes through the page cache before every append run (same memory state for each)")
	flag.BoolVar(&o.JavaFill, "java-fill", o.JavaFill, "recovery: also a Java-written log")
	flag.StringVar(&recBytes, "recovery-bytes", "10GiB", "commit log written before the kill -9")
	flag.IntVar(&o.RecoverySize, "recovery-size", o.RecoverySize, "message body size of the recovery fill")
	flag.IntVar(&o.RecoveryThreads, "recovery-threads", o.RecoveryThreads, "producers of the recovery fill")
	flag.StringVar(&o.ProfileDir, "cpuprofile-dir", "", "write a CPU profile of every Sputnik append run here")
	flag.StringVar(&jsonOut, "json", "", "write the report as JSON to this file")
	flag.StringVar(&mdOut, "md", "", "write the Markdown table to this file too")
	flag.Parse()
	var err error
	o.Sizes, err = benchcli.PositiveInts(sizes)
	check(err)
	o.Threads, err = benchcli.PositiveInts(threads)
	check(err)
	o.Bytes, err = parseBytes(bytes)
	check(err)
	o.RecoveryBytes, err = parseBytes(recBytes)
	check(err)
	seg, err := parseBytes(segment)
	check(err)
	if seg <= 0 || seg > 1<<31-1 {
		check(fmt.Errorf("-segment %s: must fit a Java int", segment))
	}
	o.SegmentSize = int32(seg)
	if settings != "" {
		o.StoreSettings = strings.Split(settings, ",")
	}
	o.Progress = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	report, runErr := storebench.Run(ctx, o)
	md := storebench.Markdown(report)
	fmt.Print(md)
	if mdOut != "" {
		check(os.WriteFile(mdOut, []byte(md), 0o644))
	}
	if jsonOut != "" {
		raw, err := json.MarshalIndent(report, "", "  ")
		check(err)
		check(os.WriteFile(jsonOut, append(raw, '\n'), 0o644))
	}
	check(runErr)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "storebench:", err)
		os.Exit(1)
	}
}

// parseBytes reads 123, 64KiB, 2MiB, 1GiB, 10GB (decimal) and similar.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("bad size %q", s)
			}
			return n * u.mult, nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n, nil
}
