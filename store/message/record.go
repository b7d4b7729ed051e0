package message

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"net/netip"
	"slices"
	"strconv"
)

// Host is a born or store host: Java's InetSocketAddress as the record
// holds it. A 4-byte address (Addr.Is4) is written in 8 bytes, any other
// valid address as 16 bytes plus port (20); an IPv4-mapped IPv6 address
// stays 16 bytes (Java turns those into an Inet4Address before they reach
// the store, so the broker should Unmap what it accepts).
type Host struct {
	Addr netip.Addr
	Port int32
}

// String is "ip:port" ("[ip]:port" for IPv6).
func (h Host) String() string {
	if h.Addr.Is4() {
		return h.Addr.String() + ":" + strconv.Itoa(int(h.Port))
	}
	return "[" + h.Addr.String() + "]:" + strconv.Itoa(int(h.Port))
}

func (h Host) size() int {
	if h.Addr.Is4() {
		return hostSizeV4
	}
	return hostSizeV6
}

func appendHost(dst []byte, h Host) []byte {
	if h.Addr.Is4() {
		a := h.Addr.As4()
		dst = append(dst, a[:]...)
	} else {
		a := h.Addr.As16()
		dst = append(dst, a[:]...)
	}
	return binary.BigEndian.AppendUint32(dst, uint32(h.Port))
}

// readHost reads an 8- or 20-byte host field; b holds at least size bytes.
func readHost(b []byte, size int) Host {
	var a netip.Addr
	if size == hostSizeV4 {
		a = netip.AddrFrom4([4]byte(b[:4]))
	} else {
		a = netip.AddrFrom16([16]byte(b[:16]))
	}
	return Host{Addr: a, Port: int32(binary.BigEndian.Uint32(b[size-4:]))}
}

// Record is one commit-log message record, field for field. A decoded
// Record's Body and Properties alias the decoded bytes.
type Record struct {
	TotalSize                 int32 // TOTALSIZE, set by AppendRecord
	Magic                     int32 // MagicMessage (MagicBlank with ErrBlank)
	BodyCRC                   int32 // BodyCRC(Body), given by the caller
	QueueID                   int32
	Flag                      int32 // user flag
	QueueOffset               int64 // stamped under the lock (PatchPosition)
	PhysicalOffset            int64 // stamped under the lock (PatchPosition)
	SysFlag                   int32 // host-width bits set by AppendRecord
	BornTimestamp             int64
	BornHost                  Host
	StoreTimestamp            int64 // stamped again under the lock (PatchPosition)
	StoreHost                 Host
	ReconsumeTimes            int32
	PreparedTransactionOffset int64
	Body                      []byte
	Topic                     string
	Properties                []byte // raw properties string (see ParseProperties)
}

// MsgID is the record's offset message id (Java MessageExt.msgId as the
// broker computes it).
func (r *Record) MsgID() string { return OffsetMsgID(r.StoreHost, r.PhysicalOffset) }

// BodyCRC is UtilAll.crc32: CRC-32 (IEEE) of the body & 0x7FFFFFFF.
func BodyCRC(body []byte) int32 {
	return int32(crc32.ChecksumIEEE(body) & 0x7FFFFFFF)
}

// AppendRecord appends r encoded as CommitLog.MessageExtEncoder.encode
// writes it, and sets r.TotalSize, r.Magic and the two host-width bits of
// r.SysFlag. The host bits are derived from the addresses, clearing any
// the caller set: Java only ORs them in (asyncPutMessage), so a client
// sysflag claiming an IPv6 host for an IPv4 one would make 4.9.8 write a
// record whose TOTALSIZE does not match its bytes; Sputnik never writes
// such a record. Everything else is written as given, including BodyCRC
// and the position fields (which PatchPosition stamps later).
func AppendRecord(dst []byte, r *Record) ([]byte, error) {
	size, err := prepare(r)
	if err != nil {
		return dst, err
	}
	dst = slices.Grow(dst, size)
	dst = appendHead(dst, r)
	dst = append(dst, r.Body...)
	return appendTail(dst, r), nil
}

// AppendRecordParts is AppendRecord without the body: it appends the
// record's bytes before the body and then those after it, and returns
// where the body goes between them, for a writer that gathers head, body
// and tail itself (pwritev) instead of copying the body once more.
func AppendRecordParts(dst []byte, r *Record) (parts []byte, head int, err error) {
	if _, err := prepare(r); err != nil {
		return dst, 0, err
	}
	dst = appendHead(dst, r)
	head = len(dst)
	return appendTail(dst, r), head, nil
}

// prepare checks r and sets its TotalSize, Magic and host bits, and
// returns its size.
func prepare(r *Record) (int, error) {
	if err := checkRecord(r); err != nil {
		return 0, err
	}
	r.SysFlag = hostSysFlag(r)
	size := EncodedSize(r)
	if size > math.MaxInt32 {
		return 0, fmt.Errorf("%w: record of %d bytes", ErrBodyTooLong, size)
	}
	r.TotalSize, r.Magic = int32(size), MagicMessage
	return size, nil
}

// appendHead writes everything before the body: the header and
// BODYLENGTH.
func appendHead(dst []byte, r *Record) []byte {
	dst = appendHeader(dst, r)
	return binary.BigEndian.AppendUint32(dst, uint32(len(r.Body)))
}

