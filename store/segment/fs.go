package segment

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// FS is the file-system seam of the store: everything a segment does to
// the disk goes through it, so tests can inject a failed fsync or a full
// disk (see FaultFS) without touching a real device.
type FS interface {
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	Remove(name string) error
	MkdirAll(path string, perm fs.FileMode) error
	ReadDir(name string) ([]fs.DirEntry, error)
	Rename(from, to string) error
}

// File is the part of *os.File a segment uses. Fd must be a real
// descriptor: segments map it.
type File interface {
	io.ReaderAt
	io.WriterAt
	Sync() error
	Truncate(size int64) error
	Stat() (fs.FileInfo, error)
	Fd() uintptr
	Close() error
}

// OS is the real file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	return os.OpenFile(name, flag, perm)
}

func (osFS) Remove(name string) error                     { return os.Remove(name) }
func (osFS) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error)   { return os.ReadDir(name) }
func (osFS) Rename(from, to string) error                 { return os.Rename(from, to) }

// syncDir makes a directory's entries (a create, rename or remove)
// durable.
func syncDir(fsys FS, dir string) error {
	d, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}
