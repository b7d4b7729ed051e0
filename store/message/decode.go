package message

import (
	"encoding/binary"
	"fmt"
)

// DecodeRecord decodes the record at the start of b without copying: Body
// and Properties alias b; Topic is a new string (see Decoder to avoid
// that allocation).
//
// It accepts and rejects exactly what Java 4.9.8's
// CommitLog.checkMessageAndReturnSize does (readBody = true, the recovery
// path), reading field after field as Java does and comparing TOTALSIZE
// only at the end; pass b up to the end of the segment, not just
// TOTALSIZE bytes. Outcomes:
//
//   - MagicBlank: ErrBlank, with the blank's TotalSize and Magic set (Java
//     returns size 0 and success: "go to the next file").
//   - Any other magic, a negative TOTALSIZE, a host, body, topic or
//     properties field longer than TOTALSIZE, a negative topic length, or
//     (with checkCRC, for a non-empty body) a CRC mismatch: a *CorruptError
//     (Java: size -1).
//   - Fields that do not add up to TOTALSIZE: a *CorruptError of kind
//     ErrSizeMismatch with Size = TOTALSIZE (Java: size TOTALSIZE, failure).
//   - b ends inside the record: ErrShort (Java: BufferUnderflowException,
//     size -1).
//
// Java quirks kept: an empty body's CRC is never checked; a negative
// BODYLEN or PROPERTIESLEN reads as empty and counts 0 towards the size.
// The properties are not parsed here (Java also parses them, which cannot
// fail, except for the schedule-topic DELAY value: see the package's
// caller).
// RecordProperties returns the properties string of the record b starts
// with (aliasing b), checking the record as DecodeRecord does without its
// CRC and without allocating.
func RecordProperties(b []byte) ([]byte, error) {
	var r Record
	if _, err := decode(b, false, &r); err != nil {
		return nil, err
	}
	return r.Properties, nil
}

func DecodeRecord(b []byte, checkCRC bool) (Record, error) {
	var r Record
	topic, err := decode(b, checkCRC, &r)
	if err == nil {
		r.Topic = string(topic)
	}
	return r, err
}

// Decoder decodes records like DecodeRecord but interns topic strings, so
// decoding allocates nothing once a topic has been seen. Not safe for
// concurrent use; the zero value is ready.
type Decoder struct {
	topics map[string]string
}

// maxInterned bounds the Decoder's topic table; it is emptied when full.
const maxInterned = 4096

// Decode is DecodeRecord with interned topics.
func (d *Decoder) Decode(b []byte, checkCRC bool) (Record, error) {
	var r Record
	topic, err := decode(b, checkCRC, &r)
	if err != nil {
		return r, err
	}
	if s, ok := d.topics[string(topic)]; ok {
		r.Topic = s
		return r, nil
	}
	if d.topics == nil || len(d.topics) >= maxInterned {
		d.topics = make(map[string]string)
	}
	r.Topic = string(topic)
	d.topics[r.Topic] = r.Topic
	return r, nil
}

// decode fills r from b and returns the topic bytes.
func decode(b []byte, checkCRC bool, r *Record) ([]byte, error) {
	if len(b) < OffMagic+4 {
		return nil, fmt.Errorf("%w: %d bytes before the magic code", ErrShort, len(b))
	}
	r.TotalSize = int32(binary.BigEndian.Uint32(b))
	r.Magic = int32(binary.BigEndian.Uint32(b[OffMagic:]))
	switch r.Magic {
	case MagicMessage:
	case MagicBlank:
		return nil, ErrBlank
	default:
		return nil, corrupt(ErrBadMagic, "magic code 0x%08X", uint32(r.Magic))
	}
	if r.TotalSize < 0 {
		return nil, corrupt(ErrBadLength, "TOTALSIZE %d", r.TotalSize)
	}
	l, err := decodeHeader(b, r)
	if err != nil {
		return nil, err
	}
	return decodeTail(b, l, checkCRC, r)
}

