package acl

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// DefaultPlainFile is the plain acl file relative to ROCKETMQ_HOME (Java's
// default for -Drocketmq.acl.plain.file).
const DefaultPlainFile = "conf/plain_acl.yml"

// DefaultWatchInterval is how often Run looks at the files
// (AclFileWatchService.WATCH_INTERVAL).
const DefaultWatchInterval = 5 * time.Second

// Options configure a Manager.
type Options struct {
	// Home is ROCKETMQ_HOME. Empty is Java's null fileHome: nothing is
	// loaded and only globally white addresses (there are none) pass.
	Home string
	// PlainFile is the plain acl file relative to Home; DefaultPlainFile
	// when empty.
	PlainFile string
	// Log receives reload warnings; nil discards them.
	Log *logrus.Entry
	// WatchInterval is Run's polling period; DefaultWatchInterval when 0.
	WatchInterval time.Duration
}

// Manager holds the loaded acl configuration (Java's PlainPermissionManager).
// Validate may run concurrently with reloads and updates.
type Manager struct {
	home      string // absolute; "" when there is none
	aclDir    string
	plainFile string
	log       *logrus.Entry
	interval  time.Duration

	snap atomic.Pointer[snapshot]

	// mu serialises loads and file updates; seen is what the last load
	// found on disk, for Run to notice changes.
	mu   sync.Mutex
	seen fileStamps
}

// Request is what one request asks for: Java's PlainAccessResource as
// PlainAccessValidator.parse builds it.
type Request struct {
	Code int32
	// RemoteAddr is the client's host without port: IPv4 dotted, or IPv6
	// as Java prints it (8 groups, e.g. 0:0:0:0:0:0:0:1).
	RemoteAddr string
	// HasAccessKey is whether the AccessKey ext field was present.
	HasAccessKey bool
	AccessKey    string
	Signature    string
	// Content is what the signature covers (see Content); nil when the
	// request had no ext fields.
	Content []byte
	// Resources maps each topic, or RetryTopic(group) for a group, to the
	// permission the request needs, in a Java HashMap (Need adds to it):
	// with several failing resources Java names the first its HashMap
	// iterates. nil for none.
	Resources *jhash.Map[string, Perm]
}

// Need records that r needs perm on resource (a later call for the same
// resource replaces the perm and keeps its place, as HashMap.put does).
func (r *Request) Need(resource string, perm Perm) {
	if r.Resources == nil {
		r.Resources = jhash.NewMap[string, Perm](jhash.String, -1)
	}
	r.Resources.Put(resource, perm)
}

// Open loads the acl files as PlainPermissionManager.load does: every
// *.yml/*.yaml under Home/conf/acl (recursively), then the plain file,
// which is created empty when missing. A file that cannot be read or built
// is an error naming it.
func Open(o Options) (*Manager, error) {
	m := &Manager{log: o.Log, interval: o.WatchInterval}
	if m.log == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		m.log = logrus.NewEntry(l)
	}
	if m.interval <= 0 {
		m.interval = DefaultWatchInterval
	}
	if err := m.setPaths(o); err != nil {
		return nil, err
	}
	m.snap.Store(emptySnapshot())
	if err := m.Reload(); err != nil {
		return nil, err
	}
	return m, nil
}

// Reload reads all files again and, when they all load, replaces the
// configuration; on error the old one stays.
func (m *Manager) Reload() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reloadLocked()
}

// reloadLocked loads the files. m.mu must be held.
func (m *Manager) reloadLocked() error {
	if m.home == "" {
		return nil
	}
	s, stamps, err := m.load()
	m.seen = stamps
	if err != nil {
		return fmt.Errorf("acl: %w", err)
	}
	m.snap.Store(s)
	return nil
}

// Run polls the files every WatchInterval and reloads them all when a file
// appeared, disappeared or was modified (AclFileWatchService). A failed
// reload is logged and the old configuration kept. It returns when ctx is
// done.
func (m *Manager) Run(ctx context.Context) {
	if m.home == "" {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.poll()
		}
	}
}

// poll reloads when the files on disk differ from the last load.
func (m *Manager) poll() {
	now, err := m.stampFiles()
	if err != nil {
		m.log.WithError(err).Warn("acl: cannot list the acl files")
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.equal(m.seen) {
		return
	}
	if err := m.reloadLocked(); err != nil {
		m.log.WithError(err).Warn("acl: reload failed, keeping the previous configuration")
		return
	}
	m.log.Info("acl: configuration reloaded")
}

// Validate is PlainPermissionManager.validate: nil when r may proceed,
// otherwise an *Error.
func (m *Manager) Validate(r *Request) error {
	s := m.snap.Load()
	for _, white := range s.globalWhite {
		if white(r.RemoteAddr) {
			return nil
		}
	}
	if !r.HasAccessKey {
		return refuse(frameNoAccessKey, "No accessKey is configured")
	}
	a := s.accounts[r.AccessKey]
	if a == nil {
		return refuse(frameNoAccount, "No acl config for %s", r.AccessKey)
	}
	if a.white(r.RemoteAddr) {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(Sign(r.Content, a.SecretKey)), []byte(r.Signature)) != 1 { // Java: String.equals
		return refuse(frameSignature, "Check signature failed for accessKey=%s", r.AccessKey)
	}
	if p, ok := r.resource(traceTopic); ok && p == Pub {
		return nil
	}
	return a.checkPerm(r)
}

// resource is the perm r needs on res, if any.
func (r *Request) resource(res string) (Perm, bool) {
	if r.Resources == nil {
		return 0, false
	}
	return r.Resources.Get(res)
}
