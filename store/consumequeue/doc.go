// Package consumequeue is the per-topic, per-queue index into the commit
// log (Java 4.9.8 ConsumeQueue, ConsumeQueueExt and the consume-queue parts
// of DefaultMessageStore).
//
// A Queue is a run of fixed-size segment files under
// consumequeue/<topic>/<queueId>/, each named by the 20-digit byte offset
// of its first unit. Logical offset N is the 20-byte unit at byte N×20 of
// the queue (layout.go). A Table holds every queue of a store, created
// lazily or loaded from the directory tree. The optional extension files
// (consumequeue_ext/, ext.go) hold filter bit maps; a unit's tagsCode then
// carries an ext address instead of the tag hash.
//
// Concurrency follows Java: one goroutine dispatches into a queue (Put,
// TruncateAfter, Recover), any number read (Get, Read, MinOffset,
// MaxOffset); cleaning (DeleteBefore, CorrectMinOffset) may run alongside
// readers. A Read view holds a reference on its segment, so a deleted file
// stays mapped until the view is released.
package consumequeue

import "errors"

// Errors of this package. Corruption is always ErrCorrupt, distinct from
// I/O errors (which come wrapped from store/segment or the file system).
var (
	// ErrCorrupt marks bytes that cannot be what Java wrote: a unit or ext
	// unit that runs past its file, or ext sizes that do not add up.
	ErrCorrupt = errors.New("consumequeue: corrupt data")
	// ErrNotHeld: the logical offset is below the queue's minimum or past
	// what is written (Java getIndexBuffer returns null).
	ErrNotHeld = errors.New("consumequeue: offset not held")
	// ErrExtUnitTooLarge: an ext unit is larger than Java's
	// CqExtUnit.MAX_EXT_UNIT_SIZE (32767 bytes) or than an ext file can
	// hold.
	ErrExtUnitTooLarge = errors.New("consumequeue: ext unit too large")
	// ErrExtFull: the ext files would pass Java's MAX_REAL_OFFSET.
	ErrExtFull = errors.New("consumequeue: ext address space exhausted")
	// ErrNoExt: an ext operation on a queue without ext files.
	ErrNoExt = errors.New("consumequeue: ext not enabled")
)
