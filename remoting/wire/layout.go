package wire

// This file is the one place that describes the remoting byte layouts.
// Java 4.9.8 mirrors: NettyEncoder/NettyDecoder (LengthFieldBasedFrameDecoder
// with lengthFieldLength 4 and initialBytesToStrip 4), RemotingCommand.decode,
// RemotingCommand.markProtocolType and RocketMQSerializable.
//
// Frame (all integers big-endian):
//
//	+--------+------+------------------+------------------+----------------+
//	| length | type | headerLen        | header           | body           |
//	| int32  | byte | uint24           | headerLen bytes  | the rest       |
//	+--------+------+------------------+------------------+----------------+
//	0        4      5                  8                  8+headerLen
//
//	length    = 4 + headerLen + len(body): it does not count itself
//	type      = SerializeType: 0 JSON, 1 ROCKETMQ
//	headerLen = low 24 bits of the second int (mask 0xFFFFFF)
//
// ROCKETMQ binary header (SerializeType 1):
//
//	+------+------+---------+--------+------+-----------+--------+-----------+---------+
//	| code | lang | version | opaque | flag | remarkLen | remark | extLen    | ext map |
//	| i16  | u8   | i16     | i32    | i32  | i32       | bytes  | i32       | bytes   |
//	+------+------+---------+--------+------+-----------+--------+-----------+---------+
//	0      2      3         5        9      13          17       17+remarkLen
//
//	ext map entry: keyLen i16 | key | valLen i32 | value, repeated to fill extLen
//
//	A zero remarkLen, keyLen or valLen is a null string to Java; a null ext
//	value is an absent field, so the decoder drops such entries.

const (
	// lengthFieldSize is the frame's leading int32.
	lengthFieldSize = 4
	// typeAndLenSize is the serialize-type byte plus the 24-bit header length.
	typeAndLenSize = 4
	// FramePrefixSize is what precedes the header on the wire.
	FramePrefixSize = lengthFieldSize + typeAndLenSize

	// headerLenMask extracts the header length from the second int.
	headerLenMask = 0xFFFFFF
	// MaxHeaderLen is the largest header the 24-bit field can carry.
	MaxHeaderLen = headerLenMask

	// DefaultMaxFrameLength mirrors com.rocketmq.remoting.frameMaxLength
	// (16 MiB). Netty compares it with the length field plus 4.
	DefaultMaxFrameLength = 16 << 20
)

// Offsets inside the ROCKETMQ header, derived from the field sizes.
const (
	binCodeOff      = 0
	binLangOff      = binCodeOff + 2
	binVersionOff   = binLangOff + 1
	binOpaqueOff    = binVersionOff + 2
	binFlagOff      = binOpaqueOff + 4
	binRemarkLenOff = binFlagOff + 4
	binRemarkOff    = binRemarkLenOff + 4

	// binFixedLen is the header with no remark and no ext map: 21 bytes.
	binFixedLen = binRemarkOff + 4

	binKeyLenSize = 2
	binValLenSize = 4
)
