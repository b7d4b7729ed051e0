// Package storeoracle drives the real Apache RocketMQ 4.9.8 DefaultMessageStore (the Java
// program compat/java/.../StoreOracle.java) and holds the shared "dump" data model: a canonical,
// deterministic JSON-lines description of a store directory as seen through the store's own
// read API. Java produces it with DumpStore; the Go store is meant to produce the same lines so
// that tests can compare the two with Diff. The schema is in README.md.
package storeoracle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrMalformedDump reports a dump stream that does not follow the schema: an unknown line type,
// an unknown field, bad JSON, lines after "closed", or an "end" line whose count disagrees.
var ErrMalformedDump = errors.New("storeoracle: malformed dump")

// maxLine bounds one dump line (a record's hex is twice its size; 4 MiB messages fit).
const maxLine = 64 << 20

// Checkpoint is the "checkpoint" line: the three longs StoreCheckpoint reads at offsets 0, 8 and
// 16 of the checkpoint file, read before the store is opened. The "closed" line repeats them
// after shutdown.
type Checkpoint struct {
	Exists             bool  `json:"exists"`
	PhysicMsgTimestamp int64 `json:"physicMsgTimestamp"`
	LogicsMsgTimestamp int64 `json:"logicsMsgTimestamp"`
	IndexMsgTimestamp  int64 `json:"indexMsgTimestamp"`
}

// File is a "file" line: a file under commitlog/ or consumequeue/ before opening, path
// relative to the store root with '/' separators.
type File struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Store is the "store" line: state before opening, and the physical offsets after recovery.
type Store struct {
	AbortBefore  bool  `json:"abortBefore"`
	LockBefore   bool  `json:"lockBefore"`
	MinPhyOffset int64 `json:"minPhyOffset"`
	MaxPhyOffset int64 `json:"maxPhyOffset"`
}

// Queue is a "queue" line, one per consumequeue/TOPIC/QUEUEID directory.
type Queue struct {
	Topic           string `json:"topic"`
	QueueID         int32  `json:"queueId"`
	MinOffset       int64  `json:"minOffset"`
	MaxOffset       int64  `json:"maxOffset"`
	MessageTotal    int64  `json:"messageTotal"`
	EarliestMsgTime int64  `json:"earliestMsgTime"`
}

// Unit is a "unit" line: one 20-byte consume-queue unit read with ConsumeQueue.getIndexBuffer,
// plus getMessageStoreTimeStamp for its offset.
type Unit struct {
	Topic           string `json:"topic"`
	QueueID         int32  `json:"queueId"`
	Offset          int64  `json:"offset"`
	CommitLogOffset int64  `json:"commitLogOffset"`
	Size            int32  `json:"size"`
	TagsCode        int64  `json:"tagsCode"`
	StoreTime       int64  `json:"storeTime"`
	Missing         bool   `json:"missing,omitempty"`
}

// Get is a "get" line: one getMessage(group, topic, queueId, offset, 32, no filter) call.
type Get struct {
	Topic           string `json:"topic"`
	QueueID         int32  `json:"queueId"`
	Offset          int64  `json:"offset"`
	Status          string `json:"status"`
	NextBeginOffset int64  `json:"nextBeginOffset"`
	MinOffset       int64  `json:"minOffset"`
	MaxOffset       int64  `json:"maxOffset"`
	Count           int    `json:"count"`
	BufferTotalSize int    `json:"bufferTotalSize"`
}

// Message holds a commit-log record's fields as MessageDecoder.decode reads them. Body and Hex
// (the whole record) are lowercase hex; Properties is the raw stored string (\u0001 between
// name and value, \u0002 between pairs). It is the "message" line (from getMessage) and the
// message part of a "record" line.
type Message struct {
	StoreSize                 int32  `json:"storeSize"`
	BodyCRC                   int32  `json:"bodyCRC"`
	Topic                     string `json:"topic"`
	QueueID                   int32  `json:"queueId"`
	Flag                      int32  `json:"flag"`
	QueueOffset               int64  `json:"queueOffset"`
	CommitLogOffset           int64  `json:"commitLogOffset"`
	SysFlag                   int32  `json:"sysFlag"`
	BornTimestamp             int64  `json:"bornTimestamp"`
	BornHost                  string `json:"bornHost"`
	StoreTimestamp            int64  `json:"storeTimestamp"`
	StoreHost                 string `json:"storeHost"`
	ReconsumeTimes            int32  `json:"reconsumeTimes"`
	PreparedTransactionOffset int64  `json:"preparedTransactionOffset"`
	MsgID                     string `json:"msgId"`
	Body                      string `json:"body"`
	Properties                string `json:"properties"`
	Hex                       string `json:"hex"`
	DecodeError               bool   `json:"decodeError,omitempty"`
}

// Record kinds in the commit-log walk.
const (
	KindMessage = "message" // a whole record with MESSAGE_MAGIC_CODE
	KindBlank   = "blank"   // BLANK_MAGIC_CODE end-of-file filler; Size reaches the file end
	KindMissing = "missing" // getCommitLogData returned null; the walk stopped
	KindShort   = "short"   // fewer than 8 bytes readable; the walk stopped
	KindBad     = "bad"     // unknown magic or impossible size; the walk stopped
)