// decodeHeader reads SYSFLAG through PREPARED TRANSACTION OFFSET.
func decodeHeader(b []byte, r *Record) (Layout, error) {
	be := binary.BigEndian
	if len(b) < OffBornHost {
		return Layout{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrShort, len(b), OffBornHost)
	}
	r.BodyCRC = int32(be.Uint32(b[OffBodyCRC:]))
	r.QueueID = int32(be.Uint32(b[OffQueueID:]))
	r.Flag = int32(be.Uint32(b[OffFlag:]))
	r.QueueOffset = int64(be.Uint64(b[OffQueueOffset:]))
	r.PhysicalOffset = int64(be.Uint64(b[OffPhysicalOffset:]))
	r.SysFlag = int32(be.Uint32(b[OffSysFlag:]))
	r.BornTimestamp = int64(be.Uint64(b[OffBornTimestamp:]))
	l := Offsets(r.SysFlag)
	// Java copies each host into a TOTALSIZE-long scratch array.
	if err := checkField("born host", l.BornHostSize, r.TotalSize, OffBornHost, len(b)); err != nil {
		return l, err
	}
	r.BornHost = readHost(b[OffBornHost:], l.BornHostSize)
	if err := checkField("store host", l.StoreHostSize, r.TotalSize, l.StoreHost, len(b)); err != nil {
		return l, err
	}
	r.StoreTimestamp = int64(be.Uint64(b[l.StoreTimestamp:]))
	r.StoreHost = readHost(b[l.StoreHost:], l.StoreHostSize)
	if len(b) < l.Body {
		return l, fmt.Errorf("%w: %d bytes, header needs %d", ErrShort, len(b), l.Body)
	}
	r.ReconsumeTimes = int32(be.Uint32(b[l.ReconsumeTimes:]))
	r.PreparedTransactionOffset = int64(be.Uint64(b[l.PreparedTxOffset:]))
	return l, nil
}

// checkField mirrors Java reading n bytes at off into a scratch array of
// TOTALSIZE bytes: n must fit in it and in b.
func checkField(name string, n int, totalSize int32, off, have int) error {
	if n > int(totalSize) {
		return corrupt(ErrBadLength, "%s of %d bytes in a record of %d", name, n, totalSize)
	}
	if have < off+n {
		return fmt.Errorf("%w: %s ends at %d, have %d bytes", ErrShort, name, off+n, have)
	}
	return nil
}

// decodeTail reads BODYLEN through PROPERTIES and checks the total.
func decodeTail(b []byte, l Layout, checkCRC bool, r *Record) ([]byte, error) {
	bodyLen := int(int32(binary.BigEndian.Uint32(b[l.BodyLen:])))
	pos := l.Body
	if bodyLen > 0 {
		if err := checkField("body", bodyLen, r.TotalSize, pos, len(b)); err != nil {
			return nil, err
		}
		r.Body = b[pos : pos+bodyLen : pos+bodyLen]
		if checkCRC {
			if crc := BodyCRC(r.Body); crc != r.BodyCRC {
				return nil, corrupt(ErrBadCRC, "BODYCRC %d, body has %d", r.BodyCRC, crc)
			}
		}
		pos += bodyLen
	}
	if len(b) < pos+1 {
		return nil, fmt.Errorf("%w: topic length at %d, have %d bytes", ErrShort, pos, len(b))
	}
	topicLen := int(int8(b[pos]))
	if topicLen < 0 {
		return nil, corrupt(ErrBadLength, "TOPICLEN %d", topicLen)
	}
	if err := checkField("topic", topicLen, r.TotalSize, pos+1, len(b)); err != nil {
		return nil, err
	}
	topic := b[pos+1 : pos+1+topicLen]
	pos += 1 + topicLen
	if len(b) < pos+2 {
		return nil, fmt.Errorf("%w: properties length at %d, have %d bytes", ErrShort, pos, len(b))
	}
	propsLen := int(int16(binary.BigEndian.Uint16(b[pos:])))
	pos += 2
	if propsLen > 0 {
		if err := checkField("properties", propsLen, r.TotalSize, pos, len(b)); err != nil {
			return nil, err
		}
		r.Properties = b[pos : pos+propsLen : pos+propsLen]
	}
	if n := RecordSize(r.SysFlag, bodyLen, topicLen, propsLen); n != int(r.TotalSize) {
		return nil, &CorruptError{Kind: ErrSizeMismatch, Size: r.TotalSize,
			Detail: fmt.Sprintf("TOTALSIZE %d, fields add up to %d", r.TotalSize, n)}
	}
	return topic, nil
}
