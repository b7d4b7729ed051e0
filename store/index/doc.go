// Package index is the message key index of Apache RocketMQ 4.9.8's store
// (Java IndexFile, IndexHeader, IndexService and the index parts of
// DefaultMessageStore): a hash table on disk from "topic#key" to the
// commit-log offsets of the messages carrying that key, used by the
// QUERY_MESSAGE and VIEW_MESSAGE_BY_KEY paths of mqadmin and the clients.
//
// A File is one fixed-size index file (layout in layout.go) kept in a
// segment.Segment and written in place through its mapping, as Java writes
// through its MappedByteBuffer: every Put updates the entry, its hash slot
// and the header at once, so the mapping is always a complete file and a
// clean process exit needs no flush. The Service owns the index
// directory: it loads the files in name order (destroying, after an
// abnormal exit, those newer than the checkpoint's index timestamp),
// appends to the newest file and starts a new one when it is full, answers
// key queries newest file first, and deletes files wholly below the
// commit log's minimum offset.
//
// Files are named by their creation time in local time
// (UtilAll.timeMillisToHumanString, yyyyMMddHHmmssSSS).
//
// Where this package differs from Java on purpose:
//   - A file whose size differs from the configured one fails to load
//     (ErrCorrupt); Java maps it anyway, growing a short file with zeros.
//   - A chain walk takes at most indexCount steps and stops at an entry
//     that lies outside the file: Java loops for ever on a corrupt chain
//     that cycles without a match, and stops with a caught exception when
//     an entry is out of bounds. On every file Java itself writes, the
//     answers are the same.
//   - Two files created in the same millisecond: Java would map the
//     existing file again and overwrite it; the Service moves the new
//     name on by a millisecond instead.
//   - A failed file creation is an error returned to the caller at once;
//     Java retries three times a second apart, then flags the index as
//     broken (makeIndexFileError), which is the caller's business here.
package index

import "errors"

// Errors of this package.
var (
	// ErrConfig: the slot and entry counts do not make a valid file (both
	// must be positive, at least two entries, and the file at most
	// Integer.MAX_VALUE bytes, as Java sizes it with an int).
	ErrConfig = errors.New("index: invalid slot or entry count")
	// ErrCorrupt: an index file's content cannot be what Java wrote (its
	// size differs from the configured one, or the directory holds
	// something that is not a file).
	ErrCorrupt = errors.New("index: corrupt index file")
	// ErrClosed: the file or service was closed or destroyed.
	ErrClosed = errors.New("index: closed")
)
