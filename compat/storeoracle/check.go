package storeoracle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Property names and separators (MessageConst / MessageDecoder, 4.9.8).
const (
	propTags     = "TAGS"
	propKeys     = "KEYS"
	propUniqKey  = "UNIQ_KEY"
	nameValueSep = "\x01" // MessageDecoder.NAME_VALUE_SEPARATOR
	propertySep  = "\x02" // MessageDecoder.PROPERTY_SEPARATOR
	keySeparator = " "    // MessageConst.KEY_SEPARATOR
)

// Props parses a raw properties string the way MessageDecoder.string2messageProperties does
// (pairs shorter than 3 characters or without a separator inside are skipped; later keys win).
func Props(s string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Split(s, propertySep) {
		i := strings.Index(kv, nameValueSep)
		if len(kv) < 3 || i <= 0 || i >= len(kv)-1 {
			continue
		}
		m[kv[:i]] = kv[i+1:]
	}
	return m
}

// IndexKeys are the index keys the 4.9.8 IndexService.buildIndex adds for a record: UNIQ_KEY and
// every non-empty KEYS word.
func IndexKeys(properties string) []string {
	p := Props(properties)
	var out []string
	if u, ok := p[propUniqKey]; ok {
		out = append(out, u)
	}
	for _, k := range strings.Split(p[propKeys], keySeparator) {
		if k != "" {
			out = append(out, k)
		}
	}
	return out
}

// indexHash is IndexFile.indexKeyHashMethod over IndexService.buildKey: |("topic#key").hashCode()|
// with Integer.MIN_VALUE mapped to 0.
func indexHash(topic, key string) int32 {
	h := jhash.String(topic + "#" + key)
	if h < 0 {
		h = -h
	}
	if h < 0 {
		return 0
	}
	return h
}

// TagsCode is the consume-queue tagsCode of a non-schedule record: the TAGS hash
// (MessageExtBrokerInner.tagsString2tagsCode = String.hashCode) or 0 without TAGS.
func TagsCode(properties string) int64 {
	t, ok := Props(properties)[propTags]
	if !ok || t == "" {
		return 0
	}
	return int64(jhash.String(t))
}

// CheckConsistent checks a dump against itself: the record walk is contiguous and blank
// records fill their file; every consume-queue unit points at a record of its topic/queue with
// its size, queue offset and tagsCode; getMessage returned exactly the records the units name;
// every index query found all records with that key and only records with a colliding key hash.
// It returns one line per problem.
func CheckConsistent(d *Dump, commitLogFileSize int64) []string {
	var out []string
	byOffset := map[int64]*Record{}
	out = append(out, checkWalk(d, commitLogFileSize, byOffset)...)
	out = append(out, checkUnits(d, byOffset)...)
	out = append(out, checkMessages(d, byOffset)...)
	out = append(out, checkQueries(d, byOffset)...)
	return out
}

func checkWalk(d *Dump, fileSize int64, byOffset map[int64]*Record) []string {
	var out []string
	next := d.Store.MinPhyOffset
	for i := range d.Records {
		r := &d.Records[i]
		if r.Offset != next {
			out = append(out, fmt.Sprintf("record %d at %d, expected %d", i, r.Offset, next))
		}
		end := r.Offset + int64(r.Size)
		switch r.Kind {
		case KindBlank:
			if end%fileSize != 0 || r.Size < blankHeaderLen {
				out = append(out, fmt.Sprintf("blank record at %d size %d does not end its %d-byte file", r.Offset, r.Size, fileSize))
			}
		case KindMessage:
			byOffset[r.Offset] = r
			if r.CommitLogOffset != r.Offset || r.StoreSize != r.Size || len(r.Hex) != 2*int(r.Size) || r.DecodeError {
				out = append(out, fmt.Sprintf("record at %d: commitLogOffset %d storeSize %d hex %d decodeError %v",
					r.Offset, r.CommitLogOffset, r.StoreSize, len(r.Hex), r.DecodeError))
			}
			if r.Offset/fileSize != (end-1)/fileSize {
				out = append(out, fmt.Sprintf("record at %d size %d crosses a file boundary", r.Offset, r.Size))
			}
		default:
			out = append(out, fmt.Sprintf("record at %d has kind %q", r.Offset, r.Kind))
		}
		next = end
	}
	if next != d.Store.MaxPhyOffset {
		out = append(out, fmt.Sprintf("walk ends at %d, maxPhyOffset %d", next, d.Store.MaxPhyOffset))
	}
	return out
}

type queueKey struct {
	topic  string
	queue  int32
	offset int64
}

func checkUnits(d *Dump, byOffset map[int64]*Record) []string {
	var out []string
	pointed := map[int64]bool{}
	for _, u := range d.Units {
		r := byOffset[u.CommitLogOffset]
		switch {
		case r == nil:
			out = append(out, fmt.Sprintf("unit %s/%d@%d points at %d: no record", u.Topic, u.QueueID, u.Offset, u.CommitLogOffset))
			continue
		case r.Size != u.Size || r.Topic != u.Topic || r.QueueID != u.QueueID || r.QueueOffset != u.Offset:
			out = append(out, fmt.Sprintf("unit %s/%d@%d size %d vs record %s/%d@%d size %d",
				u.Topic, u.QueueID, u.Offset, u.Size, r.Topic, r.QueueID, r.QueueOffset, r.Size))
		case u.Topic != ScheduleTopic && u.TagsCode != TagsCode(r.Properties):
			out = append(out, fmt.Sprintf("unit %s/%d@%d tagsCode %d, TAGS hash %d", u.Topic, u.QueueID, u.Offset, u.TagsCode, TagsCode(r.Properties)))
		case u.StoreTime != r.StoreTimestamp:
			out = append(out, fmt.Sprintf("unit %s/%d@%d storeTime %d, record %d", u.Topic, u.QueueID, u.Offset, u.StoreTime, r.StoreTimestamp))
		}
		pointed[u.CommitLogOffset] = true
	}
	for _, r := range d.Records {
		if r.Kind != KindMessage {
			continue
		}
		if want := HasConsumeQueueEntry(r.SysFlag); want != pointed[r.Offset] {
			out = append(out, fmt.Sprintf("record at %d (%s/%d sysFlag %d): has unit %v, want %v", r.Offset, r.Topic, r.QueueID, r.SysFlag, pointed[r.Offset], want))
		}
	}
	return out
}

