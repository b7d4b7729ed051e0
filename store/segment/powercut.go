package segment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
)

// A power cut keeps only what reached the disk: the bytes a sync made
// durable, plus whatever dirty pages the kernel happened to write back on
// its own. A FaultFS that tracks durability (TrackDurability) keeps, for
// every regular file opened through it, a shadow of the bytes its syncs
// made durable, and PowerCut writes a copy of a store directory as a cut
// at that moment could leave it. Creates, renames, removes and truncates
// count as durable at once (the store syncs the directory after each).

// shadow is the durable content of one file: its bytes as of the syncs so
// far; past len(data) the file reads as zeros.
type shadow struct{ data []byte }

type durability struct {
	mu     sync.Mutex
	byPath map[string]*shadow
}

// TrackDurability starts keeping shadows; call it before the FaultFS is
// used. A file already on disk when first opened counts as durable.
func (f *FaultFS) TrackDurability() {
	f.durable = &durability{byPath: map[string]*shadow{}}
}

// track finds or starts name's shadow; nil for directories or when
// durability is not tracked.
func (f *FaultFS) track(name string, file File) (*shadow, error) {
	d := f.durable
	if d == nil {
		return nil, nil
	}
	st, err := file.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if sh := d.byPath[name]; sh != nil {
		return sh, nil
	}
	b := make([]byte, st.Size())
	if _, err := file.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	sh := &shadow{data: bytes.Clone(bytes.TrimRight(b, "\x00"))} // mostly unwritten
	d.byPath[name] = sh
	return sh, nil
}

// Remove removes name and forgets its shadow.
func (f *FaultFS) Remove(name string) error {
	if d := f.durable; d != nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(d.byPath, name)
	}
	return f.FS.Remove(name)
}

// Rename renames from to to and moves its shadow along.
func (f *FaultFS) Rename(from, to string) error {
	if d := f.durable; d != nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		if err := f.FS.Rename(from, to); err != nil {
			return err
		}
		if sh := d.byPath[from]; sh != nil {
			d.byPath[to] = sh
		}
		delete(d.byPath, from)
		return nil
	}
	return f.FS.Rename(from, to)
}

// record copies bytes [from, to) of file, just made durable, into sh.
func (d *durability) record(sh *shadow, file File, from, to int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if int64(len(sh.data)) < to {
		sh.data = append(sh.data, make([]byte, to-int64(len(sh.data)))...)
	}
	_, err := file.ReadAt(sh.data[from:to], from)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// truncate shortens sh with its file.
func (d *durability) truncate(sh *shadow, size int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if int64(len(sh.data)) > size {
		sh.data = sh.data[:size]
	}
}

func (f *faultFile) Truncate(size int64) error {
	if err := f.File.Truncate(size); err != nil {
		return err
	}
	if f.sh != nil {
		f.fs.durable.truncate(f.sh, size)
	}
	return nil
}

// synced is told by a segment that a ranged sync made [from, to) durable.
func (f *faultFile) synced(from, to int64) error {
	if f.sh == nil {
		return nil
	}
	return f.fs.durable.record(f.sh, f.File, from, to)
}

// syncRecorder is implemented by files that keep a shadow of their
// durable bytes (FaultFS with TrackDurability).
type syncRecorder interface{ synced(from, to int64) error }

// PowerCut writes to dst the directory tree root as a power cut now would
// leave it. Files written through f keep their durable bytes, zeros past
// them; with rng set, each page that differs from what the process last
// wrote takes the written page instead with even odds, as the kernel's
// own writeback may have done. Files never opened through f are copied as
// they are. Renames and removes through f wait until the copy is done.
func (f *FaultFS) PowerCut(root, dst string, rng *rand.Rand) error {
	d := f.durable
	if d == nil {
		return errors.New("segment: PowerCut needs TrackDurability")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		cur, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if sh := d.byPath[path]; sh != nil {
			cur = cutPages(cur, sh.data, rng)
		}
		if err := os.WriteFile(out, cur, 0o644); err != nil {
			return fmt.Errorf("segment: power cut %s: %w", rel, err)
		}
		return nil
	})
}

// cutPages turns cur, a file's bytes as last written, into what a power
// cut leaves: the durable bytes, or per page the written ones when rng
// says so. It reuses cur.
func cutPages(cur, durable []byte, rng *rand.Rand) []byte {
	for lo := 0; lo < len(cur); lo += PageSize {
		hi := min(lo+PageSize, len(cur))
		if rng != nil && rng.IntN(2) == 0 {
			continue
		}
		page := cur[lo:hi]
		n := 0
		if lo < len(durable) {
			n = copy(page, durable[lo:min(hi, len(durable))])
		}
		clear(page[n:])
	}
	return cur
}
