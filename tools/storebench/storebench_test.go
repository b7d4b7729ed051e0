package storebench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	ChildMain() // Sputnik children re-execute the test binary
	os.Exit(m.Run())
}

// tiny is a run small enough for a unit test: 1 MiB commit-log files, a
// few thousand messages, a 4 MiB recovery log.
func tiny(t *testing.T, java bool) Options {
	return Options{
		Dir: t.TempDir(), Sizes: []int{300}, Threads: []int{3}, Bytes: 600 << 10, MaxMessages: 1500,
		SegmentSize: 1 << 20, Queues: 4, Append: true, Recovery: true, Java: java,
		Rounds: 1, BaselineRepeats: 1, RecoveryBytes: 4 << 20, RecoverySize: 500, RecoveryThreads: 2,
	}
}

// TestSputnikRun runs every part against Sputnik alone and checks the
// numbers are those of real runs: every put counted and timed, the log
// larger than the bodies, a crash recovered abnormally and then normally
// to the same end, and the data deleted.
func TestSputnikRun(t *testing.T) {
	o := tiny(t, false)
	r, err := Run(context.Background(), o)
	require.NoError(t, err)

	require.Len(t, r.Baselines, 8) // 4 methods, before and after
	for _, b := range r.Baselines {
		require.Positive(t, b.Nanos, b.Method)
		require.Equal(t, o.Bytes, b.Bytes)
	}
	require.Len(t, r.Appends, 1)
	a := r.Appends[0]
	require.Equal(t, Sputnik, a.Impl)
	require.Equal(t, int64(1500), a.Messages, "capped at MaxMessages")
	require.Zero(t, a.Failed)
	require.Equal(t, int64(1500*300), a.BodyBytes)
	require.Greater(t, a.LogBytes, a.BodyBytes+1500*100, "records carry headers and properties")
	require.Equal(t, a.Messages, a.Latency.Count, "every put timed")
	require.LessOrEqual(t, a.Latency.P50, a.Latency.P99)
	require.GreaterOrEqual(t, a.DispatchedNanos, a.AppendNanos)
	require.Positive(t, a.Memory.VmRSS)
	require.Positive(t, a.Peak.RSS, "parent sampled the child")

	require.Len(t, r.Fills, 1)
	require.GreaterOrEqual(t, r.Fills[0].LogBytes, o.RecoveryBytes)
	require.Len(t, r.Recoveries, 2)
	crash, clean := r.Recoveries[0], r.Recoveries[1]
	require.False(t, crash.LastExitOK, "kill -9 leaves the abort file")
	require.True(t, clean.LastExitOK)
	// The fill stops once the log passed RecoveryBytes; the kill may come
	// right after a segment's end-of-file blank, which recovery drops (as
	// Java does), so the recovered end may be one blank short.
	require.GreaterOrEqual(t, crash.LogBytes, o.RecoveryBytes-int64(o.RecoverySize)-1024)
	require.Equal(t, crash.LogBytes, clean.LogBytes)
	require.GreaterOrEqual(t, crash.OpenNanos, crash.LoadNanos)

	entries, err := os.ReadDir(o.Dir)
	require.NoError(t, err)
	require.Empty(t, entries, "runs delete their data")

	md := Markdown(r)
	for _, want := range []string{"### Page cache", "### Append", "### Ratios", "### Recovery", "sputnik-written, after kill -9"} {
		require.Contains(t, md, want)
	}
}

