package consumequeue

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The consume-queue extension unit (Java ConsumeQueueExt.CqExtUnit),
// big-endian, back to back in the consumequeue_ext files:
//
//	+-----------+----------------+--------------------+-------------+------------------+
//	| size int16| tagsCode int64 | msgStoreTime int64 | bitMapSize  | filter bit map   |
//	|           |                |                    | int16       | bitMapSize bytes |
//	+-----------+----------------+--------------------+-------------+------------------+
//	0           2                10                   18            20          20+bitMapSize
//
// size is the whole unit (20 + bitMapSize, at most Short.MAX_VALUE). A
// unit never reaches into the last 4 bytes of its file
// (END_BLANK_DATA_LENGTH): when the next one does not fit, Java writes the
// short -1 where it would start and moves on to a new file. A size ≤ 0 ends
// a file's units.
//
// Units are addressed by their byte offset in the ext files plus
// Long.MIN_VALUE (decorate), so an address is ≤ Integer.MIN_VALUE − 1
// (MAX_ADDR) and can stand in a unit's tagsCode in place of the tag hash.
// Part of the format, do not change.
const (
	extSizePos    = 0
	extTagsPos    = extSizePos + 2
	extTimePos    = extTagsPos + 8
	extBitMapSize = extTimePos + 8
	// ExtUnitMinSize is CqExtUnit.MIN_EXT_UNIT_SIZE.
	ExtUnitMinSize = extBitMapSize + 2
	// ExtUnitMaxSize is CqExtUnit.MAX_EXT_UNIT_SIZE (Short.MAX_VALUE).
	ExtUnitMaxSize = math.MaxInt16
	// extEndBlank is END_BLANK_DATA_LENGTH.
	extEndBlank = 4
	// extEndMarkBits is the short -1 written where a file's units end
	// early.
	extEndMarkBits = 0xFFFF
	// MaxExtAddr is ConsumeQueueExt.MAX_ADDR: tagsCode values at or below
	// it are ext addresses.
	MaxExtAddr = math.MinInt32 - 1
	// maxExtRealOffset is MAX_REAL_OFFSET: MAX_ADDR − Long.MIN_VALUE.
	maxExtRealOffset = MaxExtAddr - math.MinInt64
	// DefaultExtFileSize is mappedFileSizeConsumeQueueExt's default.
	DefaultExtFileSize = 48 * 1024 * 1024
)

// IsExtAddr reports whether a tagsCode is an ext address (Java isExtAddr).
func IsExtAddr(tagsCode int64) bool { return tagsCode <= MaxExtAddr }

// decorateExt turns an ext byte offset into an address (Java decorate).
func decorateExt(offset int64) int64 {
	if IsExtAddr(offset) {
		return offset
	}
	return offset + math.MinInt64
}

// undecorateExt turns an address back into a byte offset (Java unDecorate).
func undecorateExt(addr int64) int64 {
	if IsExtAddr(addr) {
		return addr - math.MinInt64
	}
	return addr
}

// ExtUnit is one extension unit.
type ExtUnit struct {
	// Size is the unit's size field as read (20 + len(BitMap) when written
	// by Java or Put).
	Size         int16
	TagsCode     int64
	MsgStoreTime int64
	BitMap       []byte // nil when bitMapSize < 1
}

// EncodedSize is the size Put writes: 20 + len(BitMap).
func (u *ExtUnit) EncodedSize() int { return ExtUnitMinSize + len(u.BitMap) }

// Append appends the unit's bytes to dst (Java CqExtUnit.write): size and
// bitMapSize are computed from BitMap. The caller checks EncodedSize ≤
// ExtUnitMaxSize.
func (u *ExtUnit) Append(dst []byte) []byte {
	n := u.EncodedSize()
	dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	dst = binary.BigEndian.AppendUint64(dst, uint64(u.TagsCode))
	dst = binary.BigEndian.AppendUint64(dst, uint64(u.MsgStoreTime))
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(u.BitMap)))
	return append(dst, u.BitMap...)
}

// DecodeExtUnit reads the unit at the start of b (Java CqExtUnit.read).
// found is false when b has no room for a size or the size is < 1 (Java
// returns false); a unit cut short by the end of b is ErrCorrupt (Java
// throws). The bit map is copied.
func DecodeExtUnit(b []byte) (u ExtUnit, found bool, err error) {
	if len(b) < 2 {
		return ExtUnit{}, false, nil
	}
	u.Size = int16(binary.BigEndian.Uint16(b[extSizePos:]))
	if u.Size < 1 {
		return ExtUnit{}, false, nil
	}
	if len(b) < ExtUnitMinSize {
		return ExtUnit{}, false, fmt.Errorf("%w: ext unit header needs %d bytes, %d left", ErrCorrupt, ExtUnitMinSize, len(b))
	}
	u.TagsCode = int64(binary.BigEndian.Uint64(b[extTagsPos:]))
	u.MsgStoreTime = int64(binary.BigEndian.Uint64(b[extTimePos:]))
	n := int(int16(binary.BigEndian.Uint16(b[extBitMapSize:])))
	if n < 1 {
		return u, true, nil
	}
	if len(b)-ExtUnitMinSize < n {
		return ExtUnit{}, false, fmt.Errorf("%w: ext bit map of %d bytes, %d left", ErrCorrupt, n, len(b)-ExtUnitMinSize)
	}
	u.BitMap = append([]byte(nil), b[ExtUnitMinSize:ExtUnitMinSize+n]...)
	return u, true, nil
}
