// Package ha replicates the commit log from a master to its slaves over
// Java 4.9.8's HA protocol (store/ha/HAService.java, HAConnection.java),
// so that a Sputnik slave can follow a Java master and a Java slave a
// Sputnik master.
//
// The protocol is two byte streams on one TCP connection, which the slave
// opens to the master's haListenPort (the broker's listenPort + 1):
//
//	slave → master, one 8-byte report at a time (HAConnection.ReadSocketService):
//
//	   0                   8
//	  +--------------------+
//	  | max offset (int64) |   the slave's commit-log max offset, big-endian
//	  +--------------------+
//
//	  The first report is the offset the slave wants data from (0: it has
//	  nothing, and the master starts at the first byte of its newest
//	  commit-log file); every later one acknowledges everything before it.
//
//	master → slave, one frame at a time (HAConnection.WriteSocketService,
//	headerSize = 8 + 4):
//
//	   0                   8          12
//	  +--------------------+----------+---------------------+
//	  | offset (int64)     | n (int32)| n bytes of the log  |
//	  +--------------------+----------+---------------------+
//
//	  The bytes are the master's commit log from offset, never across a
//	  file's end and at most haTransferBatchSize of them; they may end
//	  inside a record. n = 0 is a heartbeat, sent after
//	  haSendHeartbeatInterval without data.
//
// The slave appends the bytes at offset (which must be its own max
// offset, unless its log is empty) and dispatches them as a master would.
package ha

import (
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	// ReportSize is the size of a slave's offset report.
	ReportSize = 8
	// HeaderSize is the size of a master frame's header (Java
	// WriteSocketService.headerSize, HAClient msgHeaderSize).
	HeaderSize = 8 + 4
	// MaxFrameData bounds the data of one frame a slave accepts. Java's
	// slave reads into a 4 MiB buffer (HAClient.READ_MAX_BUFFER_SIZE) and
	// stalls on anything larger; masters send haTransferBatchSize (32 KiB)
	// at most.
	MaxFrameData = 4 << 20
)

// ErrFrame is a master frame a slave cannot take.
var ErrFrame = errors.New("ha: bad frame")

// Header is a master frame's header.
type Header struct {
	Offset int64 // commit-log offset of the data
	Size   int32 // bytes of data that follow; 0 for a heartbeat
}

// PutHeader writes h into b[:HeaderSize].
func PutHeader(b []byte, h Header) {
	binary.BigEndian.PutUint64(b, uint64(h.Offset))
	binary.BigEndian.PutUint32(b[8:], uint32(h.Size))
}

// ParseHeader reads a header from b[:HeaderSize] and checks it: a negative
// offset or a size outside [0, MaxFrameData] is ErrFrame.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, fmt.Errorf("%w: %d header bytes, want %d", ErrFrame, len(b), HeaderSize)
	}
	h := Header{Offset: int64(binary.BigEndian.Uint64(b)), Size: int32(binary.BigEndian.Uint32(b[8:]))}
	switch {
	case h.Offset < 0:
		return Header{}, fmt.Errorf("%w: offset %d", ErrFrame, h.Offset)
	case h.Size < 0 || h.Size > MaxFrameData:
		return Header{}, fmt.Errorf("%w: %d bytes of data at offset %d", ErrFrame, h.Size, h.Offset)
	}
	return h, nil
}

// PutReport writes an offset report into b[:ReportSize].
func PutReport(b []byte, offset int64) { binary.BigEndian.PutUint64(b, uint64(offset)) }

// ParseReport reads an offset report from b[:ReportSize].
func ParseReport(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }
