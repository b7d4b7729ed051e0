package kvconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/atomicfile"
	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// kvConfig.json, as KVConfigManager.persist writes it through
// MixAll.string2File: compact fastjson of KVConfigSerializeWrapper,
//
//	{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicA":"broker-a:4;broker-b:4"}}}
//
// written with atomicfile (the .tmp and .bak files of Java, but an atomic
// rename). Loading reads <path> leniently (fastjson's
// quirks); when it is unreadable, where Java would refuse to start, the
// .bak is tried before giving up.

// ErrCorrupt is wrapped when neither kvConfig.json nor its .bak parse.
var ErrCorrupt = errors.New("kvconfig: corrupt kvConfig.json")

// persist writes the whole store to s.path; errors are logged and returned.
func (s *Store) persist() error {
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	s.mu.RLock()
	content := s.encodeLocked()
	s.mu.RUnlock()
	if err := atomicfile.Write(s.path, content); err != nil {
		s.dirty = true
		s.log.WithError(err).Errorf("persist kvconfig Exception, %s", s.path)
		return err
	}
	s.dirty = false
	return nil
}

// Flush persists the store if the last write failed; the name server
// calls it on shutdown.
func (s *Store) Flush() error {
	s.persistMu.Lock()
	dirty := s.dirty
	s.persistMu.Unlock()
	if !dirty {
		return nil
	}
	return s.persist()
}

// load reads path, falling back to path.bak when path does not parse.
// A missing path yields nil (an empty store), as in Java.
func load(path string, log *logrus.Entry) (*table, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("kvconfig: load %s: %w", path, err)
	}
	t, perr := decodeFile(data)
	if perr == nil {
		return t, nil
	}
	log.WithError(perr).Warnf("Load KV config table exception, %s; trying %s.bak", path, path)
	bak, err := os.ReadFile(path + ".bak")
	if err == nil {
		if t, err := decodeFile(bak); err == nil {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: %s: %w", ErrCorrupt, path, perr)
}

// decodeFile parses a KVConfigSerializeWrapper the way fastjson fills
// `HashMap<String, HashMap<String, String>>`: maps created empty and
// filled in file order, JSON nulls kept as null values.
func decodeFile(data []byte) (*table, error) {
	v, err := fastjson.Parse(data)
	if err != nil {
		return nil, err
	}
	var d fastjson.Decoder
	t := newTable()
	for nsKey, nsVal := range d.Object(d.Object(v).Get("configTable")).Members() {
		m := newNamespace()
		for k, val := range d.Object(nsVal).Members() {
			if val.IsNull() {
				m.Put(d.String(k, ""), nil)
				continue
			}
			s := d.String(val, "")
			m.Put(d.String(k, ""), &s)
		}
		t.Put(d.String(nsKey, ""), m)
	}
	return t, d.Err()
}
