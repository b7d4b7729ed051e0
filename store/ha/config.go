package ha

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Config holds the MessageStoreConfig keys replication uses.
type Config struct {
	// HeartbeatInterval is haSendHeartbeatInterval: how long a side stays
	// silent before it sends a heartbeat (a master an empty frame, a slave
	// its offset again).
	HeartbeatInterval time.Duration
	// HousekeepingInterval is haHousekeepingInterval: a connection that
	// has carried nothing for this long is closed.
	HousekeepingInterval time.Duration
	// BatchSize is haTransferBatchSize, the most data in one frame.
	BatchSize int
	// FallbehindMax is haSlaveFallbehindMax: a SYNC_MASTER put does not
	// wait for slaves this many bytes behind (SLAVE_NOT_AVAILABLE).
	FallbehindMax int64
	// Log receives the connection events Java logs.
	Log *logrus.Entry
}

func (c Config) withDefaults() Config {
	if c.HeartbeatInterval <= 0 {
		c.HeartbeatInterval = 5 * time.Second
	}
	if c.HousekeepingInterval <= 0 {
		c.HousekeepingInterval = 20 * time.Second
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 32 * 1024
	}
	if c.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		c.Log = logrus.NewEntry(l)
	}
	return c
}

// Source is the master's commit log.
type Source interface {
	// MaxOffset is the offset just past the last byte written.
	MaxOffset() int64
	// SegmentSize is the size of a commit-log file.
	SegmentSize() int64
	// ReadFrom returns what is written from off to the end of off's file,
	// held until released (Java getCommitLogData).
	ReadFrom(off int64) (segment.View, error)
}

// Sink is the slave's commit log.
type Sink interface {
	// MaxOffset is the offset just past the last byte written.
	MaxOffset() int64
	// AppendAt appends data at off, which must be where the log ends (or,
	// in an empty log, the start of a file) (Java appendToCommitLog).
	AppendAt(off int64, data []byte) error
}
