package segment

import (
	"errors"
	"io/fs"
	"sync/atomic"
	"syscall"
)

// FaultFS wraps an FS and fails chosen operations on demand: the seam the
// crash and disk-full tests use. The zero value of each switch means "no
// fault"; switches may be flipped while the store runs.
type FaultFS struct {
	FS
	// FailSync makes every Sync return ErrInjectedSync.
	FailSync atomic.Bool
	// FailAllocate makes space reservation for new segments fail with
	// ENOSPC, as a full disk does.
	FailAllocate atomic.Bool

	durable *durability // see TrackDurability
}

// ErrInjectedSync is the error a FaultFS returns from a failed Sync.
var ErrInjectedSync = errors.New("segment: injected fsync failure")

// OpenFile opens name through the wrapped FS and attaches the switches.
func (f *FaultFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	sh, err := f.track(name, file)
	if err != nil {
		_ = file.Close()
		return nil, err
	}
	return &faultFile{File: file, fs: f, sh: sh}, nil
}

type faultFile struct {
	File
	fs *FaultFS
	sh *shadow // its durable bytes, when tracked
}

func (f *faultFile) Sync() error {
	if err := f.checkSync(); err != nil {
		return err
	}
	if err := f.File.Sync(); err != nil {
		return err
	}
	if f.sh == nil {
		return nil
	}
	st, err := f.File.Stat()
	if err != nil {
		return err
	}
	return f.fs.durable.record(f.sh, f.File, 0, st.Size())
}

// checkSync is consulted by every sync of the file, whole or ranged.
func (f *faultFile) checkSync() error {
	if f.fs.FailSync.Load() {
		return ErrInjectedSync
	}
	return nil
}

// allocate is consulted by reserve before a new segment takes disk space.
func (f *faultFile) allocate() error {
	if f.fs.FailAllocate.Load() {
		return syscall.ENOSPC
	}
	return nil
}

// allocator is implemented by files that can refuse space (FaultFS).
type allocator interface{ allocate() error }

// syncChecker is implemented by files that can fail a sync (FaultFS); a
// ranged sync goes around File.Sync, so it asks first.
type syncChecker interface{ checkSync() error }
