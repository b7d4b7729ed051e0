package message

import "math"

// The commit-log message record of RocketMQ 4.9.8, big-endian, as written
// by CommitLog.MessageExtEncoder.encode and stamped by
// DefaultAppendMessageCallback.doAppend (the same layout is what
// MessageDecoder.encode/decode use for pull, query and view bodies).
// Part of the on-disk format: do not change.
//
//	  0        4        8        12       16       20
//	  +--------+--------+--------+--------+--------+-----------------+
//	  |TOTAL   |MAGIC   |BODYCRC |QUEUEID |FLAG    |QUEUEOFFSET (8)  |
//	  |SIZE    |DAA320A7|        |        |        |                 |
//	  +--------+--------+--------+--------+--------+-----------------+
//	 28                 36       40                48
//	  +-----------------+--------+-----------------+------------------+
//	  |PHYSICALOFFSET(8)|SYSFLAG |BORNTIMESTAMP (8)|BORNHOST          |
//	  +-----------------+--------+-----------------+ IPv4: ip4 port4  |
//	                                               | IPv6: ip16 port4 |
//	                                               +------------------+
//	 56 (IPv4 born host) / 68 (IPv6 born host)
//	  +-----------------+------------------+--------+------------------+
//	  |STORETIMESTAMP(8)|STOREHOST (8|20)  |RECONSU-|PREPARED TX       |
//	  |                 |                  |METIMES |OFFSET (8)        |
//	  +-----------------+------------------+--------+------------------+
//	 84 (both IPv4) ... 108 (both IPv6)
//	  +--------+---------------+-----+----------------+-----+-------------+
//	  |BODYLEN |BODY (BODYLEN) |TOPIC|TOPIC (TOPICLEN)|PROPS|PROPERTIES   |
//	  |        |               |LEN 1|                |LEN 2|(PROPSLEN)   |
//	  +--------+---------------+-----+----------------+-----+-------------+
//
// Each IPv6 host (sysflag BORNHOST_V6 0x10, STOREHOSTADDRESS_V6 0x20) adds
// 12 bytes to every offset after it; TOTALSIZE = 91 + body + topic +
// properties with two IPv4 hosts (Java CommitLog.calMsgLength).
//
// The end-of-file blank written when a record does not fit in the rest of a
// segment (Java END_FILE_MIN_BLANK_LENGTH):
//
//	+-----------------------+--------------------+
//	| TOTALSIZE = remaining | MAGIC = CBD43194   |   then padding
//	+-----------------------+--------------------+

const (
	// MagicMessage is CommitLog.MESSAGE_MAGIC_CODE (0xDAA320A7).
	MagicMessage int32 = -626843481
	// MagicBlank is CommitLog.BLANK_MAGIC_CODE (0xCBD43194).
	MagicBlank int32 = -875286124
	// BlankSize is DefaultAppendMessageCallback.END_FILE_MIN_BLANK_LENGTH:
	// the bytes of a blank record that are written, and the room every
	// segment keeps after its last record.
	BlankSize = 4 + 4

	// RecordHeadroom is what a whole record may add to maxMessageSize
	// (CommitLog.MessageExtEncoder: maxMessageBodySize + 64 * 1024,
	// capped at Integer.MAX_VALUE); see MaxRecordSize.
	RecordHeadroom = 64 * 1024

	// MaxTopicLen is Byte.MAX_VALUE: TOPICLEN is a signed byte.
	MaxTopicLen = 127
	// MaxPropertiesLen is Short.MAX_VALUE: PROPERTIESLEN is a signed short.
	MaxPropertiesLen = 32767
)

// Offsets that do not depend on the sysflag.
const (
	OffTotalSize      = 0
	OffMagic          = OffTotalSize + 4 // MessageDecoder.MESSAGE_MAGIC_CODE_POSTION
	OffBodyCRC        = OffMagic + 4
	OffQueueID        = OffBodyCRC + 4
	OffFlag           = OffQueueID + 4        // MessageDecoder.MESSAGE_FLAG_POSTION
	OffQueueOffset    = OffFlag + 4           // MessageDecoder.QUEUE_OFFSET_POSITION
	OffPhysicalOffset = OffQueueOffset + 8    // MessageDecoder.PHY_POS_POSITION
	OffSysFlag        = OffPhysicalOffset + 8 // MessageDecoder.SYSFLAG_POSITION
	OffBornTimestamp  = OffSysFlag + 4
	OffBornHost       = OffBornTimestamp + 8
)

// Host field sizes: address then int32 port.
const (
	hostSizeV4 = 4 + 4
	hostSizeV6 = 16 + 4
)

// Layout holds the offsets that move with the host widths.
type Layout struct {
	BornHostSize     int // 8 or 20
	StoreTimestamp   int
	StoreHost        int
	StoreHostSize    int // 8 or 20
	ReconsumeTimes   int
	PreparedTxOffset int
	BodyLen          int
	Body             int // first body byte; BODY is followed by TOPICLEN
}

// fixedTail counts TOPICLEN and PROPERTIESLEN, the fixed bytes after BODY.
const fixedTail = 1 + 2

// Offsets returns the layout of a record with this sysflag.
func Offsets(sysFlag int32) Layout {
	var l Layout
	l.BornHostSize = hostSize(sysFlag & FlagBornHostV6)
	l.StoreTimestamp = OffBornHost + l.BornHostSize
	l.StoreHost = l.StoreTimestamp + 8
	l.StoreHostSize = hostSize(sysFlag & FlagStoreHostV6)
	l.ReconsumeTimes = l.StoreHost + l.StoreHostSize
	l.PreparedTxOffset = l.ReconsumeTimes + 4
	l.BodyLen = l.PreparedTxOffset + 8
	l.Body = l.BodyLen + 4
	return l
}

func hostSize(v6 int32) int {
	if v6 != 0 {
		return hostSizeV6
	}
	return hostSizeV4
}

// RecordSize is CommitLog.calMsgLength: the TOTALSIZE of a record with
// these lengths. Like Java, a negative body or properties length counts as
// 0. It is computed in int, so it does not wrap as Java's int would for
// lengths near 2^31.
func RecordSize(sysFlag int32, bodyLen, topicLen, propsLen int) int {
	return Offsets(sysFlag).Body + max(bodyLen, 0) + fixedTail + topicLen + max(propsLen, 0)
}

// MaxRecordSize is the largest record a store with maxMessageSize (the
// body limit) accepts, as Java's MessageExtEncoder computes it.
func MaxRecordSize(maxMessageSize int) int {
	if math.MaxInt32-maxMessageSize < RecordHeadroom {
		return math.MaxInt32
	}
	return maxMessageSize + RecordHeadroom
}
