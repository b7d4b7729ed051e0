package storebench

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// benchTopic is the topic every run writes (both implementations).
const benchTopic = "BenchTopic"

var (
	bornHost  = message.Host{Addr: netip.MustParseAddr("127.0.0.1"), Port: 50000}
	storeHost = message.Host{Addr: netip.MustParseAddr("127.0.0.1"), Port: 10911}
)

// storeConfig is the configuration both implementations run with: Java's
// defaults (ASYNC_FLUSH, index on, consume-queue dispatch) with the
// commit-log file size and the settings of the job.
func storeConfig(j *Job) (store.Config, error) {
	cfg := store.DefaultConfig(j.Dir)
	cfg.StorePathRootDir = j.Dir
	if j.SegmentSize > 0 {
		cfg.MappedFileSizeCommitLog = j.SegmentSize
	}
	// The settings are read as lines of a broker.conf would be.
	p, err := javaprops.ParseString(strings.Join(j.Settings, "\n"))
	if err != nil {
		return cfg, fmt.Errorf("storebench: settings: %w", err)
	}
	unknown, err := javaprops.Bind(p, &cfg)
	if err == nil && len(unknown) > 0 {
		err = fmt.Errorf("storebench: unknown store settings %v", unknown)
	}
	return cfg, err
}

// producer builds messages the way a broker hands them to the store: a
// fresh properties string with TAGS, KEYS and UNIQ_KEY per message, one
// shared body.
type producer struct {
	queues int64
	body   []byte
	failed atomic.Int64
	last   atomic.Value // the last failure's status name
}

func newProducer(j *Job) *producer {
	body := make([]byte, j.Size)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	return &producer{queues: int64(max(j.Queues, 1)), body: body}
}

// message is message seq. The properties are in a fixed order (the store
// does not care; a broker passes the client's string through), built
// without fmt so the harness's own cost stays small.
func (p *producer) message(seq int64) *store.Message {
	props := message.Properties{
		{Key: message.PropTags, Value: "TagA"},
		{Key: message.PropKeys, Value: "key-" + strconv.FormatInt(seq, 10)},
		{Key: message.PropUniqKey, Value: uniqKey(seq)},
	}
	return &store.Message{
		Topic:         benchTopic,
		QueueID:       int32(seq % p.queues),
		Body:          p.body,
		Properties:    message.AppendProperties(make([]byte, 0, 96), props),
		BornTimestamp: time.Now().UnixMilli(),
		BornHost:      bornHost,
		StoreHost:     storeHost,
	}
}

// uniqKey is a 32-digit upper-case hex id like a client's UNIQ_KEY:
// 7F000001 then seq in 24 digits (StoreBench.java builds the same).
func uniqKey(seq int64) string {
	const digits = "0123456789ABCDEF"
	var b [32]byte
	copy(b[:], "7F000001")
	for i, v := 31, uint64(seq); i >= 8; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// putUntil puts messages numbered from next until limit, timing each put.
func (p *producer) putUntil(s *store.Store, next *atomic.Int64, limit int64, h *Hist) {
	for seq := next.Add(1) - 1; seq < limit; seq = next.Add(1) - 1 {
		m := p.message(seq)
		t := time.Now()
		r := s.PutMessage(m)
		h.Add(int64(time.Since(t)))
		if r.Status != store.PutOK {
			p.failed.Add(1)
			p.last.Store(r.Status.String())
		}
	}
}

// lastFailure is the status of the last failed put ("" when none failed).
func (p *producer) lastFailure() string {
	s, _ := p.last.Load().(string)
	return s
}

func openSputnik(j *Job) (*store.Store, error) {
	cfg, err := storeConfig(j)
	if err != nil {
		return nil, err
	}
	s, err := store.Open(cfg, store.Options{Master: true})
	if err != nil {
		return nil, fmt.Errorf("storebench: open %s: %w", j.Dir, err)
	}
	if err := s.Start(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("storebench: start %s: %w", j.Dir, err)
	}
	return s, nil
}

// sputnikAppend is the append run in this process: Threads goroutines put
// Messages messages in all, then it waits until dispatch has caught up.
func sputnikAppend(j *Job) (*AppendResult, error) {
	s, err := openSputnik(j)
	if err != nil {
		return nil, err
	}
	p := newProducer(j)
	hists := make([]Hist, j.Threads)
	var next atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := range j.Threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.putUntil(s, &next, j.Messages, &hists[w])
		}()
	}
	wg.Wait()
	appended := time.Since(t0)
	for s.DispatchBehind() > 0 {
		time.Sleep(time.Millisecond)
	}
	dispatched := time.Since(t0)
	var all Hist
	for i := range hists {
		all.Merge(&hists[i])
	}
	mem, memErr := selfMemory()
	r := &AppendResult{
		Impl: Sputnik, Messages: j.Messages, Failed: p.failed.Load(),
		BodyBytes: j.Messages * int64(j.Size), LogBytes: s.MaxPhyOffset(),
		AppendNanos: int64(appended), DispatchedNanos: int64(dispatched),
		Latency: all.Summary(), Memory: mem, FailedStatus: p.lastFailure(),
	}
	return r, errors.Join(memErr, s.Close())
}

// sputnikFill puts forever, printing "written OFFSET" every ProgressBytes
// of commit log, until the process is killed.
func sputnikFill(j *Job, out io.Writer) error {
	s, err := openSputnik(j)
	if err != nil {
		return err
	}
	p := newProducer(j)
	var next atomic.Int64
	for range j.Threads {
		go p.putUntil(s, &next, math.MaxInt64, new(Hist))
	}
	step := max(j.ProgressBytes, 1)
	for mark := step; ; {
		time.Sleep(20 * time.Millisecond)
		if st := p.lastFailure(); st != "" {
			return fmt.Errorf("storebench: fill put failed: %s", st)
		}
		if off := s.MaxPhyOffset(); off >= mark {
			if _, err := fmt.Fprintf(out, "written %d\n", off); err != nil {
				return err
			}
			mark = off + step
		}
	}
}

// sputnikRecover times store.Open (load and recovery) and Start (which
// dispatches whatever the consume queues lack, as Java's start() does) on
// an existing directory, then closes the store cleanly unless j.Halt.
func sputnikRecover(j *Job) (*RecoverResult, error) {
	_, err := os.Stat(filepath.Join(j.Dir, "abort"))
	r := &RecoverResult{Impl: Sputnik, LastExitOK: errors.Is(err, fs.ErrNotExist)}
	cfg, err := storeConfig(j)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	s, err := store.Open(cfg, store.Options{Master: true})
	if err != nil {
		return nil, fmt.Errorf("storebench: open %s: %w", j.Dir, err)
	}
	r.LoadNanos = int64(time.Since(t0))
	if err := s.Start(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("storebench: start %s: %w", j.Dir, err)
	}
	r.OpenNanos = int64(time.Since(t0))
	r.LogBytes = s.MaxPhyOffset()
	if r.Memory, err = selfMemory(); err != nil || j.Halt {
		return r, err // halting: the child exits without Close
	}
	t1 := time.Now()
	err = s.Close()
	r.CloseNanos = int64(time.Since(t1))
	return r, err
}
