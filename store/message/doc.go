// Package message holds the byte formats of a RocketMQ 4.9.8 message as the
// store and the wire see it: the commit-log record (layout.go), its
// properties string (properties.go), the sysflag bits (sysflag.go), the
// offset message id (msgid.go) and the SEND_BATCH_MESSAGE body together
// with the stored records Java builds from it (batch.go).
//
// Encoding is append-style into a caller's buffer and decoding is zero-copy:
// a decoded Record's Body and Properties alias the input. Nothing here does
// I/O, locking or logging; the commit log encodes a record outside its lock
// with AppendRecord and stamps the position fields in place under it with
// PatchPosition, as Java's CommitLog.asyncPutMessage and doAppend do.
//
// Errors: ErrShort when the input ends inside a record, ErrBlank for the
// end-of-file blank record, and errors matching ErrCorrupt (with a more
// precise sentinel: ErrBadMagic, ErrBadCRC, ErrBadLength, ErrSizeMismatch)
// for everything Java's CommitLog.checkMessageAndReturnSize rejects.
// Encoding errors (ErrTopicTooLong, ErrPropertiesTooLong, ErrHost, …) say
// what the caller asked for that the format cannot hold.
package message
