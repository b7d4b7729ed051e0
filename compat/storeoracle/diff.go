package storeoracle

import (
	"fmt"
	"reflect"
	"strings"
)

// ScheduleTopic is TopicValidator.RMQ_SYS_SCHEDULE_TOPIC: its consume-queue tagsCode is the
// delivery time (storeTimestamp + the level's delay), not a tags hash.
const ScheduleTopic = "SCHEDULE_TOPIC_XXXX"

// DiffOptions selects what two dumps may legitimately disagree on. Bodies, properties, offsets,
// queue ids, sizes, tags codes and index answers are always compared.
type DiffOptions struct {
	// IgnoreStoreTimestamps: records written at different times (two writers). Store timestamps
	// are skipped (in the record hex too), earliestMsgTime/storeTime are skipped, schedule-topic
	// tagsCode is compared as tagsCode-storeTime (the delay), and "time" lines are skipped.
	IgnoreStoreTimestamps bool
	// IgnoreCheckpoint skips the checkpoint values before opening and after closing.
	IgnoreCheckpoint bool
	// IgnoreOpenState skips abort/lock presence before opening and after closing.
	IgnoreOpenState bool
	// IgnoreFiles skips the "file" lines (preallocated files, CQ files Java keeps or drops).
	IgnoreFiles bool
}

// Diff lists human-readable differences between a and b, empty when they agree.
func Diff(a, b *Dump, opts DiffOptions) []string {
	a, b = normalize(a, opts), normalize(b, opts)
	var out []string
	add := func(s []string) { out = append(out, s...) }
	add(diffOne("checkpoint", a.Checkpoint, b.Checkpoint))
	add(diffSlice("file", a.Files, b.Files))
	add(diffOne("store", a.Store, b.Store))
	add(diffSlice("queue", a.Queues, b.Queues))
	add(diffSlice("unit", a.Units, b.Units))
	add(diffSlice("get", a.Gets, b.Gets))
	add(diffSlice("message", a.Messages, b.Messages))
	add(diffSlice("record", a.Records, b.Records))
	add(diffSlice("query", a.Queries, b.Queries))
	add(diffSlice("time", a.Times, b.Times))
	switch {
	case (a.Closed == nil) != (b.Closed == nil):
		out = append(out, fmt.Sprintf("closed: present %v vs %v", a.Closed != nil, b.Closed != nil))
	case a.Closed != nil:
		add(diffOne("closed", *a.Closed, *b.Closed))
	}
	return out
}

// normalize returns a copy with the ignored fields zeroed.
func normalize(d *Dump, o DiffOptions) *Dump {
	c := *d
	if o.IgnoreCheckpoint {
		c.Checkpoint = Checkpoint{}
	}
	if o.IgnoreFiles {
		c.Files = nil
	}
	if o.IgnoreOpenState {
		c.Store.AbortBefore, c.Store.LockBefore = false, false
	}
	if d.Closed != nil {
		cl := *d.Closed
		if o.IgnoreCheckpoint {
			cl.Checkpoint = Checkpoint{}
		}
		if o.IgnoreOpenState {
			cl.AbortAfter, cl.LockAfter = false, false
		}
		c.Closed = &cl
	}
	if !o.IgnoreStoreTimestamps {
		return &c
	}
	c.Queues = mapSlice(d.Queues, func(q Queue) Queue { q.EarliestMsgTime = 0; return q })
	c.Units = mapSlice(d.Units, func(u Unit) Unit {
		if u.Topic == ScheduleTopic {
			u.TagsCode -= u.StoreTime
		}
		u.StoreTime = 0
		return u
	})
	c.Messages = mapSlice(d.Messages, unstamp)
	c.Records = mapSlice(d.Records, func(r Record) Record {
		if r.Kind == KindMessage {
			r.Message = unstamp(r.Message)
		}
		return r
	})
	c.Times = nil
	return &c
}

func mapSlice[T any](s []T, f func(T) T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// unstamp zeroes the store timestamp, in the decoded field and in the record hex.
func unstamp(m Message) Message {
	m.StoreTimestamp = 0
	pos := StoreTimestampPos(m.SysFlag) * 2
	if pos+16 <= len(m.Hex) {
		m.Hex = m.Hex[:pos] + strings.Repeat("0", 16) + m.Hex[pos+16:]
	}
	return m
}

func diffSlice[T any](what string, a, b []T) []string {
	var out []string
	if len(a) != len(b) {
		out = append(out, fmt.Sprintf("%s: %d lines vs %d", what, len(a), len(b)))
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		out = append(out, diffOne(fmt.Sprintf("%s[%d]", what, i), a[i], b[i])...)
	}
	for i := len(b); i < len(a); i++ {
		out = append(out, fmt.Sprintf("%s[%d]: only in a: %+v", what, i, a[i]))
	}
	for i := len(a); i < len(b); i++ {
		out = append(out, fmt.Sprintf("%s[%d]: only in b: %+v", what, i, b[i]))
	}
	return out
}

// diffOne compares two structs field by field (embedded structs flattened).
func diffOne(what string, a, b any) []string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := 0; i < va.NumField(); i++ {
		f := va.Type().Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, diffOne(what, va.Field(i).Interface(), vb.Field(i).Interface())...)
			continue
		}
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if !reflect.DeepEqual(x, y) {
			out = append(out, fmt.Sprintf("%s %s: %s vs %s%s", what, f.Name, short(x), short(y), where(x, y)))
		}
	}
	return out
}

func short(v any) string {
	s := fmt.Sprintf("%v", v)
	if str, ok := v.(string); ok {
		s = fmt.Sprintf("%q", str)
	}
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// where names the first differing character of two strings.
func where(x, y any) string {
	s, ok1 := x.(string)
	t, ok2 := y.(string)
	if !ok1 || !ok2 {
		return ""
	}
	i := 0
	for i < len(s) && i < len(t) && s[i] == t[i] {
		i++
	}
	return fmt.Sprintf(" (first difference at char %d)", i)
}
