// Package kvconfig is the name server's namespaced key/value configuration
// (PUT/GET/DELETE_KV_CONFIG, GET_KVLIST_BY_NAMESPACE; the ORDER_TOPIC_CONFIG
// namespace holds order-topic layouts), persisted to kvConfig.json after
// every change.
//
// Java 4.9.8 mirror: org.apache.rocketmq.namesrv.kvconfig.KVConfigManager
// and KVConfigSerializeWrapper. Namespaces and keys iterate in
// java.util.HashMap order, so the file and the KVTable bodies come out byte
// for byte as Java writes them.
package kvconfig

import (
	"sync"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// NamespaceOrderTopicConfig is the namespace of order-topic layouts
// (NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG).
const NamespaceOrderTopicConfig = "ORDER_TOPIC_CONFIG"

// table maps namespace → key → value; a nil value is Java's null (a PUT
// without value stores one: it hides the key from reads and from the file
// but keeps its place).
type table = jhash.Map[string, *jhash.Map[string, *string]]

func newTable() *table { return jhash.NewMap[string, *jhash.Map[string, *string]](jhash.String, -1) }

func newNamespace() *jhash.Map[string, *string] {
	return jhash.NewMap[string, *string](jhash.String, -1)
}

// Store is the KV configuration. Methods are safe for concurrent use.
type Store struct {
	path string
	log  *logrus.Entry

	mu    sync.RWMutex
	table *table // Lock should be held

	persistMu sync.Mutex // serialises file writes
	dirty     bool       // the last write failed; persistMu should be held
}

// Open loads path (a missing file is an empty store) and returns the store
// that persists there.
func Open(path string, log *logrus.Entry) (*Store, error) {
	if log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		log = logrus.NewEntry(l)
	}
	s := &Store{path: path, log: log, table: newTable()}
	loaded, err := load(path, log)
	if err != nil {
		return nil, err
	}
	if loaded != nil {
		s.table.PutAll(loaded)
		log.Info("load KV config table OK")
	}
	return s, nil
}

// Put stores value under namespace/key and persists the store. A nil value
// is Java's null. The error is the persist failure, which Java only logs.
func (s *Store) Put(namespace, key string, value *string) error {
	s.mu.Lock()
	ns, ok := s.table.Get(namespace)
	if !ok {
		ns = newNamespace()
		s.table.Put(namespace, ns)
		s.log.Infof("putKVConfig create new Namespace %s", namespace)
	}
	_, existed := ns.Put(key, value)
	verb := "create new"
	if existed {
		verb = "update"
	}
	s.log.Infof("putKVConfig %s config item, Namespace: %s Key: %s Value: %s", verb, namespace, key, deref(value))
	s.mu.Unlock()
	return s.persist()
}

// Delete removes namespace/key and persists the store (even when nothing
// was removed, as Java does).
func (s *Store) Delete(namespace, key string) error {
	s.mu.Lock()
	if ns, ok := s.table.Get(namespace); ok {
		v, _ := ns.Remove(key)
		s.log.Infof("deleteKVConfig delete a config item, Namespace: %s Key: %s Value: %s", namespace, key, deref(v))
	}
	s.mu.Unlock()
	return s.persist()
}

// Get returns the value of namespace/key; a null value is absent.
func (s *Store) Get(namespace, key string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns, ok := s.table.Get(namespace)
	if !ok {
		return "", false
	}
	v, _ := ns.Get(key)
	if v == nil {
		return "", false
	}
	return *v, true
}

// KVTableJSON returns the namespace as KVTable.encode writes it
// ({"table":{"k":"v",...}}), or false when the namespace does not exist.
func (s *Store) KVTableJSON(namespace string) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns, ok := s.table.Get(namespace)
	if !ok {
		return nil, false
	}
	dst := append([]byte(nil), `{"table":`...)
	dst = appendNamespace(dst, ns)
	return append(dst, '}'), true
}

// Entries returns every non-null entry, for logging (printAllPeriodically).
func (s *Store) Entries() [][3]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out [][3]string
	s.table.Range(func(namespace string, ns *jhash.Map[string, *string]) bool {
		ns.Range(func(k string, v *string) bool {
			if v != nil {
				out = append(out, [3]string{namespace, k, *v})
			}
			return true
		})
		return true
	})
	return out
}

// appendNamespace writes one namespace map as fastjson does: null values
// left out.
func appendNamespace(dst []byte, ns *jhash.Map[string, *string]) []byte {
	dst = append(dst, '{')
	first := true
	ns.Range(func(k string, v *string) bool {
		if v == nil {
			return true
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = fastjson.AppendString(dst, k, fastjson.Compact)
		dst = append(dst, ':')
		dst = fastjson.AppendString(dst, *v, fastjson.Compact)
		return true
	})
	return append(dst, '}')
}

// encodeLocked renders the whole store as KVConfigSerializeWrapper.toJson()
// (compact, as Java writes kvConfig.json).
func (s *Store) encodeLocked() []byte {
	dst := append([]byte(nil), `{"configTable":{`...)
	first := true
	s.table.Range(func(namespace string, ns *jhash.Map[string, *string]) bool {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = fastjson.AppendString(dst, namespace, fastjson.Compact)
		dst = append(dst, ':')
		dst = appendNamespace(dst, ns)
		return true
	})
	return append(dst, "}}"...)
}

func deref(v *string) string {
	if v == nil {
		return "null"
	}
	return *v
}
