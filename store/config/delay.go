package config

import (
	"fmt"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// DelayOffsets is the content of delayOffset.json
// (DelayOffsetSerializeWrapper): ScheduleMessageService.offsetTable,
// delay level → offset in SCHEDULE_TOPIC_XXXX queue level-1.
type DelayOffsets struct {
	table *chm[int32, int64]
}

// NewDelayOffsets returns an empty table as ScheduleMessageService creates
// it (capacity 32).
func NewDelayOffsets() *DelayOffsets {
	return &DelayOffsets{table: newCHM[int32, int64](intHash, capDelay)}
}

// Get returns the offset of level.
func (t *DelayOffsets) Get(level int32) (int64, bool) { return t.table.Get(level) }

// Put stores the offset of level (ScheduleMessageService.updateOffset).
func (t *DelayOffsets) Put(level int32, offset int64) { t.table.Put(level, offset) }

// Len returns the number of levels.
func (t *DelayOffsets) Len() int { return t.table.Len() }

// Range calls f in the file's order until f returns false.
func (t *DelayOffsets) Range(f func(level int32, offset int64) bool) { t.table.Range(f) }

// Encode is ScheduleMessageService.encode(true), the file's form.
func (t *DelayOffsets) Encode() []byte { return t.encode(fastjson.Pretty) }

// EncodeCompact is ScheduleMessageService.encode(), what
// GET_ALL_DELAY_OFFSET answers.
func (t *DelayOffsets) EncodeCompact() []byte { return t.encode(fastjson.Compact) }

func (t *DelayOffsets) encode(mode fastjson.Mode) []byte {
	w := fastjson.NewWriter(mode)
	w.BeginObject()
	w.Key("offsetTable")
	w.BeginObject()
	t.table.Range(func(level int32, off int64) bool {
		w.KeyInt(int64(level))
		w.Int64(off)
		return true
	})
	w.EndObject()
	w.EndObject()
	return w.Bytes()
}

// DecodeDelayOffsets is ScheduleMessageService.decode into a fresh
// service: fastjson's default-capacity map, filled in file order, is putAll
// into the capacity-32 table. A null offsetTable throws in Java
// (ErrCorrupt); a missing one is the wrapper's empty default.
func DecodeDelayOffsets(data []byte) (*DelayOffsets, error) {
	t := NewDelayOffsets()
	root, ok, err := parseRoot(data, delayOffsetFile)
	if !ok {
		return t, err
	}
	var d fastjson.Decoder
	wrapper := newCHM[int32, int64](intHash, capDelay) // the wrapper's own initial table
	for k, v := range root.Members() {
		if matchField(k, offsetWrapperFields) != "offsetTable" {
			continue
		}
		if v.IsNull() {
			d.Fail(fmt.Errorf("offsetTable is null"))
		}
		wrapper = newCHM[int32, int64](intHash, capDefaultCHM)
		decodeIntTable(&d, v, wrapper)
	}
	t.table.PutAll(wrapper)
	return t, finish(&d, delayOffsetFile)
}