// appendTail writes everything after the body: TOPIC and PROPERTIES
// with their lengths.
func appendTail(dst []byte, r *Record) []byte {
	dst = append(dst, byte(len(r.Topic)))
	dst = append(dst, r.Topic...)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(r.Properties)))
	return append(dst, r.Properties...)
}

// EncodedSize is the TOTALSIZE AppendRecord writes for r, whose sysflag's
// host bits it sets from r's hosts.
func EncodedSize(r *Record) int {
	return RecordSize(hostSysFlag(r), len(r.Body), len(r.Topic), len(r.Properties))
}

// hostSysFlag is r's sysflag with the IPv6 bits of its born and store
// hosts.
func hostSysFlag(r *Record) int32 {
	return r.SysFlag&^(FlagBornHostV6|FlagStoreHostV6) | HostFlags(r.BornHost, r.StoreHost)
}

func checkRecord(r *Record) error {
	if len(r.Topic) > MaxTopicLen {
		return fmt.Errorf("%w: %d bytes", ErrTopicTooLong, len(r.Topic))
	}
	if len(r.Properties) > MaxPropertiesLen {
		return fmt.Errorf("%w: %d bytes", ErrPropertiesTooLong, len(r.Properties))
	}
	if !r.BornHost.Addr.IsValid() {
		return fmt.Errorf("%w: born host %v", ErrHost, r.BornHost.Addr)
	}
	if !r.StoreHost.Addr.IsValid() {
		return fmt.Errorf("%w: store host %v", ErrHost, r.StoreHost.Addr)
	}
	return nil
}

// appendHeader writes TOTALSIZE through PREPARED TRANSACTION OFFSET.
func appendHeader(dst []byte, r *Record) []byte {
	be := binary.BigEndian
	dst = be.AppendUint32(dst, uint32(r.TotalSize))
	dst = be.AppendUint32(dst, uint32(r.Magic))
	dst = be.AppendUint32(dst, uint32(r.BodyCRC))
	dst = be.AppendUint32(dst, uint32(r.QueueID))
	dst = be.AppendUint32(dst, uint32(r.Flag))
	dst = be.AppendUint64(dst, uint64(r.QueueOffset))
	dst = be.AppendUint64(dst, uint64(r.PhysicalOffset))
	dst = be.AppendUint32(dst, uint32(r.SysFlag))
	dst = be.AppendUint64(dst, uint64(r.BornTimestamp))
	dst = appendHost(dst, r.BornHost)
	dst = be.AppendUint64(dst, uint64(r.StoreTimestamp))
	dst = appendHost(dst, r.StoreHost)
	dst = be.AppendUint32(dst, uint32(r.ReconsumeTimes))
	return be.AppendUint64(dst, uint64(r.PreparedTransactionOffset))
}

// PatchPosition stamps the three fields Java's doAppend writes inside the
// put lock into an encoded record: QUEUEOFFSET, PHYSICALOFFSET and
// STORETIMESTAMP (whose offset depends on the born-host width read from
// the record's SYSFLAG). It fails with ErrShort if rec is too short to
// hold them.
func PatchPosition(rec []byte, queueOffset, physicalOffset, storeTimestamp int64) error {
	if len(rec) < OffSysFlag+4 {
		return fmt.Errorf("%w: %d bytes, need a record header", ErrShort, len(rec))
	}
	at := Offsets(int32(binary.BigEndian.Uint32(rec[OffSysFlag:]))).StoreTimestamp
	if len(rec) < at+8 {
		return fmt.Errorf("%w: %d bytes, need %d", ErrShort, len(rec), at+8)
	}
	binary.BigEndian.PutUint64(rec[OffQueueOffset:], uint64(queueOffset))
	binary.BigEndian.PutUint64(rec[OffPhysicalOffset:], uint64(physicalOffset))
	binary.BigEndian.PutUint64(rec[at:], uint64(storeTimestamp))
	return nil
}

// PutBlank writes the end-of-file blank (size, MagicBlank) into b[:8];
// size is the whole remaining space of the segment, which Java declares
// written although only 8 bytes are. It fails with ErrShort, writing
// nothing, when b is shorter than BlankSize.
func PutBlank(b []byte, size int32) error {
	if len(b) < BlankSize {
		return fmt.Errorf("%w: %d bytes for a blank record", ErrShort, len(b))
	}
	binary.BigEndian.PutUint32(b[OffTotalSize:], uint32(size))
	magic := MagicBlank
	binary.BigEndian.PutUint32(b[OffMagic:], uint32(magic))
	return nil
}

// PeekTotalSize returns TOTALSIZE and the magic code at the start of b;
// ok is false when b holds fewer than 8 bytes.
func PeekTotalSize(b []byte) (size, magic int32, ok bool) {
	if len(b) < OffMagic+4 {
		return 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(b)), int32(binary.BigEndian.Uint32(b[OffMagic:])), true
}

// PeekStoreTimestamp reads STORETIMESTAMP of the message record at the
// start of b as CommitLog.isMappedFileMatchedRecover does; ok is false when
// b does not start with MagicMessage or is too short.
func PeekStoreTimestamp(b []byte) (int64, bool) {
	if _, magic, ok := PeekTotalSize(b); !ok || magic != MagicMessage || len(b) < OffSysFlag+4 {
		return 0, false
	}
	at := Offsets(int32(binary.BigEndian.Uint32(b[OffSysFlag:]))).StoreTimestamp
	if len(b) < at+8 {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b[at:])), true
}