func checkMessages(d *Dump, byOffset map[int64]*Record) []string {
	var out []string
	got := map[int64]bool{}
	for _, m := range d.Messages {
		got[m.CommitLogOffset] = true
		r := byOffset[m.CommitLogOffset]
		if r == nil {
			out = append(out, fmt.Sprintf("getMessage returned offset %d: no record", m.CommitLogOffset))
			continue
		}
		out = append(out, diffOne(fmt.Sprintf("message@%d", m.CommitLogOffset), m, r.Message)...)
	}
	for _, u := range d.Units {
		if !got[u.CommitLogOffset] {
			out = append(out, fmt.Sprintf("unit %s/%d@%d (offset %d) not returned by getMessage", u.Topic, u.QueueID, u.Offset, u.CommitLogOffset))
		}
	}
	return out
}

func checkQueries(d *Dump, byOffset map[int64]*Record) []string {
	var out []string
	want := map[[2]string][]int64{}
	for _, r := range d.Records {
		if r.Kind == KindMessage && HasIndexEntry(r.SysFlag) {
			for _, k := range IndexKeys(r.Properties) {
				want[[2]string{r.Topic, k}] = append(want[[2]string{r.Topic, k}], r.Offset)
			}
		}
	}
	for _, q := range d.Queries {
		found := map[int64]bool{}
		for _, off := range q.Offsets {
			found[off] = true
			if r := byOffset[off]; r == nil || !hashMatches(r, q.Topic, q.Key) {
				out = append(out, fmt.Sprintf("query %s#%q returned %d: not a record with a matching key hash", q.Topic, q.Key, off))
			}
		}
		for _, off := range want[[2]string{q.Topic, q.Key}] {
			if !found[off] {
				out = append(out, fmt.Sprintf("query %s#%q misses record %d", q.Topic, q.Key, off))
			}
		}
		delete(want, [2]string{q.Topic, q.Key})
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k[0]+"#"+k[1])
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, "no query line for "+k)
	}
	return out
}

// HasIndexEntry reports whether IndexService.buildIndex indexes a record with this sysFlag
// (every transaction type but ROLLBACK).
func HasIndexEntry(sysFlag int32) bool { return sysFlag&tranTypeMask != tranRollback }

func hashMatches(r *Record, topic, key string) bool {
	if r.Topic != topic {
		return false
	}
	h := indexHash(topic, key)
	for _, k := range IndexKeys(r.Properties) {
		if indexHash(topic, k) == h {
			return true
		}
	}
	return false
}

// CheckResults checks that every PUT_OK result is in the dump: its records start at
// WroteOffset, cover WroteBytes in MsgNum records, carry its msgIds, store timestamp and (for
// records with a consume-queue entry) queue offsets from LogicsOffset on.
func CheckResults(d *Dump, results []PutResult) []string {
	byOffset := map[int64]*Record{}
	for i := range d.Records {
		byOffset[d.Records[i].Offset] = &d.Records[i]
	}
	var out []string
	for i, res := range results {
		if res.Status != "PUT_OK" {
			out = append(out, fmt.Sprintf("result %d (%s): status %s", i, res.Op, res.Status))
			continue
		}
		out = append(out, checkResult(i, res, byOffset)...)
	}
	return out
}

func checkResult(i int, res PutResult, byOffset map[int64]*Record) []string {
	var out []string
	ids := strings.Split(res.MsgID, ",")
	off, total := res.WroteOffset, int32(0)
	for n := int32(0); n < res.MsgNum; n++ {
		r := byOffset[off]
		if r == nil || r.Kind != KindMessage {
			return append(out, fmt.Sprintf("result %d (%s): no record at %d", i, res.Op, off))
		}
		if int(n) < len(ids) && r.MsgID != ids[n] || r.StoreTimestamp != res.StoreTimestamp {
			out = append(out, fmt.Sprintf("result %d (%s) record %d: msgId %s ts %d vs %s ts %d", i, res.Op, n, r.MsgID, r.StoreTimestamp, res.MsgID, res.StoreTimestamp))
		}
		if HasConsumeQueueEntry(r.SysFlag) && r.QueueOffset != res.LogicsOffset+int64(n) {
			out = append(out, fmt.Sprintf("result %d (%s) record %d: queueOffset %d, want %d", i, res.Op, n, r.QueueOffset, res.LogicsOffset+int64(n)))
		}
		total += r.Size
		off += int64(r.Size)
	}
	if total != res.WroteBytes {
		out = append(out, fmt.Sprintf("result %d (%s): records hold %d bytes, wroteBytes %d", i, res.Op, total, res.WroteBytes))
	}
	return out
}
