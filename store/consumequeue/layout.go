package consumequeue

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The consume-queue unit (Java ConsumeQueue.CQ_STORE_UNIT_SIZE), big-endian,
// back to back from byte 0 of every file:
//
//	+------------------------+------------+------------------------+
//	| commitLogOffset int64  | size int32 |     tagsCode int64     |
//	+------------------------+------------+------------------------+
//	0                        8            12                       20
//
// commitLogOffset is where the message record starts in the commit log,
// size its TOTALSIZE, tagsCode the tag hash (the delivery time for
// SCHEDULE_TOPIC_XXXX, or an ext address, see IsExtAddr). Logical offset N
// is the unit at byte N×UnitSize of the queue; file names are byte
// offsets. Part of the format, do not change.
const (
	unitPhyPos  = 0
	unitSizePos = unitPhyPos + 8
	unitTagsPos = unitSizePos + 4
	// UnitSize is CQ_STORE_UNIT_SIZE.
	UnitSize = unitTagsPos + 8
)

// DefaultFileSize is mappedFileSizeConsumeQueue's default: 300,000 units.
const DefaultFileSize = 300000 * UnitSize

// A blank unit is what Java's fillPreBlank writes before the first unit of
// a queue whose first file starts below the first offset it is given:
// offset 0, size Integer.MAX_VALUE, tagsCode 0. It counts as valid in
// recovery (offset ≥ 0 and size > 0).
const (
	blankPhy  = 0
	blankSize = math.MaxInt32
	blankTags = 0
)

// Blank is the front-fill unit.
var Blank = Unit{Phy: blankPhy, Size: blankSize, TagsCode: blankTags}

// Unit is one consume-queue entry.
type Unit struct {
	Phy      int64 // commit-log offset of the record
	Size     int32 // record size
	TagsCode int64 // tag hash, delivery time, or ext address
}

// Valid is Java's recovery test: offset ≥ 0 and size > 0. Blank units are
// valid; an all-zero unit (never written) is not.
func (u Unit) Valid() bool { return u.Phy >= 0 && u.Size > 0 }

// IsBlank reports whether u is the front-fill unit.
func (u Unit) IsBlank() bool { return u == Blank }

// End is the commit-log offset just past the record (Java's
// maxPhysicOffset after this unit).
func (u Unit) End() int64 { return u.Phy + int64(u.Size) }

// Put writes u into b, which must hold UnitSize bytes.
func (u Unit) Put(b []byte) {
	_ = b[UnitSize-1]
	binary.BigEndian.PutUint64(b[unitPhyPos:], uint64(u.Phy))
	binary.BigEndian.PutUint32(b[unitSizePos:], uint32(u.Size))
	binary.BigEndian.PutUint64(b[unitTagsPos:], uint64(u.TagsCode))
}

// Append appends u's 20 bytes to dst.
func (u Unit) Append(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(u.Phy))
	dst = binary.BigEndian.AppendUint32(dst, uint32(u.Size))
	return binary.BigEndian.AppendUint64(dst, uint64(u.TagsCode))
}

// DecodeUnit reads the unit at the start of b. Any 20 bytes are a unit;
// fewer are ErrCorrupt.
func DecodeUnit(b []byte) (Unit, error) {
	if len(b) < UnitSize {
		return Unit{}, fmt.Errorf("%w: %d bytes where a %d-byte unit was expected", ErrCorrupt, len(b), UnitSize)
	}
	return unitAt(b, 0), nil
}

// unitAt decodes the unit at byte pos of b; the caller checks bounds.
func unitAt(b []byte, pos int) Unit {
	b = b[pos : pos+UnitSize]
	return Unit{
		Phy:      int64(binary.BigEndian.Uint64(b[unitPhyPos:])),
		Size:     int32(binary.BigEndian.Uint32(b[unitSizePos:])),
		TagsCode: int64(binary.BigEndian.Uint64(b[unitTagsPos:])),
	}
}

// FileSize is MessageStoreConfig.getMappedFileSizeConsumeQueue: the
// configured size rounded up to a whole number of units (Java computes
// (int) ceil(configured / 20.0), then multiplies in int, so the product
// wraps like Java's for sizes near Integer.MAX_VALUE). Open refuses sizes
// that are not positive.
func FileSize(configured int32) int64 {
	factor := int32(math.Ceil(float64(configured) / float64(UnitSize))) // no overflow: |x/20| < 2^31
	return int64(factor * UnitSize)
}
