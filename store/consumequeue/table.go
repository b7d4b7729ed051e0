package consumequeue

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/segment"
)

// ScheduleTopic is the delay topic (TopicValidator.RMQ_SYS_SCHEDULE_TOPIC),
// whose queues CleanExpired never removes.
const ScheduleTopic = "SCHEDULE_TOPIC_XXXX"

// Table is every consume queue of a store (Java DefaultMessageStore's
// consumeQueueTable): topic → queueId → Queue under root (the consumequeue
// directory).
type Table struct {
	fsys segment.FS
	root string
	size int64
	opts Options

	mu      sync.RWMutex
	topics  map[string]map[int32]*Queue
	counted atomic.Int64 // topics named with opts.CountPrefix

	cleanMu      sync.Mutex
	lastCleanMin int64 // CleanConsumeQueueService.lastPhysicalMinOffset
}

// NewTable is an empty table of queues with files of fileSize bytes.
func NewTable(fsys segment.FS, root string, fileSize int64, opts Options) *Table {
	return &Table{fsys: fsys, root: root, size: fileSize, opts: opts, topics: map[string]map[int32]*Queue{}}
}

// Root is the consumequeue directory.
func (t *Table) Root() string { return t.root }

// Load opens every queue found under root (Java loadConsumeQueue): each
// directory is a topic, each entry in it whose name Integer.parseInt
// accepts a queue id. Like Java, other names are skipped and a name such
// as "007" stands for queue 7, whose files are then read from ".../7".
// A queue entry that is not a directory is skipped too (Java registers an
// empty queue for it that can never be written). A file of the wrong size
// fails the load.
func (t *Table) Load() error {
	topics, err := t.fsys.ReadDir(t.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("consumequeue: list %s: %w", t.root, err)
	}
	for _, te := range topics {
		entries, err := t.fsys.ReadDir(filepath.Join(t.root, te.Name()))
		if err != nil {
			continue // not a directory: Java's listFiles is null
		}
		if err := t.loadTopic(te.Name(), entries); err != nil {
			return err
		}
	}
	return nil
}

func (t *Table) loadTopic(topic string, entries []fs.DirEntry) error {
	for _, e := range entries {
		id, err := javalang.ParseInt(e.Name())
		if err != nil || (!e.IsDir() && e.Type()&fs.ModeSymlink == 0) {
			continue
		}
		q, err := Open(t.fsys, t.root, topic, id, t.size, t.opts)
		if err != nil {
			return err
		}
		t.mu.Lock()
		old := t.queues(topic)[id]
		t.queues(topic)[id] = q
		t.mu.Unlock()
		if old != nil {
			old.Close()
		}
	}
	return nil
}

// queues is topic's map, created if absent. t.mu must be held for writing.
func (t *Table) queues(topic string) map[int32]*Queue {
	m := t.topics[topic]
	if m == nil {
		m = map[int32]*Queue{}
		t.topics[topic] = m
		t.count(topic, 1)
	}
	return m
}

// count adds d to Counted when topic is one it counts.
func (t *Table) count(topic string, d int64) {
	if t.opts.CountPrefix != "" && strings.HasPrefix(topic, t.opts.CountPrefix) {
		t.counted.Add(d)
	}
}

// Counted is how many topics named with Options.CountPrefix have queues.
func (t *Table) Counted() int64 { return t.counted.Load() }

// Get returns a queue, or nil if the table has none for topic/queueID
// (Java getConsumeQueue).
func (t *Table) Get(topic string, queueID int32) *Queue {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.topics[topic][queueID]
}

// Find returns a queue, opening it if the table has none yet (Java
// findConsumeQueue).
func (t *Table) Find(topic string, queueID int32) (*Queue, error) {
	if q := t.Get(topic, queueID); q != nil {
		return q, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if q := t.topics[topic][queueID]; q != nil {
		return q, nil
	}
	q, err := Open(t.fsys, t.root, topic, queueID, t.size, t.opts)
	if err != nil {
		return nil, err
	}
	t.queues(topic)[queueID] = q
	return q, nil
}

// Queues is a snapshot of every queue, ordered by topic then queue id
// (Java iterates its ConcurrentHashMaps in hash order; nothing here
// depends on the order).
func (t *Table) Queues() []*Queue {
	t.mu.RLock()
	var all []*Queue
	for _, m := range t.topics {
		for _, q := range m {
			all = append(all, q)
		}
	}
	t.mu.RUnlock()
	slices.SortFunc(all, func(a, b *Queue) int {
		return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.queueID, b.queueID))
	})
	return all
}

