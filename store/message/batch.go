package message

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The SEND_BATCH_MESSAGE body: entries back to back, each as Java's
// MessageDecoder.encodeMessage writes it. Part of the wire format.
//
//	0         4         8         12        16        20
//	+---------+---------+---------+---------+---------+-----------+-------+------------+
//	|TOTALSIZE|MAGIC = 0|BODYCRC=0|FLAG     |BODYLEN  |BODY       |PROPLEN|PROPERTIES  |
//	|         |(ignored)|(ignored)|         |         |(BODYLEN)  |int16  |(PROPLEN)   |
//	+---------+---------+---------+---------+---------+-----------+-------+------------+
//
// Java 4.9.8 reads TOTALSIZE, MAGIC and BODYCRC and ignores them; the
// broker walks the entries by BODYLEN and PROPLEN.
const (
	batchOffTotalSize = 0
	batchOffMagic     = batchOffTotalSize + 4
	batchOffBodyCRC   = batchOffMagic + 4
	batchOffFlag      = batchOffBodyCRC + 4
	batchOffBodyLen   = batchOffFlag + 4
	batchOffBody      = batchOffBodyLen + 4
	batchPropsLenSize = 2
)

// ErrBadBatch is matched by every error for a malformed batch body.
var ErrBadBatch = errors.New("message: malformed batch body")

// BatchEntry is one message of a batch body; Body and Properties alias it.
type BatchEntry struct {
	TotalSize  int32 // as sent; ignored by Java
	Magic      int32 // as sent (0); ignored by Java
	BodyCRC    int32 // as sent (0); ignored by Java
	Flag       int32
	Body       []byte
	Properties []byte
}

// BatchReader walks a batch body with the checks of Java's
// MessageDecoder.decodeMessage: each entry needs its 20-byte head, a
// BODYLEN and a PROPLEN that are not negative and fit in what is left.
// The broker's own walk (CommitLog.MessageExtEncoder.encode) fails on the
// same input, except a negative PROPLEN, which it turns into corrupt
// records; that is rejected here too.
type BatchReader struct {
	rest []byte
	off  int
	err  error
}

// NewBatchReader returns a reader over body.
func NewBatchReader(body []byte) BatchReader { return BatchReader{rest: body} }

// Next returns the next entry; false at the end or on an error (see Err).
func (r *BatchReader) Next() (BatchEntry, bool) {
	if r.err != nil || len(r.rest) == 0 {
		return BatchEntry{}, false
	}
	e, n, err := readBatchEntry(r.rest)
	if err != nil {
		r.err = fmt.Errorf("%w: entry at %d: %w", ErrBadBatch, r.off, err)
		return BatchEntry{}, false
	}
	r.rest, r.off = r.rest[n:], r.off+n
	return e, true
}

// Err returns the error that stopped Next, if any.
func (r *BatchReader) Err() error { return r.err }

func readBatchEntry(b []byte) (BatchEntry, int, error) {
	be := binary.BigEndian
	if len(b) < batchOffBody {
		return BatchEntry{}, 0, fmt.Errorf("%d bytes left, an entry head is %d", len(b), batchOffBody)
	}
	e := BatchEntry{
		TotalSize: int32(be.Uint32(b[batchOffTotalSize:])),
		Magic:     int32(be.Uint32(b[batchOffMagic:])),
		BodyCRC:   int32(be.Uint32(b[batchOffBodyCRC:])),
		Flag:      int32(be.Uint32(b[batchOffFlag:])),
	}
	bodyLen := int(int32(be.Uint32(b[batchOffBodyLen:])))
	if bodyLen < 0 || bodyLen > len(b)-batchOffBody-batchPropsLenSize {
		return e, 0, fmt.Errorf("BODYLEN %d with %d bytes left", bodyLen, len(b)-batchOffBody)
	}
	pos := batchOffBody + bodyLen
	e.Body = b[batchOffBody:pos:pos]
	propsLen := int(int16(be.Uint16(b[pos:])))
	pos += batchPropsLenSize
	if propsLen < 0 || propsLen > len(b)-pos {
		return e, 0, fmt.Errorf("PROPLEN %d with %d bytes left", propsLen, len(b)-pos)
	}
	e.Properties = b[pos : pos+propsLen : pos+propsLen]
	return e, pos + propsLen, nil
}

// AppendBatchEntry appends one entry as MessageDecoder.encodeMessage does
// (TOTALSIZE set, MAGIC and BODYCRC 0).
func AppendBatchEntry(dst []byte, flag int32, body, props []byte) ([]byte, error) {
	if len(props) > MaxPropertiesLen {
		return dst, fmt.Errorf("%w: %d bytes", ErrPropertiesTooLong, len(props))
	}
	size := batchOffBody + len(body) + batchPropsLenSize + len(props)
	if size > math.MaxInt32 {
		return dst, fmt.Errorf("%w: entry of %d bytes", ErrBodyTooLong, size)
	}
	be := binary.BigEndian
	dst = be.AppendUint32(dst, uint32(size))
	dst = be.AppendUint32(dst, 0)
	dst = be.AppendUint32(dst, 0)
	dst = be.AppendUint32(dst, uint32(flag))
	dst = be.AppendUint32(dst, uint32(len(body)))
	dst = append(dst, body...)
	dst = be.AppendUint16(dst, uint16(len(props)))
	return append(dst, props...), nil
}

