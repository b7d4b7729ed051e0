package index

import (
	"encoding/binary"
	"math"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// An index file (Java IndexFile, 4.9.8), big-endian throughout:
//
//	+--------------------------------------------------------------+  0
//	| header, HeaderSize = 40 bytes (Java IndexHeader)             |
//	|   beginTimestamp int64 | endTimestamp int64                  |
//	|   beginPhyOffset int64 | endPhyOffset int64                  |
//	|   hashSlotCount int32  | indexCount int32                    |
//	+--------------------------------------------------------------+ 40
//	| hash slots: slots × int32 (Java hashSlotSize = 4)            |
//	|   slot s holds the number of the newest entry whose key      |
//	|   hashes to s, 0 (invalidIndex) when none                    |
//	+--------------------------------------------------------------+ 40 + slots×4
//	| entries: entries × 20 bytes (Java indexSize = 20)            |
//	|   keyHash int32 | phyOffset int64 | timeDiff int32 | prev int32|
//	|   entry 0 is never written: numbers start at 1               |
//	+--------------------------------------------------------------+ 40 + slots×4 + entries×20
//
// indexCount is the number of the next entry to write (1 in a new file),
// hashSlotCount the number of slots that were empty when an entry went in.
// timeDiff is the entry's store time in whole seconds after
// beginTimestamp; prev is the entry written before it into the same slot,
// so a slot heads a chain that runs newest to oldest. Part of the format,
// do not change.
const (
	hdrBeginTimestampPos = 0                        // beginTimestampIndex
	hdrEndTimestampPos   = hdrBeginTimestampPos + 8 // endTimestampIndex
	hdrBeginPhyPos       = hdrEndTimestampPos + 8   // beginPhyoffsetIndex
	hdrEndPhyPos         = hdrBeginPhyPos + 8       // endPhyoffsetIndex
	hdrSlotCountPos      = hdrEndPhyPos + 8         // hashSlotcountIndex
	hdrIndexCountPos     = hdrSlotCountPos + 4      // indexCountIndex
	// HeaderSize is IndexHeader.INDEX_HEADER_SIZE.
	HeaderSize = hdrIndexCountPos + 4

	// SlotSize is IndexFile.hashSlotSize.
	SlotSize = 4

	entKeyHashPos  = 0
	entPhyPos      = entKeyHashPos + 4
	entTimeDiffPos = entPhyPos + 8
	entPrevPos     = entTimeDiffPos + 4
	// EntrySize is IndexFile.indexSize.
	EntrySize = entPrevPos + 4

	// invalidIndex is IndexFile.invalidIndex: an empty slot or the end of
	// a chain.
	invalidIndex = 0
	// firstIndex is IndexHeader's initial indexCount.
	firstIndex = 1
)

// Configuration defaults (MessageStoreConfig).
const (
	// DefaultHashSlots is maxHashSlotNum.
	DefaultHashSlots = 5000000
	// DefaultEntries is maxIndexNum (maxHashSlotNum × 4).
	DefaultEntries = DefaultHashSlots * 4
	// DefaultMaxMsgsNumBatch is maxMsgsNumBatch, the cap on one query.
	DefaultMaxMsgsNumBatch = 64
	// DefaultQueryMaxNum is defaultQueryMaxNum: the broker replaces a
	// request's maxNum with it when the request carries the
	// UNIQUE_MSG_QUERY_FLAG ext field "true" (QueryMessageProcessor).
	DefaultQueryMaxNum = 32
)

// keySeparator splits the KEYS property (MessageConst.KEY_SEPARATOR).
const keySeparator = " "

// topicKeySeparator joins topic and key (IndexService.buildKey).
const topicKeySeparator = "#"

// FileSize is the size of an index file with the given slot and entry
// counts: 420,000,040 bytes with the defaults.
func FileSize(slots, entries int32) int64 {
	return HeaderSize + int64(slots)*SlotSize + int64(entries)*EntrySize
}

// validSize reports whether a file of these counts can exist: Java
// computes the size as an int.
func validSize(slots, entries int32) bool {
	return slots > 0 && entries > firstIndex && FileSize(slots, entries) <= math.MaxInt32
}

func slotPos(slot int32) int64 { return HeaderSize + int64(slot)*SlotSize }

func entryPos(slots, n int32) int64 {
	return HeaderSize + int64(slots)*SlotSize + int64(n)*EntrySize
}

// BuildKey is the indexed string for a topic's key: "topic#key".
func BuildKey(topic, key string) string { return topic + topicKeySeparator + key }

// KeyHash is IndexFile.indexKeyHashMethod: the absolute value of Java's
// String.hashCode, with Integer.MIN_VALUE (whose absolute value is itself)
// mapped to 0. The key is taken as Java decoded it: callers pass strings
// decoded with javalang.DecodeUTF8.
func KeyHash(key string) int32 { return absHash(jhash.String(key)) }

// TopicKeyHash is KeyHash(BuildKey(topic, key)) without building the key.
func TopicKeyHash(topic, key string) int32 { return topicPrefixOf(topic).keyHash(key) }

// topicPrefix is the Java string hash of "topic#", from which the hashes
// of every key of a message's topic continue.
type topicPrefix int32

func topicPrefixOf(topic string) topicPrefix {
	return topicPrefix(jhash.Continue(jhash.String(topic), topicKeySeparator))
}

// keyHash is TopicKeyHash of the prefix's topic and key.
func (p topicPrefix) keyHash(key string) int32 { return absHash(jhash.Continue(int32(p), key)) }

func absHash(h int32) int32 {
	if h == math.MinInt32 {
		return 0
	}
	if h < 0 {
		return -h
	}
	return h
}

// Header is the file header (Java IndexHeader).
type Header struct {
	BeginTimestamp int64 // store time of the first entry (ms)
	EndTimestamp   int64 // store time of the last entry (ms)
	BeginPhyOffset int64 // commit-log offset of the first entry's message
	EndPhyOffset   int64 // commit-log offset of the last entry's message
	HashSlotCount  int32 // slots taken
	IndexCount     int32 // number of the next entry (1 when empty)
}

func (h *Header) encode(b []byte) {
	_ = b[HeaderSize-1]
	binary.BigEndian.PutUint64(b[hdrBeginTimestampPos:], uint64(h.BeginTimestamp))
	binary.BigEndian.PutUint64(b[hdrEndTimestampPos:], uint64(h.EndTimestamp))
	binary.BigEndian.PutUint64(b[hdrBeginPhyPos:], uint64(h.BeginPhyOffset))
	binary.BigEndian.PutUint64(b[hdrEndPhyPos:], uint64(h.EndPhyOffset))
	binary.BigEndian.PutUint32(b[hdrSlotCountPos:], uint32(h.HashSlotCount))
	binary.BigEndian.PutUint32(b[hdrIndexCountPos:], uint32(h.IndexCount))
}

// decodeHeader reads a header as IndexHeader.load does: an indexCount
// that is not positive becomes 1.
func decodeHeader(b []byte) Header {
	_ = b[HeaderSize-1]
	h := Header{
		BeginTimestamp: getInt64(b, hdrBeginTimestampPos),
		EndTimestamp:   getInt64(b, hdrEndTimestampPos),
		BeginPhyOffset: getInt64(b, hdrBeginPhyPos),
		EndPhyOffset:   getInt64(b, hdrEndPhyPos),
		HashSlotCount:  getInt32(b, hdrSlotCountPos),
		IndexCount:     getInt32(b, hdrIndexCountPos),
	}
	if h.IndexCount <= invalidIndex {
		h.IndexCount = firstIndex
	}
	return h
}

// Entry is one index entry.
type Entry struct {
	KeyHash   int32 // KeyHash of the indexed key
	PhyOffset int64 // commit-log offset of the message
	TimeDiff  int32 // seconds after the header's beginTimestamp
	PrevIndex int32 // previous entry of the same slot, 0 at the end
}

func (e *Entry) encode(b []byte) {
	_ = b[EntrySize-1]
	binary.BigEndian.PutUint32(b[entKeyHashPos:], uint32(e.KeyHash))
	binary.BigEndian.PutUint64(b[entPhyPos:], uint64(e.PhyOffset))
	binary.BigEndian.PutUint32(b[entTimeDiffPos:], uint32(e.TimeDiff))
	binary.BigEndian.PutUint32(b[entPrevPos:], uint32(e.PrevIndex))
}

func decodeEntry(b []byte) Entry {
	_ = b[EntrySize-1]
	return Entry{
		KeyHash:   getInt32(b, entKeyHashPos),
		PhyOffset: getInt64(b, entPhyPos),
		TimeDiff:  getInt32(b, entTimeDiffPos),
		PrevIndex: getInt32(b, entPrevPos),
	}
}

func getInt32(b []byte, pos int) int32 { return int32(binary.BigEndian.Uint32(b[pos:])) }
func getInt64(b []byte, pos int) int64 { return int64(binary.BigEndian.Uint64(b[pos:])) }

// timeDiff is the seconds an entry stored at ts lies after begin, as
// putKey computes it: 0 while the file has no begin time, clamped to
// [0, Integer.MAX_VALUE], truncated toward zero like Java's long division.
func timeDiff(ts, begin int64) int32 {
	d := (ts - begin) / 1000
	switch {
	case begin <= 0:
		return 0
	case d > math.MaxInt32:
		return math.MaxInt32
	case d < 0:
		return 0
	}
	return int32(d)
}
