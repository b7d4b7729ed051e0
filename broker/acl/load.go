package acl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// snapshot is one loaded configuration; it is never modified once stored.
type snapshot struct {
	globalWhite []addrPattern
	// globalWhiteAddrs are the patterns as written, per file.
	globalWhiteAddrs map[string][]string
	accounts         map[string]*account
	// ordered are the accounts in load order.
	ordered []*account
	// files are the files in load order.
	files    []string
	versions map[string]DataVersion
	// loaded is when it was loaded (Unix ms).
	loaded int64
}

func emptySnapshot() *snapshot {
	return &snapshot{
		loaded:           nowMillis(),
		accounts:         map[string]*account{},
		globalWhiteAddrs: map[string][]string{},
		versions:         map[string]DataVersion{},
	}
}

// setPaths resolves Home, the acl directory and the plain file.
func (m *Manager) setPaths(o Options) error {
	if o.Home == "" {
		return nil
	}
	home, err := filepath.Abs(o.Home)
	if err != nil {
		return fmt.Errorf("acl: home %q: %w", o.Home, err)
	}
	plain := o.PlainFile
	if plain == "" {
		plain = DefaultPlainFile
	}
	m.home = home
	m.aclDir = filepath.Join(home, "conf", "acl")
	m.plainFile = filepath.Join(home, plain)
	return nil
}

// load is PlainPermissionManager.load: it reads every file into a new
// snapshot. The stamps are taken before reading, so a change made while
// loading is seen by the next poll.
func (m *Manager) load() (*snapshot, fileStamps, error) {
	if err := m.ensurePlainFile(); err != nil {
		return nil, nil, err
	}
	stamps, err := m.stampFiles()
	if err != nil {
		return nil, nil, err
	}
	s := emptySnapshot()
	for _, f := range stamps.paths() {
		if err := m.loadFile(s, f); err != nil {
			return nil, stamps, fmt.Errorf("%s: %w", f, err)
		}
	}
	return s, stamps, nil
}

// loadFile adds one file to s. An access key already loaded from an
// earlier file is skipped with a warning.
func (m *Manager) loadFile(s *snapshot, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || isDirErr(path, err) {
		return nil
	}
	if err != nil {
		return err
	}
	c, err := parseFile(data)
	if err != nil {
		return err
	}
	s.files = append(s.files, path)
	if c.Empty {
		m.log.WithField("file", path).Warn("acl: no data in file")
		return nil
	}
	if err := addGlobalWhite(s, path, c.GlobalWhite); err != nil {
		return err
	}
	for _, a := range c.Accounts {
		acc, err := buildAccount(a, path)
		if err != nil {
			return err
		}
		if prev := s.accounts[a.AccessKey]; prev != nil {
			m.log.WithFields(map[string]any{"accessKey": a.AccessKey, "file": path, "first": prev.file}).
				Warn("acl: access key repeated in multiple acl files, keeping the first")
			continue
		}
		s.accounts[a.AccessKey] = acc
		s.ordered = append(s.ordered, acc)
	}
	s.versions[path] = resolveVersion(c.Version)
	return nil
}

func addGlobalWhite(s *snapshot, path string, addrs []string) error {
	for _, p := range addrs {
		w, err := parseAddrPattern(p)
		if err != nil {
			return err
		}
		s.globalWhite = append(s.globalWhite, w)
	}
	if len(addrs) > 0 {
		s.globalWhiteAddrs[path] = addrs
	}
	return nil
}

// resolveVersion applies DataVersion's defaults: counter 0 and the current
// time when the file has none (or no timestamp).
func resolveVersion(v *DataVersion) DataVersion {
	if v == nil {
		return DataVersion{Timestamp: nowMillis()}
	}
	out := *v
	if out.Timestamp == -1 {
		out.Timestamp = nowMillis()
	}
	return out
}

func nowMillis() int64 { return time.Now().UnixMilli() }

// isDirErr reports a read that failed because path is a directory (Java
// reads nothing from a directory named *.yml).
func isDirErr(path string, err error) bool {
	if err == nil {
		return false
	}
	fi, statErr := os.Stat(path)
	return statErr == nil && fi.IsDir()
}

// ensurePlainFile creates the plain file when missing
// (assureAclConfigFilesExist); its directory must exist.
func (m *Manager) ensurePlainFile() error {
	f, err := os.OpenFile(m.plainFile, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("creating %s: %w", m.plainFile, err)
	}
	return f.Close()
}

// fileStamp is what the watcher compares: Java looks at lastModified; the
// size is compared too.
type fileStamp struct {
	path    string
	modTime time.Time
	size    int64
}

// fileStamps are the acl files in load order.
type fileStamps []fileStamp

func (s fileStamps) paths() []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.path
	}
	return out
}

func (s fileStamps) equal(o fileStamps) bool {
	if len(s) != len(o) {
		return false
	}
	for i := range s {
		if s[i].path != o[i].path || !s[i].modTime.Equal(o[i].modTime) || s[i].size != o[i].size {
			return false
		}
	}
	return true
}

// stampFiles lists the acl files (getAllAclFiles plus the plain file) with
// their modification times. Directories are walked in name order (Java
// takes the order File.listFiles gives).
func (m *Manager) stampFiles() (fileStamps, error) {
	var out fileStamps
	listed := map[string]bool{}
	tools := filepath.Join(m.home, "conf", "tools.yml")
	err := filepath.WalkDir(m.aclDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == m.aclDir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir
			}
			return err
		}
		if p == m.aclDir || p == tools || !isYAMLName(p) {
			return nil
		}
		listed[p] = true
		out = append(out, stampOf(p))
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", m.aclDir, err)
	}
	if _, err := os.Stat(m.plainFile); err == nil && !listed[m.plainFile] {
		out = append(out, stampOf(m.plainFile))
	}
	return out, nil
}

func isYAMLName(p string) bool {
	return strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")
}

func stampOf(p string) fileStamp {
	fi, err := os.Stat(p)
	if err != nil {
		return fileStamp{path: p}
	}
	return fileStamp{path: p, modTime: fi.ModTime(), size: fi.Size()}
}
