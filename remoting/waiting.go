package remoting

import (
	"sync"
	"time"
)

// waiters records when the requests now waiting for a busy pool's worker
// began to wait, for the age of the oldest: the head of Java's executor
// queue (BrokerController.headSlowTimeMills). Only submits that find no
// free worker are recorded, so an idle pool costs nothing.
type waiters struct {
	mu    sync.Mutex
	next  uint64
	since map[uint64]time.Time
}

func (w *waiters) enter(now time.Time) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since == nil {
		w.since = make(map[uint64]time.Time)
	}
	w.next++
	w.since[w.next] = now
	return w.next
}

func (w *waiters) leave(token uint64) {
	w.mu.Lock()
	delete(w.since, token)
	w.mu.Unlock()
}

// headWait is how long the oldest waiting request has waited at now, 0
// when none waits.
func (w *waiters) headWait(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var head time.Duration
	for _, t := range w.since {
		head = max(head, now.Sub(t))
	}
	return head
}
