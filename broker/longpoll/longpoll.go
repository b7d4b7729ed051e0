// Package longpoll holds pull requests that found no message until one
// arrives or their suspend time runs out (Java 4.9.8
// PullRequestHoldService and NotifyMessageArrivingListener).
//
// A request waits under its topic and queue. The store's dispatch reports
// every message that reaches a queue (Arrived); a waiting request whose
// offset is now behind the queue's end and whose filter accepts the
// message is woken. A periodic check (every 5 s with long polling, every
// shortPollingTimeMills without) wakes requests whose queue grew
// regardless of the filter, as Java's checkHoldRequest does.
//
// Unlike Java, which notices an expired request only at the next check (up
// to 5 s late), each request is woken by its own timer when its suspend
// time ends.
package longpoll

import (
	"sync"
	"time"
)

// Matcher is the part of a subscription's filter a wake-up consults (Java
// MessageFilter.isMatchedByConsumeQueue / isMatchedByCommitLog). tagsOK is
// false when the wake-up carries no tags code (the periodic check).
type Matcher interface {
	MatchArrival(tagsCode int64, tagsOK bool, properties []byte) bool
}

// Request is one suspended pull.
type Request struct {
	Topic   string
	QueueID int32
	// Offset is the queue offset the pull asked for (pullFromThisOffset).
	Offset  int64
	Timeout time.Duration
	Filter  Matcher // nil matches everything
	// Wake re-runs the pull, without suspending again, and answers the
	// client (Java executeRequestWhenWakeup). Called once, on a goroutine
	// of the holder's (the caller should hand it to its pull pool).
	Wake func()

	timer *time.Timer
	once  sync.Once
}

func (r *Request) wake() { r.once.Do(r.Wake) }

// Holder is the set of suspended requests.
type Holder struct {
	// MaxOffset is the store's next offset of a queue (Java
	// getMaxOffsetInQueue).
	MaxOffset func(topic string, queueID int32) int64

	mu      sync.Mutex
	waiting map[queueKey][]*Request
}

// NewHolder returns an empty holder.
func NewHolder(maxOffset func(topic string, queueID int32) int64) *Holder {
	return &Holder{MaxOffset: maxOffset, waiting: map[queueKey][]*Request{}}
}

// queueKey names a queue in the holder (Java builds "topic@queueId"; a
// struct needs no string built on every arrival).
type queueKey struct {
	topic   string
	queueID int32
}

func key(topic string, queueID int32) queueKey { return queueKey{topic, queueID} }

// Suspend parks r until a message arrives or r.Timeout passes.
func (h *Holder) Suspend(r *Request) {
	k := key(r.Topic, r.QueueID)
	h.mu.Lock()
	h.waiting[k] = append(h.waiting[k], r)
	r.timer = time.AfterFunc(r.Timeout, func() {
		if h.remove(k, r) {
			r.wake()
		}
	})
	h.mu.Unlock()
	// A message may have arrived between the pull and the suspend.
	if h.MaxOffset(r.Topic, r.QueueID) > r.Offset {
		h.Arrived(r.Topic, r.QueueID, 0, 0, false, nil)
	}
}

// remove takes r out of its list; false if it was already taken.
func (h *Holder) remove(k queueKey, r *Request) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.waiting[k]
	for i, x := range list {
		if x == r {
			list = append(list[:i], list[i+1:]...)
			if len(list) == 0 {
				delete(h.waiting, k)
			} else {
				h.waiting[k] = list
			}
			return true
		}
	}
	return false
}

// Arrived reports that a queue grew to nextOffset (0: read the store) with
// a message of tagsCode (tagsOK false: unknown) and properties; it wakes
// the requests it satisfies (Java notifyMessageArriving).
func (h *Holder) Arrived(topic string, queueID int32, nextOffset, tagsCode int64, tagsOK bool, properties []byte) {
	k := key(topic, queueID)
	h.mu.Lock()
	list := h.waiting[k]
	if len(list) == 0 {
		h.mu.Unlock()
		return
	}
	var wake, keep []*Request
	for _, r := range list {
		newest := nextOffset
		if newest <= r.Offset {
			newest = h.MaxOffset(topic, queueID)
		}
		if newest > r.Offset && (r.Filter == nil || r.Filter.MatchArrival(tagsCode, tagsOK, properties)) {
			wake = append(wake, r)
		} else {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		delete(h.waiting, k)
	} else {
		h.waiting[k] = keep
	}
	h.mu.Unlock()
	for _, r := range wake {
		r.timer.Stop()
		go r.wake()
	}
}

// Check wakes every request whose queue has grown past its offset, filter
// or not (Java checkHoldRequest, whose wake-ups carry no tags code).
func (h *Holder) Check() {
	h.mu.Lock()
	queues := make([]queueKey, 0, len(h.waiting))
	for k := range h.waiting {
		queues = append(queues, k)
	}
	h.mu.Unlock()
	for _, q := range queues {
		h.Arrived(q.topic, q.queueID, h.MaxOffset(q.topic, q.queueID), 0, false, nil)
	}
}

// Run calls Check every interval until stop is closed (Java run: 5 s with
// long polling, shortPollingTimeMills without).
func (h *Holder) Run(stop <-chan struct{}, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			h.Check()
		}
	}
}

// WakeAll answers every waiting request now (shutdown).
func (h *Holder) WakeAll() {
	h.mu.Lock()
	all := h.waiting
	h.waiting = map[queueKey][]*Request{}
	h.mu.Unlock()
	for _, list := range all {
		for _, r := range list {
			r.timer.Stop()
			r.wake()
		}
	}
}

// Len is the number of waiting requests.
func (h *Holder) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, l := range h.waiting {
		n += len(l)
	}
	return n
}
