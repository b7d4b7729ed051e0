package remoting

import (
	"slices"
	"sync"
	"time"
)

// waiters are the requests now waiting for a worker of a busy pool: Java's
// executor queue. Each is the read loop of its connection, blocked until a
// worker is free (see Conn.awaitWorker) or until Cut answers it. Only
// submits that find no free worker are recorded, so an idle pool costs
// nothing.
type waiters struct {
	mu    sync.Mutex
	next  uint64
	since map[uint64]*waiter
}

// waiter is one waiting request. cut receives the remark of the
// SYSTEM_BUSY answer when Cut takes the request out of the queue.
type waiter struct {
	token uint64
	since time.Time
	cut   chan string
}

// enter records a request that begins to wait at now, unless limit
// (when positive) requests already wait.
func (w *waiters) enter(now time.Time, limit int) (*waiter, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if limit > 0 && len(w.since) >= limit {
		return nil, false
	}
	if w.since == nil {
		w.since = make(map[uint64]*waiter)
	}
	w.next++
	r := &waiter{token: w.next, since: now, cut: make(chan string, 1)}
	w.since[r.token] = r
	return r, true
}

// leave forgets r, which got a worker or gave up.
func (w *waiters) leave(r *waiter) {
	w.mu.Lock()
	delete(w.since, r.token)
	w.mu.Unlock()
}

// len is how many requests wait.
func (w *waiters) len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.since)
}

// headWait is how long the oldest waiting request has waited at now, 0
// when none waits.
func (w *waiters) headWait(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var head time.Duration
	for _, r := range w.since {
		head = max(head, now.Sub(r.since))
	}
	return head
}

// CutRemark makes the remark of a request Cut out of a queue from how
// long it waited and how many requests still wait after it was taken
// out (Java BrokerFastFailure's "period in queue" and "size of queue").
type CutRemark func(waited time.Duration, left int) string

// cut takes out, oldest first, every request that has waited maxWait or
// longer at now and hands each its remark; it returns how many it took.
func (w *waiters) cut(now time.Time, maxWait time.Duration, remark CutRemark) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	var due []*waiter
	for _, r := range w.since {
		if now.Sub(r.since) >= maxWait {
			due = append(due, r)
		}
	}
	slices.SortFunc(due, func(a, b *waiter) int { return a.since.Compare(b.since) })
	for _, r := range due {
		delete(w.since, r.token)
		r.cut <- remark(now.Sub(r.since), len(w.since))
	}
	return len(due)
}
