package message

import "github.com/sputnikmq/sputnik/compat/javalang/jhash"

// Sysflag bits (Java MessageSysFlag, 4.9.8). Part of the format.
const (
	FlagCompressed      int32 = 0x1      // COMPRESSED_FLAG: body is compressed
	FlagMultiTags       int32 = 0x1 << 1 // MULTI_TAGS_FLAG: topic filter type MULTI_TAG
	TransactionNotType  int32 = 0        // TRANSACTION_NOT_TYPE
	TransactionPrepare  int32 = 0x1 << 2 // TRANSACTION_PREPARED_TYPE
	TransactionCommit   int32 = 0x2 << 2 // TRANSACTION_COMMIT_TYPE
	TransactionRollback int32 = 0x3 << 2 // TRANSACTION_ROLLBACK_TYPE (also the mask)
	FlagBornHostV6      int32 = 0x1 << 4 // BORNHOST_V6_FLAG
	FlagStoreHostV6     int32 = 0x1 << 5 // STOREHOSTADDRESS_V6_FLAG
	FlagNeedUnwrap      int32 = 0x1 << 6 // NEED_UNWRAP_FLAG (used by 5.x only)
	FlagInnerBatch      int32 = 0x1 << 7 // INNER_BATCH_FLAG (used by 5.x only)

	CompressionLZ4  int32 = 0x1 << 8 // COMPRESSION_LZ4_TYPE
	CompressionZSTD int32 = 0x2 << 8 // COMPRESSION_ZSTD_TYPE
	CompressionZLIB int32 = 0x3 << 8 // COMPRESSION_ZLIB_TYPE
	CompressionMask int32 = 0x7 << 8 // COMPRESSION_TYPE_COMPARATOR
)

// TransactionType is MessageSysFlag.getTransactionValue: one of
// TransactionNotType, TransactionPrepare, TransactionCommit,
// TransactionRollback.
func TransactionType(sysFlag int32) int32 { return sysFlag & TransactionRollback }

// SetTransactionType is MessageSysFlag.resetTransactionValue.
func SetTransactionType(sysFlag, typ int32) int32 {
	return sysFlag&^TransactionRollback | typ
}

// Consumable reports whether a record with this sysflag gets a consume-queue
// entry and a queue offset: DefaultAppendMessageCallback.doAppend gives
// PREPARED and ROLLBACK records queue offset 0 and does not advance the
// queue.
func Consumable(sysFlag int32) bool {
	t := TransactionType(sysFlag)
	return t == TransactionNotType || t == TransactionCommit
}

// CompressionType returns the compression type bits shifted down
// ((flag & 0x700) >> 8): 0 and 3 are ZLIB (0 from clients that predate the
// field), 1 LZ4, 2 ZSTD; Java throws on 4..7.
func CompressionType(sysFlag int32) int32 { return sysFlag & CompressionMask >> 8 }

// HostFlags returns the two host-width bits for these hosts.
func HostFlags(born, store Host) int32 {
	var f int32
	if born.Addr.Is6() {
		f |= FlagBornHostV6
	}
	if store.Addr.Is6() {
		f |= FlagStoreHostV6
	}
	return f
}

// TagsCode is MessageExtBrokerInner.tagsString2tagsCode: Java's
// String.hashCode of the tag (UTF-16), sign-extended to int64; 0 for an
// empty tag. 4.9.8 ignores the topic filter type (MULTI_TAG topics hash
// the whole string too).
func TagsCode(tag string) int64 {
	if tag == "" {
		return 0
	}
	return int64(jhash.String(tag))
}