// BatchTemplate holds what every stored record of a batch shares
// (CommitLog.MessageExtEncoder.encode(MessageExtBatch)): PREPARED
// TRANSACTION OFFSET is always 0 and the per-entry fields are FLAG, BODY,
// BODYCRC and PROPERTIES. The caller enforces the put-level rules of
// CommitLog.asyncPutMessages (no transaction type, no delay level, body
// size limit).
type BatchTemplate struct {
	Topic          string
	QueueID        int32
	SysFlag        int32 // host-width bits are derived from the hosts
	BornTimestamp  int64
	BornHost       Host
	StoreTimestamp int64 // stamped again under the lock
	StoreHost      Host
	ReconsumeTimes int32
	// Properties is the batch-level properties string appended to every
	// entry's (see SendProperties).
	Properties []byte
}

// EntryInfo locates one stored record in AppendBatchRecords' output.
type EntryInfo struct {
	Offset int   // from the start of this batch's records
	Size   int32 // the record's TOTALSIZE
}

// AppendBatchRecords appends the commit-log records Java 4.9.8 stores for a
// batch body: one per entry, with the entry's flag and body, the body's CRC,
// and properties = entry properties, then — when both are non-empty and the
// entry's do not already end with 0x02 — a 0x02, then t.Properties. Queue
// and physical offsets are 0, for PatchPosition to stamp per record under
// the lock. On error dst is returned unchanged. Java writes a truncated
// PROPERTIESLEN when the joined properties exceed 32767 bytes; this fails
// with ErrPropertiesTooLong instead.
func AppendBatchRecords(dst []byte, t *BatchTemplate, body []byte) ([]byte, []EntryInfo, error) {
	if err := checkTemplate(t); err != nil {
		return dst, nil, err
	}
	sysFlag := t.SysFlag&^(FlagBornHostV6|FlagStoreHostV6) | HostFlags(t.BornHost, t.StoreHost)
	start := len(dst)
	var infos []EntryInfo
	r := NewBatchReader(body)
	for e, ok := r.Next(); ok; e, ok = r.Next() {
		at := len(dst)
		var err error
		if dst, err = appendBatchRecord(dst, t, sysFlag, &e); err != nil {
			return dst[:start], nil, fmt.Errorf("batch entry %d: %w", len(infos), err)
		}
		infos = append(infos, EntryInfo{Offset: at - start, Size: int32(len(dst) - at)})
	}
	if err := r.Err(); err != nil {
		return dst[:start], nil, err
	}
	return dst, infos, nil
}

func checkTemplate(t *BatchTemplate) error {
	r := Record{Topic: t.Topic, Properties: t.Properties, BornHost: t.BornHost, StoreHost: t.StoreHost}
	return checkRecord(&r)
}

func appendBatchRecord(dst []byte, t *BatchTemplate, sysFlag int32, e *BatchEntry) ([]byte, error) {
	sep := len(e.Properties) > 0 && len(t.Properties) > 0 && e.Properties[len(e.Properties)-1] != PropertySeparator
	propsLen := len(e.Properties) + len(t.Properties)
	if sep {
		propsLen++
	}
	if propsLen > MaxPropertiesLen {
		return dst, fmt.Errorf("%w: %d bytes with the batch properties", ErrPropertiesTooLong, propsLen)
	}
	size := RecordSize(sysFlag, len(e.Body), len(t.Topic), propsLen)
	if size > math.MaxInt32 {
		return dst, fmt.Errorf("%w: record of %d bytes", ErrBodyTooLong, size)
	}
	r := Record{
		TotalSize: int32(size), Magic: MagicMessage, BodyCRC: BodyCRC(e.Body),
		QueueID: t.QueueID, Flag: e.Flag, SysFlag: sysFlag,
		BornTimestamp: t.BornTimestamp, BornHost: t.BornHost,
		StoreTimestamp: t.StoreTimestamp, StoreHost: t.StoreHost,
		ReconsumeTimes: t.ReconsumeTimes,
	}
	dst = slices.Grow(dst, size)
	dst = appendHeader(dst, &r)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(e.Body)))
	dst = append(dst, e.Body...)
	dst = append(dst, byte(len(t.Topic)))
	dst = append(dst, t.Topic...)
	dst = binary.BigEndian.AppendUint16(dst, uint16(propsLen))
	dst = append(dst, e.Properties...)
	if sep {
		dst = append(dst, PropertySeparator)
	}
	return append(dst, t.Properties...), nil
}
