package store

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// BrokerRole is MessageStoreConfig.brokerRole (Java enum BrokerRole).
type BrokerRole string

// The broker roles of 4.9.8.
const (
	AsyncMaster BrokerRole = "ASYNC_MASTER"
	SyncMaster  BrokerRole = "SYNC_MASTER"
	Slave       BrokerRole = "SLAVE"
)

// UnmarshalText accepts only Java's enum names (Enum.valueOf), so an
// invalid value keeps the default as in Java.
func (r *BrokerRole) UnmarshalText(b []byte) error {
	switch v := BrokerRole(b); v {
	case AsyncMaster, SyncMaster, Slave:
		*r = v
		return nil
	}
	return fmt.Errorf("no enum constant BrokerRole.%s", b)
}

// FlushDiskType is MessageStoreConfig.flushDiskType.
type FlushDiskType string

// The flush modes of 4.9.8.
const (
	AsyncFlush FlushDiskType = "ASYNC_FLUSH"
	SyncFlush  FlushDiskType = "SYNC_FLUSH"
)

// UnmarshalText accepts only Java's enum names.
func (t *FlushDiskType) UnmarshalText(b []byte) error {
	switch v := FlushDiskType(b); v {
	case AsyncFlush, SyncFlush:
		*t = v
		return nil
	}
	return fmt.Errorf("no enum constant FlushDiskType.%s", b)
}

