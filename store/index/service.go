package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/segment"
)

// Checkpoint is the part of the store checkpoint the index uses
// (commitlog.Checkpoint): the store time of the newest entry of the
// newest index file known to be durable.
type Checkpoint interface {
	Index() int64
	SetIndex(ms int64)
	Flush() error
}

// Config is what the index needs of MessageStoreConfig.
type Config struct {
	Dir             string     // <storePathRootDir>/index
	HashSlots       int32      // maxHashSlotNum; 0 means DefaultHashSlots
	Entries         int32      // maxIndexNum; 0 means DefaultEntries
	MaxMsgsNumBatch int        // maxMsgsNumBatch; 0 means DefaultMaxMsgsNumBatch
	FS              segment.FS // nil: the real file system
	// Checkpoint receives the end time of every file that fills up once
	// it is flushed; on load after an abnormal exit its Index() decides
	// which files survive. Nil: no checkpoint (read as 0).
	Checkpoint Checkpoint
	// Now is the clock file names are made from (ms); nil means wall time.
	Now func() int64
	// Location is the time zone of file names; nil means time.Local.
	Location *time.Location
	Log      *logrus.Entry
}

func (c *Config) withDefaults() Config {
	d := *c
	if d.HashSlots == 0 {
		d.HashSlots = DefaultHashSlots
	}
	if d.Entries == 0 {
		d.Entries = DefaultEntries
	}
	if d.MaxMsgsNumBatch == 0 {
		d.MaxMsgsNumBatch = DefaultMaxMsgsNumBatch
	}
	if d.FS == nil {
		d.FS = segment.OS
	}
	if d.Now == nil {
		d.Now = func() int64 { return time.Now().UnixMilli() }
	}
	if d.Location == nil {
		d.Location = time.Local
	}
	if d.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		d.Log = logrus.NewEntry(l)
	}
	return d
}

// Service is the index directory (Java IndexService). Build is meant for
// one dispatching goroutine; Query, DeleteBefore and Flush may run
// alongside it.
type Service struct {
	cfg Config

	mu     sync.RWMutex // guards files and closed (Java readWriteLock)
	files  []*File      // oldest first
	closed bool

	flushes sync.WaitGroup // flushes of files that filled up
	cpMu    sync.Mutex     // orders checkpoint updates of those flushes
}

// Open loads the index files in cfg.Dir in name order (IndexService.load).
// After an abnormal exit (lastExitOK false), a file whose end time is
// after the checkpoint's index time is destroyed. Names that are not a
// Java long are ignored, as Java's MappedFile refuses them; anything else
// that does not open is an error, as Java's load then fails the store.
func Open(cfg Config, lastExitOK bool) (*Service, error) {
	c := cfg.withDefaults()
	if !validSize(c.HashSlots, c.Entries) {
		return nil, fmt.Errorf("%w: %d slots, %d entries", ErrConfig, c.HashSlots, c.Entries)
	}
	s := &Service{cfg: c}
	names, err := s.fileNames()
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if err := s.load(name, lastExitOK); err != nil {
			s.closeFiles()
			return nil, err
		}
	}
	return s, nil
}

