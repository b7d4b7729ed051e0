package message

import (
	"errors"
	"fmt"
)

// Decoding errors.
var (
	// ErrShort means the input ends before the record does (a torn write at
	// the end of a segment, or a caller that passed too few bytes). Java
	// reads a commit-log segment to its end, so there a short record is
	// a BufferUnderflowException and recovery stops, as for ErrCorrupt.
	ErrShort = errors.New("message: record truncated")
	// ErrBlank reports the end-of-file blank record (BLANK_MAGIC_CODE); the
	// Record returned with it carries the blank's TotalSize. The rest of the
	// segment is padding.
	ErrBlank = errors.New("message: end-of-file blank record")
	// ErrCorrupt is matched (errors.Is) by every error for bytes that are not
	// a record Java 4.9.8 would accept. A more precise sentinel below is
	// matched too.
	ErrCorrupt = errors.New("message: corrupt record")
	// ErrBadMagic: the magic code is neither MagicMessage nor MagicBlank.
	ErrBadMagic = errors.New("bad magic code")
	// ErrBadCRC: the body's CRC differs from BODYCRC (checked only on request).
	ErrBadCRC = errors.New("body CRC mismatch")
	// ErrBadLength: a length field is negative or larger than TOTALSIZE.
	ErrBadLength = errors.New("bad length field")
	// ErrSizeMismatch: the fields were readable but do not add up to
	// TOTALSIZE. Java reports this case with the record's size (4.9.8
	// ReputMessageService skips it, recovery stops at it); CorruptError.Size
	// carries it.
	ErrSizeMismatch = errors.New("fields do not add up to TOTALSIZE")
)

// Encoding errors.
var (
	// ErrTopicTooLong: the topic is longer than MaxTopicLen bytes
	// (TOPICLEN is a signed byte).
	ErrTopicTooLong = errors.New("message: topic longer than 127 bytes")
	// ErrPropertiesTooLong: the properties are longer than MaxPropertiesLen
	// bytes (PROPERTIESLEN is a signed short; Java PROPERTIES_SIZE_EXCEEDED).
	ErrPropertiesTooLong = errors.New("message: properties longer than 32767 bytes")
	// ErrBodyTooLong: the body (or a batch body) does not fit in an int32
	// record size.
	ErrBodyTooLong = errors.New("message: body too long")
	// ErrHost: a host address is neither a 4- nor a 16-byte IP address.
	ErrHost = errors.New("message: invalid host address")
	// ErrMsgID: an offset message id is not 32 or 56 hexadecimal digits.
	ErrMsgID = errors.New("message: invalid offset message id")
)

// CorruptError describes a record that Java's checkMessageAndReturnSize
// rejects. It matches ErrCorrupt and its Kind (errors.Is).
type CorruptError struct {
	Kind   error  // ErrBadMagic, ErrBadCRC, ErrBadLength or ErrSizeMismatch
	Detail string // what was found
	// Size is the record's TOTALSIZE when Kind is ErrSizeMismatch (Java
	// returns DispatchRequest(totalSize, false) there), otherwise 0.
	Size int32
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%v: %v: %s", ErrCorrupt, e.Kind, e.Detail)
}

// Unwrap lets errors.Is match both ErrCorrupt and the Kind.
func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Kind} }

func corrupt(kind error, format string, args ...any) error {
	return &CorruptError{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