// Config mirrors org.apache.rocketmq.store.config.MessageStoreConfig of
// 4.9.8: every key (prop tags, Java field order, which is the order
// `mqbroker -p` prints) with Java's defaults (DefaultConfig). Keys Sputnik
// accepts but does not act on are marked "kept for compatibility".
// Getters with logic in Java are methods here (CommitLogDir,
// ConsumeQueueFileSize, DiskMaxUsedRatio, TransientPoolEnabled).
type Config struct {
	StorePathRootDir                         string        `prop:"storePathRootDir,important"`
	StorePathCommitLog                       *string       `prop:"storePathCommitLog,important"`
	StorePathDLedgerCommitLog                *string       `prop:"storePathDLedgerCommitLog,important"` // kept for compatibility
	ReadOnlyCommitLogStorePaths              *string       `prop:"readOnlyCommitLogStorePaths"`         // read-only paths of a multi-path commit log
	MappedFileSizeCommitLog                  int32         `prop:"mappedFileSizeCommitLog"`
	MappedFileSizeConsumeQueue               int32         `prop:"mappedFileSizeConsumeQueue"`
	EnableConsumeQueueExt                    bool          `prop:"enableConsumeQueueExt"`
	MappedFileSizeConsumeQueueExt            int32         `prop:"mappedFileSizeConsumeQueueExt"`
	BitMapLengthConsumeQueueExt              int32         `prop:"bitMapLengthConsumeQueueExt"`
	FlushIntervalCommitLog                   int32         `prop:"flushIntervalCommitLog,important"`
	CommitIntervalCommitLog                  int32         `prop:"commitIntervalCommitLog,important"`
	UseReentrantLockWhenPutMessage           bool          `prop:"useReentrantLockWhenPutMessage"` // kept for compatibility
	FlushCommitLogTimed                      bool          `prop:"flushCommitLogTimed,important"`
	FlushIntervalConsumeQueue                int32         `prop:"flushIntervalConsumeQueue"`
	CleanResourceInterval                    int32         `prop:"cleanResourceInterval"`
	DeleteCommitLogFilesInterval             int32         `prop:"deleteCommitLogFilesInterval"`
	DeleteConsumeQueueFilesInterval          int32         `prop:"deleteConsumeQueueFilesInterval"`
	DestroyMapedFileIntervalForcibly         int32         `prop:"destroyMapedFileIntervalForcibly"`
	RedeleteHangedFileInterval               int32         `prop:"redeleteHangedFileInterval"`
	DeleteWhen                               string        `prop:"deleteWhen,important"`
	DiskMaxUsedSpaceRatio                    int32         `prop:"diskMaxUsedSpaceRatio"`
	FileReservedTime                         int32         `prop:"fileReservedTime,important"`
	PutMsgIndexHightWater                    int32         `prop:"putMsgIndexHightWater"` // kept for compatibility
	MaxMessageSize                           int32         `prop:"maxMessageSize"`
	CheckCRCOnRecover                        bool          `prop:"checkCRCOnRecover"`
	FlushCommitLogLeastPages                 int32         `prop:"flushCommitLogLeastPages"`
	CommitCommitLogLeastPages                int32         `prop:"commitCommitLogLeastPages"`
	FlushLeastPagesWhenWarmMapedFile         int32         `prop:"flushLeastPagesWhenWarmMapedFile"`
	FlushConsumeQueueLeastPages              int32         `prop:"flushConsumeQueueLeastPages"`
	FlushCommitLogThoroughInterval           int32         `prop:"flushCommitLogThoroughInterval"`
	CommitCommitLogThoroughInterval          int32         `prop:"commitCommitLogThoroughInterval"`
	FlushConsumeQueueThoroughInterval        int32         `prop:"flushConsumeQueueThoroughInterval"`
	MaxTransferBytesOnMessageInMemory        int32         `prop:"maxTransferBytesOnMessageInMemory,important"`
	MaxTransferCountOnMessageInMemory        int32         `prop:"maxTransferCountOnMessageInMemory,important"`
	MaxTransferBytesOnMessageInDisk          int32         `prop:"maxTransferBytesOnMessageInDisk,important"`
	MaxTransferCountOnMessageInDisk          int32         `prop:"maxTransferCountOnMessageInDisk,important"`
	AccessMessageInMemoryMaxRatio            int32         `prop:"accessMessageInMemoryMaxRatio,important"`
	MessageIndexEnable                       bool          `prop:"messageIndexEnable,important"`
	MaxHashSlotNum                           int32         `prop:"maxHashSlotNum"`
	MaxIndexNum                              int32         `prop:"maxIndexNum"`
	MaxMsgsNumBatch                          int32         `prop:"maxMsgsNumBatch"`
	MessageIndexSafe                         bool          `prop:"messageIndexSafe,important"`
	HaListenPort                             int32         `prop:"haListenPort"`
	HaSendHeartbeatInterval                  int32         `prop:"haSendHeartbeatInterval"`
	HaHousekeepingInterval                   int32         `prop:"haHousekeepingInterval"`
	HaTransferBatchSize                      int32         `prop:"haTransferBatchSize"`
	HaMasterAddress                          *string       `prop:"haMasterAddress,important"`
	HaSlaveFallbehindMax                     int32         `prop:"haSlaveFallbehindMax"`
	BrokerRole                               BrokerRole    `prop:"brokerRole,important"`
	FlushDiskType                            FlushDiskType `prop:"flushDiskType,important"`
	SyncFlushTimeout                         int32         `prop:"syncFlushTimeout"`
	SlaveTimeout                             int32         `prop:"slaveTimeout"`
	MessageDelayLevel                        string        `prop:"messageDelayLevel"`
	FlushDelayOffsetInterval                 int64         `prop:"flushDelayOffsetInterval"`
	CleanFileForciblyEnable                  bool          `prop:"cleanFileForciblyEnable,important"`
	WarmMapedFileEnable                      bool          `prop:"warmMapedFileEnable"`
	OffsetCheckInSlave                       bool          `prop:"offsetCheckInSlave"`
	DebugLockEnable                          bool          `prop:"debugLockEnable"`   // kept for compatibility
	DuplicationEnable                        bool          `prop:"duplicationEnable"` // kept for compatibility
	DiskFallRecorded                         bool          `prop:"diskFallRecorded"`
	OsPageCacheBusyTimeOutMills              int64         `prop:"osPageCacheBusyTimeOutMills"`
	DefaultQueryMaxNum                       int32         `prop:"defaultQueryMaxNum"`
	TransientStorePoolEnable                 bool          `prop:"transientStorePoolEnable,important"`
	TransientStorePoolSize                   int32         `prop:"transientStorePoolSize"`
	FastFailIfNoBufferInStorePool            bool          `prop:"fastFailIfNoBufferInStorePool"`
	EnableDLegerCommitLog                    bool          `prop:"enableDLegerCommitLog"` // kept for compatibility; DLedger is not supported
	DLegerGroup                              *string       `prop:"dLegerGroup"`
	DLegerPeers                              *string       `prop:"dLegerPeers"`
	DLegerSelfID                             *string       `prop:"dLegerSelfId"`
	PreferredLeaderID                        *string       `prop:"preferredLeaderId"`
	EnableBatchPush                          bool          `prop:"enableBatchPush,field=isEnableBatchPush"`
	EnableScheduleMessageStats               bool          `prop:"enableScheduleMessageStats"`
	EnableLmq                                bool          `prop:"enableLmq"`
	EnableMultiDispatch                      bool          `prop:"enableMultiDispatch"`
	MaxLmqConsumeQueueNum                    int32         `prop:"maxLmqConsumeQueueNum"`
	EnableScheduleAsyncDeliver               bool          `prop:"enableScheduleAsyncDeliver"`
	ScheduleAsyncDeliverMaxPendingLimit      int32         `prop:"scheduleAsyncDeliverMaxPendingLimit"`
	ScheduleAsyncDeliverMaxResendNum2Blocked int32         `prop:"scheduleAsyncDeliverMaxResendNum2Blocked"`
}