// Topics lists the topics in the table, sorted.
func (t *Table) Topics() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	names := make([]string, 0, len(t.topics))
	for name := range t.topics {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Recover recovers every queue and returns the largest
// MaxPhysicalOffset, or -1 (Java recoverConsumeQueue).
func (t *Table) Recover() (int64, error) {
	maxPhy := int64(-1)
	for _, q := range t.Queues() {
		if err := q.Recover(); err != nil {
			return maxPhy, err
		}
		maxPhy = max(maxPhy, q.MaxPhysicalOffset())
	}
	return maxPhy, nil
}

// TruncateAfter truncates every queue to the commit log's end (Java
// DefaultMessageStore.truncateDirtyLogicFiles).
func (t *Table) TruncateAfter(phyOffset int64) error {
	var errs []error
	for _, q := range t.Queues() {
		errs = append(errs, q.TruncateAfter(phyOffset))
	}
	return errors.Join(errs...)
}

// ReputFrom is where dispatch resumes after recovery (Java start): the
// largest MaxPhysicalOffset of any queue, at least commitLogMin and 0.
func (t *Table) ReputFrom(commitLogMin int64) int64 {
	from := commitLogMin
	for _, q := range t.Queues() {
		from = max(from, q.MaxPhysicalOffset())
	}
	return max(from, 0, commitLogMin)
}

// NextOffsets rebuilds the "topic-queueId" → next queue offset table and
// corrects every queue's minimum offset to the commit log's first offset
// (Java recoverTopicQueueTable).
func (t *Table) NextOffsets(commitLogMin int64) (map[string]int64, error) {
	table := map[string]int64{}
	var errs []error
	for _, q := range t.Queues() {
		table[q.Key()] = q.MaxOffset()
		errs = append(errs, q.CorrectMinOffset(commitLogMin))
	}
	return table, errors.Join(errs...)
}

// Clean removes queue files below the commit log's first offset (Java
// CleanConsumeQueueService.deleteExpiredFiles): only when that offset has
// grown since the last call. Java sleeps deleteConsumeQueueFilesInterval
// after each queue that lost files, and then cleans the index; both are
// the caller's. It returns the number of files removed.
func (t *Table) Clean(commitLogMin int64) (int, error) {
	t.cleanMu.Lock()
	defer t.cleanMu.Unlock()
	if commitLogMin <= t.lastCleanMin {
		return 0, nil
	}
	t.lastCleanMin = commitLogMin
	total := 0
	var errs []error
	for _, q := range t.Queues() {
		n, err := q.DeleteBefore(commitLogMin)
		total += n
		errs = append(errs, err)
	}
	return total, errors.Join(errs...)
}

// CleanExpired destroys the queues whose last record lies wholly before
// the commit log's first offset, except the schedule topic's, and drops
// topics left without queues (Java cleanExpiredConsumerQueue). It returns
// the removed queues' keys, for the caller to drop from the commit log's
// topic-queue table.
func (t *Table) CleanExpired(commitLogMin int64) ([]string, error) {
	var removed []string
	var errs []error
	for _, q := range t.Queues() {
		if q.topic == ScheduleTopic {
			continue
		}
		if last := q.LastPhysicalOffset(); last == -1 || last >= commitLogMin {
			continue
		}
		if ok, err := t.destroy(q); ok {
			removed = append(removed, q.Key())
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}

// destroy takes q out of the table, and its topic when it was the last,
// and destroys it; false when q had already left the table. The table
// stays locked until q's files and directory are gone: dispatch finding
// no queue for a message of q's topic (sent before a delete, dispatched
// after it) opens a new one, which must neither load q's files nor
// create its own while q's are being removed.
func (t *Table) destroy(q *Queue) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.topics[q.topic]
	if m[q.queueID] != q {
		return false, nil
	}
	delete(m, q.queueID)
	if len(m) == 0 {
		delete(t.topics, q.topic)
		t.count(q.topic, -1)
	}
	return true, q.Destroy()
}

// DeleteTopic destroys every queue of topic and forgets the topic (Java
// cleanUnusedTopic / deleteTopics for one topic). It returns the removed
// queues' keys. The table stays locked meanwhile, as in destroy.
func (t *Table) DeleteTopic(topic string) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.topics[topic]
	delete(t.topics, topic)
	if ok {
		t.count(topic, -1)
	}
	var keys []string
	var errs []error
	for _, q := range m {
		keys = append(keys, q.Key())
		errs = append(errs, q.Destroy())
	}
	sort.Strings(keys)
	return keys, errors.Join(errs...)
}

// Flush flushes every queue one step (Java FlushConsumeQueueService.doFlush
// with retryTimes 1; leastPages 0 for a thorough flush).
func (t *Table) Flush(leastPages int) error {
	var errs []error
	for _, q := range t.Queues() {
		_, err := q.Flush(leastPages)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// FlushAll flushes everything written.
func (t *Table) FlushAll() error {
	var errs []error
	for _, q := range t.Queues() {
		errs = append(errs, q.FlushAll())
	}
	return errors.Join(errs...)
}

// Close closes every queue.
func (t *Table) Close() {
	for _, q := range t.Queues() {
		q.Close()
	}
}
