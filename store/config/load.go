package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sputnikmq/sputnik/compat/atomicfile"
)

// LoadResult says where Load found the content.
type LoadResult struct {
	Found   bool  // the main file or the .bak file had content
	FromBak bool  // the content came from the .bak file
	MainErr error // why the main file was passed over, if it had content
}

// Load is ConfigManager.load for the file at path: the main file is read
// and decoded; when it is missing or empty, or cannot be read or decoded,
// path+".bak" is tried the same way. With no content in either, the zero T
// comes back with found false and no error (Java's load returns true).
// A .bak file that cannot be decoded is an error (Java's load returns
// false and the broker does not start).
//
// Where this is safer than Java:
//   - A main file that fails to decode, with no .bak content to fall back
//     on, is an error here; Java logs it, starts with an empty table and
//     later overwrites the corrupt file.
//   - Decoding is all or nothing: Java's decode may have put part of the
//     bad main file into the manager before it threw, and then decodes the
//     .bak file on top of that.
func Load[T any](path string, decode func([]byte) (T, error)) (v T, found bool, err error) {
	v, res, err := LoadDetail(path, decode)
	return v, res.Found, err
}

// LoadDetail is Load that also reports whether the .bak file was used and
// why the main file was not.
func LoadDetail[T any](path string, decode func([]byte) (T, error)) (T, LoadResult, error) {
	var res LoadResult
	v, err := loadOne(path, decode)
	if err == nil {
		res.Found = true
		return v, res, nil
	}
	if !errors.Is(err, errNoContent) {
		res.MainErr = err
	}
	bv, berr := loadOne(path+backupSuffix, decode)
	switch {
	case berr == nil:
		res.Found, res.FromBak = true, true
		return bv, res, nil
	case !errors.Is(berr, errNoContent):
		return bv, res, berr
	case res.MainErr != nil:
		return bv, res, fmt.Errorf("%w (and no %s to fall back on)", res.MainErr, backupSuffix)
	}
	return bv, res, nil
}

// errNoContent: the file is missing or empty (MixAll.file2String gives
// null or "").
var errNoContent = errors.New("config: no content")

func loadOne[T any](path string, decode func([]byte) (T, error)) (T, error) {
	var zero T
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0):
		return zero, errNoContent
	case err != nil:
		return zero, fmt.Errorf("config: read %s: %w", path, err)
	}
	v, err := decode(data)
	if err != nil {
		return zero, fmt.Errorf("config: decode %s: %w", path, err)
	}
	return v, nil
}

// Save is ConfigManager.persist's MixAll.string2File: content replaces
// path and the previous content is kept in path+".bak". Safer than Java:
// the new file is fsynced and renamed into place, so path never goes
// missing or half written (see compat/atomicfile).
func Save(path string, content []byte) error {
	if err := atomicfile.Write(path, content); err != nil {
		return fmt.Errorf("config: save %s: %w", path, err)
	}
	return nil
}
