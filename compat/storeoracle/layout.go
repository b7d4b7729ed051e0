package storeoracle

import (
	"fmt"
	"net"
)

// The commit-log record layout as far as the dump needs it (CommitLog.calMsgLength and
// MessageDecoder.decode, 4.9.8). Part of the format, do not change.
//
//	+-----------+-----------+---------+---------+------+-------------+-----------------+
//	| TOTALSIZE | MAGICCODE | BODYCRC | QUEUEID | FLAG | QUEUEOFFSET | PHYSICALOFFSET  |
//	|    4      |    4      |   4     |   4     |  4   |     8       |       8         |
//	+-----------+-----------+---------+---------+------+-------------+-----------------+
//	| SYSFLAG | BORNTIMESTAMP | BORNHOST (ip 4|16 + port 4) | STORETIMESTAMP | STOREHOST ... |
//	|   4     |      8        |          8 | 20             |       8        |   8 | 20      |
//	+---------+---------------+-----------------------------+----------------+---------------+
//	| RECONSUMETIMES | PREPAREDTXOFFSET | BODYLEN | BODY | TOPICLEN | TOPIC | PROPLEN | PROPS |
//	|       4        |        8         |    4    |  n   |    1     |   n   |    2    |   n   |
//	+----------------+------------------+---------+------+----------+-------+---------+-------+
const (
	sysFlagPos       = 4 + 4 + 4 + 4 + 4 + 8 + 8 // MessageDecoder.SYSFLAG_POSITION
	bornTimestampPos = sysFlagPos + 4            // BORNTIMESTAMP
	bornHostPos      = bornTimestampPos + 8      // BORNHOST
	bornHostV6Flag   = 0x1 << 4                  // MessageSysFlag.BORNHOST_V6_FLAG
	storeHostV6Flag  = 0x1 << 5                  // MessageSysFlag.STOREHOSTADDRESS_V6_FLAG
	ipv4HostLen      = 4 + 4                     // address + port
	ipv6HostLen      = 16 + 4                    // address + port
	blankHeaderLen   = 4 + 4                     // TOTALSIZE + BLANK_MAGIC_CODE
	messageMagic     = -626843481                // CommitLog.MESSAGE_MAGIC_CODE (0xdaa320a7)
	blankMagic       = -875286124                // CommitLog.BLANK_MAGIC_CODE (0xcbd43194)
	tranTypeMask     = 0x1<<2 | 0x1<<3           // MessageSysFlag.TRANSACTION_ROLLBACK_TYPE
	tranPrepared     = 0x1 << 2                  // MessageSysFlag.TRANSACTION_PREPARED_TYPE
	tranCommit       = 0x1 << 3                  // MessageSysFlag.TRANSACTION_COMMIT_TYPE
	tranRollback     = 0x1<<2 | 0x1<<3           // MessageSysFlag.TRANSACTION_ROLLBACK_TYPE
	cqUnitSize       = 8 + 4 + 8                 // ConsumeQueue.CQ_STORE_UNIT_SIZE
)

// StoreTimestampPos is the byte offset of STORETIMESTAMP in a record with this sysFlag.
func StoreTimestampPos(sysFlag int32) int {
	if sysFlag&bornHostV6Flag != 0 {
		return bornHostPos + ipv6HostLen
	}
	return bornHostPos + ipv4HostLen
}

// HasConsumeQueueEntry reports whether the reput service dispatches a record with this sysFlag
// to its consume queue (CommitLogDispatcherBuildConsumeQueue: NOT_TYPE and COMMIT_TYPE only).
func HasConsumeQueueEntry(sysFlag int32) bool {
	t := sysFlag & tranTypeMask
	return t != tranPrepared && t != tranRollback
}

// FormatHost spells an address the way the dump does: "a.b.c.d:port" for IPv4 and
// "[h:h:h:h:h:h:h:h]:port" for IPv6, with Java's Inet6Address.getHostAddress form (eight
// lowercase groups without leading zeros, no "::" compression).
func FormatHost(ip net.IP, port int) string {
	if v4 := ip.To4(); v4 != nil { // IPv4-mapped too: Java's getByAddress makes an Inet4Address

		return fmt.Sprintf("%d.%d.%d.%d:%d", v4[0], v4[1], v4[2], v4[3], port)
	}
	ip16 := ip.To16()
	if ip16 == nil {
		return fmt.Sprintf("?:%d", port)
	}
	s := "["
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			s += ":"
		}
		s += fmt.Sprintf("%x", uint16(ip16[i])<<8|uint16(ip16[i+1]))
	}
	return s + fmt.Sprintf("]:%d", port)
}