// Record is a "record" line of the physical walk from min to max offset. Blank records carry
// only Offset, Size, Kind and Hex (their first 8 bytes); bad ones carry Magic.
type Record struct {
	Offset int64  `json:"offset"`
	Size   int32  `json:"size"`
	Kind   string `json:"kind"`
	Magic  int32  `json:"magic,omitempty"`
	Message
}

// Query is a "query" line: queryMessage(topic, key, 64, 0, Long.MAX_VALUE) as sorted
// commit-log offsets, for every KEYS word and UNIQ_KEY of every message record.
type Query struct {
	Topic   string  `json:"topic"`
	Key     string  `json:"key"`
	Offsets []int64 `json:"offsets"`
}

// Time is a "time" line: getOffsetInQueueByTime at a message's storeTimestamp -1, 0 and +1.
type Time struct {
	Topic          string  `json:"topic"`
	QueueID        int32   `json:"queueId"`
	QueueOffset    int64   `json:"queueOffset"`
	StoreTimestamp int64   `json:"storeTimestamp"`
	Offsets        []int64 `json:"offsets"`
}

// Closed is the "closed" line written after shutdown(): what Java's own open/close left behind.
type Closed struct {
	Checkpoint
	AbortAfter bool `json:"abortAfter"`
	LockAfter  bool `json:"lockAfter"`
}

// Dump is a whole parsed dump, each slice in stream order (which is sorted by topic, queue id,
// offset).
type Dump struct {
	Checkpoint Checkpoint
	Files      []File
	Store      Store
	Queues     []Queue
	Units      []Unit
	Gets       []Get
	Messages   []Message
	Records    []Record
	Queries    []Query
	Times      []Time
	Lines      int     // the "end" line's count of lines before it
	Closed     *Closed // nil when the stream stopped before shutdown
}

// ParseDump reads a dump stream. Every error wraps ErrMalformedDump except read errors.
func ParseDump(r io.Reader) (*Dump, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	d := &Dump{Lines: -1}
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if d.Closed != nil {
			return nil, fmt.Errorf("%w: line %d after \"closed\"", ErrMalformedDump, n)
		}
		if err := d.parseLine(line, n); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("storeoracle: reading dump: %w", err)
	}
	if d.Lines < 0 {
		return nil, fmt.Errorf("%w: no \"end\" line", ErrMalformedDump)
	}
	return d, nil
}

func (d *Dump) parseLine(line []byte, n int) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return fmt.Errorf("%w: line %d: %v", ErrMalformedDump, n, err)
	}
	if d.Lines >= 0 && head.Type != "closed" {
		return fmt.Errorf("%w: line %d: %q after \"end\"", ErrMalformedDump, n, head.Type)
	}
	var err error
	switch head.Type {
	case "checkpoint":
		err = strict(line, &d.Checkpoint)
	case "file":
		d.Files, err = appendLine(line, d.Files)
	case "store":
		err = strict(line, &d.Store)
	case "queue":
		d.Queues, err = appendLine(line, d.Queues)
	case "unit":
		d.Units, err = appendLine(line, d.Units)
	case "get":
		d.Gets, err = appendLine(line, d.Gets)
	case "message":
		d.Messages, err = appendLine(line, d.Messages)
	case "record":
		d.Records, err = appendLine(line, d.Records)
	case "query":
		d.Queries, err = appendLine(line, d.Queries)
	case "time":
		d.Times, err = appendLine(line, d.Times)
	case "end":
		err = d.parseEnd(line, n)
	case "closed":
		d.Closed = new(Closed)
		err = strict(line, d.Closed)
	default:
		err = fmt.Errorf("unknown line type %q", head.Type)
	}
	if err != nil {
		return fmt.Errorf("%w: line %d: %v", ErrMalformedDump, n, err)
	}
	return nil
}

func (d *Dump) parseEnd(line []byte, n int) error {
	var end struct {
		Lines int `json:"lines"`
	}
	if err := strict(line, &end); err != nil {
		return err
	}
	if got := d.count(); end.Lines != got {
		return fmt.Errorf("\"end\" says %d lines, stream had %d", end.Lines, got)
	}
	d.Lines = end.Lines
	return nil
}

// count is the number of lines parsed before "end" (one checkpoint and one store line).
func (d *Dump) count() int {
	return 2 + len(d.Files) + len(d.Queues) + len(d.Units) + len(d.Gets) + len(d.Messages) +
		len(d.Records) + len(d.Queries) + len(d.Times)
}

func appendLine[T any](line []byte, s []T) ([]T, error) {
	var v T
	if err := strict(line, &v); err != nil {
		return s, err
	}
	return append(s, v), nil
}

// strict decodes one line into v, allowing the "type" member and rejecting any other unknown one.
func strict(line []byte, v any) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return err
	}
	delete(raw, "type")
	rest, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
