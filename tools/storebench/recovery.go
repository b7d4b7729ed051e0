package storebench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/tools/procfs"
)

// runRecovery is the recovery part: a Sputnik-written log (and with
// JavaFill a Java-written one) killed while writing, then timed opens.
func runRecovery(ctx context.Context, o *Options, r *Report) error {
	writers := []string{Sputnik}
	if o.Java && o.JavaFill {
		writers = append(writers, Java)
	}
	for _, writer := range writers {
		if err := recoverLogOf(ctx, o, r, writer); err != nil {
			return err
		}
	}
	return nil
}

// recoverLogOf fills a log with writer, kills it, and times the opens:
// the writer's own abnormal recovery first, then (from the same crash
// state, restored from a snapshot of everything but the commit log) the
// other implementation's, then each after a clean shutdown.
func recoverLogOf(ctx context.Context, o *Options, r *Report, writer string) error {
	dir := filepath.Join(o.Dir, "recovery-"+writer)
	snap := dir + ".snapshot"
	defer os.RemoveAll(dir)
	defer os.RemoveAll(snap)
	fill, err := fillAndKill(ctx, o, writer, dir)
	if err != nil {
		return err
	}
	r.Fills = append(r.Fills, *fill)
	if err := snapshot(dir, snap); err != nil {
		return err
	}
	for _, impl := range o.recoverers(writer) {
		if err := restore(snap, dir); err != nil {
			return err
		}
		for _, phase := range []string{"kill -9", "clean"} {
			res, err := timeOpen(ctx, o, impl, dir, writer+"-written, after "+phase)
			if err != nil {
				return err
			}
			r.Recoveries = append(r.Recoveries, *res)
		}
	}
	return nil
}

// recoverers is writer first, then the other implementation when Java runs.
func (o *Options) recoverers(writer string) []string {
	if !o.Java {
		return []string{writer}
	}
	if writer == Java {
		return []string{Java, Sputnik}
	}
	return []string{Sputnik, Java}
}

// fillAndKill writes RecoveryBytes of commit log with impl in a child and
// kills it with SIGKILL while it is still writing.
func fillAndKill(ctx context.Context, o *Options, impl, dir string) (*FillResult, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	j := &Job{
		Kind: JobFill, Dir: dir, Size: o.RecoverySize, Threads: o.RecoveryThreads, Queues: o.Queues,
		SegmentSize: o.SegmentSize, ProgressBytes: min(256<<20, max(o.RecoveryBytes/8, 1)),
	}
	o.progress("fill %s: %d bytes of %d-byte messages, then kill -9", impl, o.RecoveryBytes, j.Size)
	cmd, err := command(ctx, impl, j)
	if err != nil {
		return nil, err
	}
	var written int64
	t0 := time.Now()
	var elapsed time.Duration
	_, p, err := runProcess(cmd, func(line string) bool {
		off, ok := parseWritten(line)
		if ok && off >= o.RecoveryBytes {
			written, elapsed = off, time.Since(t0)
			return true
		}
		return false
	})
	if err == nil && written == 0 {
		err = fmt.Errorf("%w: %s fill stopped before %d bytes: %s", ErrChild, impl, o.RecoveryBytes, tail(p.stderr.String(), 2000))
	}
	if err != nil {
		return nil, err
	}
	return &FillResult{Impl: impl, LogBytes: written, Nanos: int64(elapsed), Peak: p.peak}, nil
}

func parseWritten(line string) (int64, bool) {
	rest, ok := strings.CutPrefix(line, "written ")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	return n, err == nil
}

// timeOpen times one recovery of dir by impl in a fresh child that then
// shuts the store down cleanly.
func timeOpen(ctx context.Context, o *Options, impl, dir, what string) (*RecoverResult, error) {
	o.progress("recover %s: %s", impl, what)
	j := &Job{Kind: JobRecover, Dir: dir, SegmentSize: o.SegmentSize, Size: 1, Threads: 1, Queues: o.Queues}
	load := procfs.LoadAvg()
	cmd, err := command(ctx, impl, j)
	if err != nil {
		return nil, err
	}
	line, p, err := runProcess(cmd, nil)
	if err != nil {
		return nil, err
	}
	res := &RecoverResult{}
	if err := decodeResult(line, res); err != nil {
		return nil, err
	}
	res.Impl, res.Case, res.Peak, res.Load = impl, what, p.peak, load
	return res, nil
}

// snapshot copies everything in dir except the commit log (which a
// recovery changes only past its last record) to snap.
func snapshot(dir, snap string) error {
	if err := os.RemoveAll(snap); err != nil {
		return err
	}
	return copyTree(dir, snap, func(rel string) bool { return rel != "commitlog" })
}

// restore replaces everything in dir but the commit log with snap's copy.
func restore(snap, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("storebench: restore: %w", err)
	}
	for _, e := range entries {
		if e.Name() != "commitlog" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("storebench: restore: %w", err)
			}
		}
	}
	return copyTree(snap, dir, func(string) bool { return true })
}

// copyTree copies the regular files and directories under src to dst,
// skipping top-level entries keep refuses.
func copyTree(src, dst string, keep func(rel string) bool) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		top, _, _ := strings.Cut(rel, string(filepath.Separator))
		if rel != "." && !keep(top) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("storebench: copy: %w", err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("storebench: copy: %w", err)
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