// TestJavaRun runs the append and the Sputnik-log recovery with Java 4.9.8
// too: Java's JSON lines decode into the same results, and Java recovers
// the crash state Sputnik left (restored from the snapshot) to the end
// Sputnik recovered.
func TestJavaRun(t *testing.T) {
	o := tiny(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := Run(ctx, o)
	require.NoError(t, err)
	require.Len(t, r.Appends, 2)
	j := r.find(Java, 300, 3)
	require.NotNil(t, j)
	require.Equal(t, r.Appends[0].Messages, j.Messages)
	require.Zero(t, j.Failed)
	require.Equal(t, j.Messages, j.Latency.Count)
	// Same messages, same record sizes: the logs are equally long.
	require.Equal(t, r.Appends[0].LogBytes, j.LogBytes)
	require.Positive(t, j.Memory.HeapUsed)

	require.Len(t, r.Recoveries, 4)
	byCase := map[string]RecoverResult{}
	for _, x := range r.Recoveries {
		byCase[x.Impl+"/"+x.Case] = x
	}
	sc, jc := byCase["sputnik/sputnik-written, after kill -9"], byCase["java/sputnik-written, after kill -9"]
	require.False(t, jc.LastExitOK, "Java saw the restored crash state")
	require.Equal(t, sc.LogBytes, jc.LogBytes, "both recover to the same end")
	require.True(t, byCase["java/sputnik-written, after clean"].LastExitOK)
	require.True(t, strings.Contains(Markdown(r), "| java |"))
}

func TestSnapshotRestore(t *testing.T) {
	dir, snap := t.TempDir(), filepath.Join(t.TempDir(), "snap")
	write := func(rel, s string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, rel), []byte(s), 0o644))
	}
	write("commitlog/00000000000000000000", "log")
	write("consumequeue/T/0/00000000000000000000", "cq")
	write("checkpoint", "cp1")
	write("abort", "")
	require.NoError(t, snapshot(dir, snap))
	_, err := os.Stat(filepath.Join(snap, "commitlog"))
	require.True(t, os.IsNotExist(err), "the commit log is not copied")

	write("checkpoint", "cp2")
	write("commitlog/00000000000000000000", "log2")
	write("index/20240101", "idx")
	require.NoError(t, os.Remove(filepath.Join(dir, "abort")))
	require.NoError(t, restore(snap, dir))
	for rel, want := range map[string]string{"checkpoint": "cp1", "abort": "", "consumequeue/T/0/00000000000000000000": "cq", "commitlog/00000000000000000000": "log2"} {
		got, err := os.ReadFile(filepath.Join(dir, rel))
		require.NoError(t, err, rel)
		require.Equal(t, want, string(got), rel)
	}
	_, err = os.Stat(filepath.Join(dir, "index"))
	require.True(t, os.IsNotExist(err), "files made after the snapshot are gone")
}

func TestParseWritten(t *testing.T) {
	for _, tc := range []struct {
		line string
		n    int64
		ok   bool
	}{{"written 123", 123, true}, {"written x", 0, false}, {"hello", 0, false}, {"written ", 0, false}} {
		n, ok := parseWritten(tc.line)
		require.Equal(t, tc.ok, ok, tc.line)
		require.Equal(t, tc.n, n, tc.line)
	}
}

func TestImplsAlternateByRound(t *testing.T) {
	o := &Options{Java: true}
	if got := o.impls(0); !slices.Equal(got, []string{Sputnik, Java}) {
		t.Errorf("round 0: %v", got)
	}
	if got := o.impls(1); !slices.Equal(got, []string{Java, Sputnik}) {
		t.Errorf("round 1: %v", got)
	}
	o.Java = false
	if got := o.impls(1); !slices.Equal(got, []string{Sputnik}) {
		t.Errorf("without Java: %v", got)
	}
}

// Job settings reach Sputnik's store as broker.conf lines would; an
// unknown key is an error, not a silently different benchmark.
func TestStoreConfigSettings(t *testing.T) {
	cfg, err := storeConfig(&Job{Dir: t.TempDir(), Settings: []string{"transientStorePoolEnable=true", "commitCommitLogLeastPages=8"}})
	require.NoError(t, err)
	require.True(t, cfg.TransientStorePoolEnable)
	require.EqualValues(t, 8, cfg.CommitCommitLogLeastPages)
	_, err = storeConfig(&Job{Dir: t.TempDir(), Settings: []string{"noSuchKey=1"}})
	require.ErrorContains(t, err, "noSuchKey")
}
