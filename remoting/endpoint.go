package remoting

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/ants/v2"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Processor serves a group of request codes with its own bounded pool.
// Java 4.9.8 mirror: the Pair<NettyRequestProcessor, ExecutorService> of
// the processor table.
type Processor struct {
	// Handler serves the requests.
	Handler Handler
	// Pool runs the handler. When Submit fails (a non-blocking pool that
	// is full, or a blocking one past its MaxBlockingTasks) the request is
	// answered with SYSTEM_BUSY. Nil means a pool of Workers goroutines
	// owned, and released, by the server or client.
	Pool *ants.Pool
	// Workers sizes the pool created when Pool is nil (DefaultWorkers).
	Workers int
	// QueueCapacity, for a pool created here, lets up to that many
	// requests wait for a worker instead of being refused at once — Java's
	// bounded executor queue. A waiting request holds its connection's
	// read loop, so the queue also pushes back on that connection, and it
	// can be answered before a worker is free (Server.CutQueued). Zero
	// means no queue: SYSTEM_BUSY as soon as all workers are busy.
	QueueCapacity int
	// RejectRequest, when set and true, answers SYSTEM_BUSY
	// "[REJECTREQUEST]…" without running the handler (Java rejectRequest()).
	RejectRequest func() bool
	// Inline runs the handler on the connection's read loop instead of a
	// pool, for handlers that are cheap and never block (the name server's
	// table lookups): no hand-off to a worker, and the reply is written by
	// the read loop itself when the connection's writer is idle. Requests
	// of one connection are then served one after the other, and a pool is
	// never full, so SYSTEM_BUSY "[OVERLOAD]…" is never answered. Pool,
	// Workers and QueueCapacity must be left zero.
	Inline bool
	// InlineWhen, for a processor with a pool, picks requests to serve as
	// Inline does: those it can tell are answered from memory without
	// blocking (the broker's pulls of messages in memory). The rest go to
	// the pool. It runs on the read loop for every request and must be
	// cheap.
	InlineWhen func(req *wire.Command) bool
}

type processor struct {
	Processor
	pool *ants.Pool
	// slots, for a pool with a queue, holds a token per running task: a
	// request takes one before it is submitted, so it waits here, where
	// it can be cut, rather than inside the pool.
	slots   chan struct{}
	waiting waiters // requests waiting for a slot
}

// table maps request codes to processors. Lookups are lock-free; a
// registration copies the map.
type table struct {
	mu    sync.Mutex // serialises registrations
	codes atomic.Pointer[map[int32]*processor]
	def   atomic.Pointer[processor]
	owned []*ants.Pool // Lock should be held
}

// newProcessor validates p and creates its pool if needed. Invalid
// processors are programming errors and panic.
func (t *table) newProcessor(p Processor) *processor {
	if p.Handler == nil {
		panic("remoting: processor without handler")
	}
	pr := &processor{Processor: p, pool: p.Pool}
	if p.Inline {
		if p.Pool != nil || p.Workers != 0 || p.QueueCapacity != 0 || p.InlineWhen != nil {
			panic("remoting: inline processor with a pool")
		}
		return pr
	}
	if pr.pool == nil {
		n := p.Workers
		if n <= 0 {
			n = DefaultWorkers
		}
		// With a queue the slots bound the running tasks; a submit then
		// waits in the pool only while a worker that released its slot
		// returns itself to the pool.
		nonblocking := p.QueueCapacity <= 0
		if !nonblocking {
			pr.slots = make(chan struct{}, n)
		}
		pool, err := ants.NewPool(n, ants.WithNonblocking(nonblocking))
		if err != nil {
			panic(fmt.Sprintf("remoting: processor pool: %v", err))
		}
		pr.pool = pool
		t.owned = append(t.owned, pool)
	}
	return pr
}

// register adds p for codes; a code registered twice panics.
func (t *table) register(codes []protocol.RequestCode, p Processor) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.codes.Load()
	m := make(map[int32]*processor, len(codes))
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	for _, c := range codes {
		if _, dup := m[int32(c)]; dup {
			panic(fmt.Sprintf("remoting: request code %d registered twice", c))
		}
	}
	pr := t.newProcessor(p)
	for _, c := range codes {
		m[int32(c)] = pr
	}
	t.codes.Store(&m)
}

func (t *table) setDefault(p Processor) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.def.Store(t.newProcessor(p))
}

// lookup returns the processor of code, the default one, or nil.
func (t *table) lookup(code int32) *processor {
	if m := t.codes.Load(); m != nil {
		if p, ok := (*m)[code]; ok {
			return p
		}
	}
	return t.def.Load()
}

// release frees the pools the table created; running tasks finish.
func (t *table) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.owned {
		p.Release()
	}
	t.owned = nil
}

// tracker counts in-flight handlers and lets Shutdown wait for zero.
type tracker struct {
	n    atomic.Int64
	mu   sync.Mutex
	zero chan struct{} // closed when n reaches 0; nil when nobody waits
}

func (t *tracker) add() { t.n.Add(1) }

func (t *tracker) done() {
	if t.n.Add(-1) != 0 {
		return
	}
	t.mu.Lock()
	if t.zero != nil && t.n.Load() == 0 {
		close(t.zero)
		t.zero = nil
	}
	t.mu.Unlock()
}

func (t *tracker) wait(ctx context.Context) error {
	t.mu.Lock()
	if t.n.Load() == 0 {
		t.mu.Unlock()
		return nil
	}
	if t.zero == nil {
		t.zero = make(chan struct{})
	}
	ch := t.zero
	t.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// endpoint is what a server or a client shares with its connections.
type endpoint struct {
	connConfig
	procs    table
	handlers tracker        // requests read and not finished
	loops    sync.WaitGroup // read and write loops
	ctx      context.Context
	cancel   context.CancelFunc
	stopping atomic.Bool // graceful shutdown: read no new requests
	onClosed func(*Conn) // after a connection's loops ended

	opaque   atomic.Int32 // next opaque of a request we send; starts at 0 like Java
	asyncSem chan struct{}
	nextID   atomic.Uint64
	lastWarn atomic.Int64 // unix nanos of the last rate-limited warning
}

func newEndpoint(cfg connConfig, asyncLimit int) *endpoint {
	cfg.fill()
	ep := &endpoint{connConfig: cfg, asyncSem: make(chan struct{}, asyncLimit)}
	ep.ctx, ep.cancel = context.WithCancel(context.Background())
	return ep
}

// nextOpaque returns a fresh request id.
func (ep *endpoint) nextOpaque() int32 { return ep.opaque.Add(1) - 1 }

// acquireAsync takes an async slot, waiting at most timeout like Java's
// semaphoreAsync.tryAcquire; it returns the time spent waiting.
func (ep *endpoint) acquireAsync(timeout time.Duration) (time.Duration, bool) {
	select {
	case ep.asyncSem <- struct{}{}:
		return 0, true
	default:
	}
	if timeout <= 0 {
		return 0, false
	}
	start := time.Now()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case ep.asyncSem <- struct{}{}:
		return time.Since(start), true
	case <-t.C:
		return timeout, false
	}
}

func (ep *endpoint) releaseAsync() { <-ep.asyncSem }

// warnLimited reports whether a rate-limited warning (once a second) may be
// logged now.
func (ep *endpoint) warnLimited() bool {
	now := time.Now().UnixNano()
	last := ep.lastWarn.Load()
	return now-last >= int64(time.Second) && ep.lastWarn.CompareAndSwap(last, now)
}