// fileNames lists the directory sorted as Java's Arrays.sort(File[])
// sorts paths; a missing directory is empty.
func (s *Service) fileNames() ([]string, error) {
	ents, err := s.cfg.FS.ReadDir(s.cfg.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: list %s: %w", s.cfg.Dir, err)
	}
	var names []string
	for _, e := range ents {
		if _, err := javalang.ParseLong(e.Name()); err != nil {
			s.cfg.Log.WithField("file", e.Name()).Warn("index: ignoring a file not named by a number")
			continue
		}
		if e.IsDir() {
			return nil, fmt.Errorf("index: %w: %s is a directory", ErrCorrupt, filepath.Join(s.cfg.Dir, e.Name()))
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names, nil
}

func (s *Service) load(name string, lastExitOK bool) error {
	path := filepath.Join(s.cfg.Dir, name)
	f, err := OpenFile(s.cfg.FS, path, s.cfg.HashSlots, s.cfg.Entries)
	if err != nil {
		return err
	}
	if !lastExitOK && f.Header().EndTimestamp > s.checkpointIndex() {
		s.cfg.Log.WithField("file", path).Info("index: destroying a file newer than the checkpoint")
		return f.Destroy()
	}
	s.files = append(s.files, f)
	return nil
}

func (s *Service) checkpointIndex() int64 {
	if s.cfg.Checkpoint == nil {
		return 0
	}
	return s.cfg.Checkpoint.Index()
}

// Files returns the loaded files, oldest first.
func (s *Service) Files() []*File {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.files)
}

// Build indexes the message at phyOffset (IndexService.buildIndex): under
// "topic#uniqKey" when uniqKey is not empty (Java: not null; the
// properties decoder never yields an empty value), then under
// "topic#token" for every non-empty token of keys split on spaces,
// duplicates included. A rolled-back transaction (sysFlag) is not
// indexed, nor a message below the newest file's end offset (already
// indexed: recovery re-dispatches). A full file is followed by a new one.
// Build keeps none of its strings past the call: the store's dispatch
// passes keys that view the record's bytes.
func (s *Service) Build(topic, uniqKey, keys string, phyOffset, storeTimestamp int64, sysFlag int32) error {
	f, err := s.writable()
	if err != nil {
		return err
	}
	if phyOffset < f.Header().EndPhyOffset || sysFlag&transactionMask == transactionRollback {
		return nil
	}
	prefix := topicPrefixOf(topic)
	if uniqKey != "" {
		if f, err = s.put(f, topic, prefix, uniqKey, phyOffset, storeTimestamp); err != nil {
			return err
		}
	}
	for key := range strings.SplitSeq(keys, keySeparator) {
		if key == "" {
			continue
		}
		if f, err = s.put(f, topic, prefix, key, phyOffset, storeTimestamp); err != nil {
			return err
		}
	}
	return nil
}

// MessageSysFlag transaction bits (TRANSACTION_ROLLBACK_TYPE = 3 << 2 is
// also the mask getTransactionValue applies).
const (
	transactionMask     = 0x3 << 2
	transactionRollback = 0x3 << 2
)

// put adds key to f, or to a new file when f is full (IndexService.putKey)
// and returns the file that took it. prefix is topic's.
func (s *Service) put(f *File, topic string, prefix topicPrefix, key string, phyOffset, storeTimestamp int64) (*File, error) {
	hash := prefix.keyHash(key)
	for range 2 {
		ok, err := f.put(hash, phyOffset, storeTimestamp)
		if err != nil {
			return f, fmt.Errorf("index: key %q offset %d: %w", BuildKey(topic, key), phyOffset, err)
		}
		if ok {
			return f, nil
		}
		s.cfg.Log.WithField("file", f.Path()).Info("index: file full, starting another")
		if f, err = s.writable(); err != nil {
			return f, err
		}
	}
	return f, fmt.Errorf("index: key %q offset %d: a new file is full", BuildKey(topic, key), phyOffset)
}

// writable is the newest file, or a new one when there is none or it is
// full (IndexService.getAndCreateLastIndexFile). A full file is flushed
// in the background and its end time goes to the checkpoint.
func (s *Service) writable() (*File, error) {
	s.mu.RLock()
	closed, last := s.closed, s.lastLocked()
	s.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	if last != nil && !last.Full() {
		return last, nil
	}
	var h Header
	if last != nil {
		h = last.Header()
	}
	f, err := s.create(h.EndPhyOffset, h.EndTimestamp)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
	if last != nil {
		s.flushes.Add(1)
		go func() {
			defer s.flushes.Done()
			if err := s.flushFile(last); err != nil {
				s.cfg.Log.WithError(err).WithField("file", last.Path()).Warn("index: flushing a full file")
			}
		}()
	}
	return f, nil
}

func (s *Service) lastLocked() *File {
	if len(s.files) == 0 {
		return nil
	}
	return s.files[len(s.files)-1]
}

// maxNameTries bounds the search for a free file name.
const maxNameTries = 1000

// create makes a file named by the clock; a name taken already (two files
// within a millisecond) moves on by a millisecond.
func (s *Service) create(endPhyOffset, endTimestamp int64) (*File, error) {
	now := s.cfg.Now()
	for i := range int64(maxNameTries) {
		path := filepath.Join(s.cfg.Dir, FileName(now+i, s.cfg.Location))
		if taken, err := s.exists(path); err != nil {
			return nil, err
		} else if taken {
			continue
		}
		f, err := CreateFile(s.cfg.FS, path, s.cfg.HashSlots, s.cfg.Entries, endPhyOffset, endTimestamp)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("index: no free file name in %s after %d tries", s.cfg.Dir, maxNameTries)
}

// exists reports whether path is taken (segment creation may replace an
// existing file, so it is asked first).
func (s *Service) exists(path string) (bool, error) {
	f, err := s.cfg.FS.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	return true, f.Close()
}

// FileName is the name of an index file made at ms in loc
// (UtilAll.timeMillisToHumanString: yyyyMMddHHmmssSSS).
func FileName(ms int64, loc *time.Location) string {
	t := time.UnixMilli(ms).In(loc)
	return fmt.Sprintf("%04d%02d%02d%02d%02d%02d%03d", t.Year(), int(t.Month()), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/int(time.Millisecond))
}

// flushFile flushes f and, when it is full, records its end time in the
// checkpoint (IndexService.flush).
func (s *Service) flushFile(f *File) error {
	var ts int64
	if f.Full() {
		ts = f.Header().EndTimestamp
	}
	if err := f.Flush(); err != nil {
		return err
	}
	if ts > 0 && s.cfg.Checkpoint != nil {
		// Flushes of full files run in the background and may finish out of
		// order; the checkpoint only moves forward (Java's can move back).
		s.cpMu.Lock()
		if ts > s.cfg.Checkpoint.Index() {
			s.cfg.Checkpoint.SetIndex(ts)
		}
		s.cpMu.Unlock()
		if err := s.cfg.Checkpoint.Flush(); err != nil {
			return fmt.Errorf("index: checkpoint: %w", err)
		}
	}
	return nil
}
