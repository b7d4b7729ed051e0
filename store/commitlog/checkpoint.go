package commitlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/sputnikmq/sputnik/store/segment"
)

// The checkpoint file (Java StoreCheckpoint), one page long:
//
//	+--------------------+--------------------+--------------------+-- ... --+
//	| physicMsgTimestamp | logicsMsgTimestamp | indexMsgTimestamp  |  zeros  |
//	|      int64 BE      |      int64 BE      |      int64 BE      |         |
//	+--------------------+--------------------+--------------------+-- ... --+
//	0                    8                    16                   24     4096
//
// Each is the store timestamp (ms) of the newest data known durable in the
// commit log, the consume queues and the index. Part of the format, do not
// change.
const (
	checkpointPhysicPos = 0
	checkpointLogicsPos = checkpointPhysicPos + 8
	checkpointIndexPos  = checkpointLogicsPos + 8
	checkpointUsed      = checkpointIndexPos + 8
	// CheckpointFileSize is the file's size: Java maps one OS page.
	CheckpointFileSize = segment.PageSize
	// recoverySafety is how far before the checkpoint an abnormal recovery
	// starts (StoreCheckpoint.getMinTimestamp subtracts 3 s).
	recoverySafety = 3000
)

// Checkpoint holds the three timestamps and writes them to the checkpoint
// file on Flush.
type Checkpoint struct {
	path   string
	f      segment.File
	mu     sync.Mutex // serialises Flush
	physic atomic.Int64
	logics atomic.Int64
	index  atomic.Int64
}

// OpenCheckpoint opens (or creates) the checkpoint file at path and reads
// its timestamps. A short file reads as zeros beyond its end, as Java's
// mapping of one page does.
func OpenCheckpoint(fsys segment.FS, path string) (*Checkpoint, error) {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	f, err := fsys.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	var buf [checkpointUsed]byte
	if _, err := f.ReadAt(buf[:], 0); err != nil && !errors.Is(err, io.EOF) {
		_ = f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	c := &Checkpoint{path: path, f: f}
	c.physic.Store(int64(binary.BigEndian.Uint64(buf[checkpointPhysicPos:])))
	c.logics.Store(int64(binary.BigEndian.Uint64(buf[checkpointLogicsPos:])))
	c.index.Store(int64(binary.BigEndian.Uint64(buf[checkpointIndexPos:])))
	return c, nil
}

// Physic is the commit log's durable store timestamp.
func (c *Checkpoint) Physic() int64 { return c.physic.Load() }

// Logics is the consume queues' durable store timestamp.
func (c *Checkpoint) Logics() int64 { return c.logics.Load() }

// Index is the index's durable store timestamp.
func (c *Checkpoint) Index() int64 { return c.index.Load() }

// SetPhysic records the commit log's durable store timestamp.
func (c *Checkpoint) SetPhysic(ms int64) { c.physic.Store(ms) }

// SetLogics records the consume queues' durable store timestamp.
func (c *Checkpoint) SetLogics(ms int64) { c.logics.Store(ms) }

// SetIndex records the index's durable store timestamp.
func (c *Checkpoint) SetIndex(ms int64) { c.index.Store(ms) }

// MinTimestamp is where an abnormal recovery may start: the older of the
// commit-log and consume-queue timestamps less 3 s, not below 0 (Java
// getMinTimestamp).
func (c *Checkpoint) MinTimestamp() int64 {
	return max(min(c.Physic(), c.Logics())-recoverySafety, 0)
}

// MinTimestampIndex also accounts for the index (Java
// getMinTimestampIndex, used when messageIndexSafe is set).
func (c *Checkpoint) MinTimestampIndex() int64 {
	return min(c.MinTimestamp(), c.Index())
}

// Flush writes the timestamps and fsyncs the file, keeping it one page long.
func (c *Checkpoint) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var page [CheckpointFileSize]byte
	binary.BigEndian.PutUint64(page[checkpointPhysicPos:], uint64(c.Physic()))
	binary.BigEndian.PutUint64(page[checkpointLogicsPos:], uint64(c.Logics()))
	binary.BigEndian.PutUint64(page[checkpointIndexPos:], uint64(c.Index()))
	if _, err := c.f.WriteAt(page[:checkpointUsed], 0); err != nil {
		return fmt.Errorf("checkpoint %s: %w", c.path, err)
	}
	if st, err := c.f.Stat(); err == nil && st.Size() < CheckpointFileSize {
		if _, err := c.f.WriteAt(page[checkpointUsed:], checkpointUsed); err != nil {
			return fmt.Errorf("checkpoint %s: %w", c.path, err)
		}
	}
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("checkpoint %s: fsync: %w", c.path, err)
	}
	return nil
}

// Close flushes and closes the file (Java shutdown).
func (c *Checkpoint) Close() error {
	err := c.Flush()
	return errors.Join(err, c.f.Close())
}