// DefaultConfig returns MessageStoreConfig's defaults for a process whose
// home directory is userHome.
func DefaultConfig(userHome string) Config {
	return Config{
		StorePathRootDir:                         filepath.Join(userHome, "store"),
		MappedFileSizeCommitLog:                  1024 * 1024 * 1024,
		MappedFileSizeConsumeQueue:               300000 * 20,
		MappedFileSizeConsumeQueueExt:            48 * 1024 * 1024,
		BitMapLengthConsumeQueueExt:              64,
		FlushIntervalCommitLog:                   500,
		CommitIntervalCommitLog:                  200,
		UseReentrantLockWhenPutMessage:           true,
		FlushCommitLogTimed:                      true,
		FlushIntervalConsumeQueue:                1000,
		CleanResourceInterval:                    10000,
		DeleteCommitLogFilesInterval:             100,
		DeleteConsumeQueueFilesInterval:          100,
		DestroyMapedFileIntervalForcibly:         1000 * 120,
		RedeleteHangedFileInterval:               1000 * 120,
		DeleteWhen:                               "04",
		DiskMaxUsedSpaceRatio:                    75,
		FileReservedTime:                         72,
		PutMsgIndexHightWater:                    600000,
		MaxMessageSize:                           1024 * 1024 * 4,
		CheckCRCOnRecover:                        true,
		FlushCommitLogLeastPages:                 4,
		CommitCommitLogLeastPages:                4,
		FlushLeastPagesWhenWarmMapedFile:         1024 / 4 * 16,
		FlushConsumeQueueLeastPages:              2,
		FlushCommitLogThoroughInterval:           1000 * 10,
		CommitCommitLogThoroughInterval:          200,
		FlushConsumeQueueThoroughInterval:        1000 * 60,
		MaxTransferBytesOnMessageInMemory:        1024 * 256,
		MaxTransferCountOnMessageInMemory:        32,
		MaxTransferBytesOnMessageInDisk:          1024 * 64,
		MaxTransferCountOnMessageInDisk:          8,
		AccessMessageInMemoryMaxRatio:            40,
		MessageIndexEnable:                       true,
		MaxHashSlotNum:                           5000000,
		MaxIndexNum:                              5000000 * 4,
		MaxMsgsNumBatch:                          64,
		HaListenPort:                             10912,
		HaSendHeartbeatInterval:                  1000 * 5,
		HaHousekeepingInterval:                   1000 * 20,
		HaTransferBatchSize:                      1024 * 32,
		HaSlaveFallbehindMax:                     1024 * 1024 * 256,
		BrokerRole:                               AsyncMaster,
		FlushDiskType:                            AsyncFlush,
		SyncFlushTimeout:                         1000 * 5,
		SlaveTimeout:                             3000,
		MessageDelayLevel:                        "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h",
		FlushDelayOffsetInterval:                 1000 * 10,
		CleanFileForciblyEnable:                  true,
		DiskFallRecorded:                         true,
		OsPageCacheBusyTimeOutMills:              1000,
		DefaultQueryMaxNum:                       32,
		TransientStorePoolSize:                   5,
		EnableScheduleMessageStats:               true,
		MaxLmqConsumeQueueNum:                    20000,
		ScheduleAsyncDeliverMaxPendingLimit:      2000,
		ScheduleAsyncDeliverMaxResendNum2Blocked: 3,
	}
}

// CommitLogPaths is getStorePathCommitLog split as Java splits it at
// MessageStoreConfig.MULTI_PATH_SPLITTER (","; the
// rocketmq.broker.multiPathSplitter property is not read): the configured
// path or <root>/commitlog, or the paths of a multi-path commit log
// (MultiPathMappedFileQueue), in the order given. Unlike Java, each path
// is trimmed ("/a, /b" would give Java a relative " /b") and empty or
// repeated ones are dropped.
func (c *Config) CommitLogPaths() []string {
	if c.StorePathCommitLog == nil {
		return []string{filepath.Join(c.StorePathRootDir, "commitlog")}
	}
	return splitPaths(*c.StorePathCommitLog)
}

// MultiPathCommitLog reports whether storePathCommitLog names several
// paths (Java: it contains the splitter).
func (c *Config) MultiPathCommitLog() bool {
	return c.StorePathCommitLog != nil && strings.Contains(*c.StorePathCommitLog, ",")
}

// ReadOnlyCommitLogPaths is readOnlyCommitLogStorePaths split the same
// way: directories a multi-path commit log reads but never writes to.
func (c *Config) ReadOnlyCommitLogPaths() []string {
	if c.ReadOnlyCommitLogStorePaths == nil {
		return nil
	}
	return splitPaths(*c.ReadOnlyCommitLogStorePaths)
}

func splitPaths(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// ConsumeQueueFileSize is getMappedFileSizeConsumeQueue: the configured
// size rounded up to whole 20-byte units.
func (c *Config) ConsumeQueueFileSize() int64 {
	const unit = 20
	return int64(math.Ceil(float64(c.MappedFileSizeConsumeQueue)/unit)) * unit
}

// DiskMaxUsedRatio is getDiskMaxUsedSpaceRatio: clamped to [10, 95].
func (c *Config) DiskMaxUsedRatio() int32 {
	return min(max(c.DiskMaxUsedSpaceRatio, 10), 95)
}

// TransientPoolEnabled is isTransientStorePoolEnable: only for an async
// flushing master.
func (c *Config) TransientPoolEnabled() bool {
	return c.TransientStorePoolEnable && c.FlushDiskType == AsyncFlush && c.BrokerRole != Slave
}
