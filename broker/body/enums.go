package body

import (
	"strings"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// ConsumeType is org.apache.rocketmq.common.protocol.heartbeat.ConsumeType;
// the zero value is Java null.
type ConsumeType uint8

// ConsumeType values in Java declaration (ordinal) order, after null.
const (
	ConsumeTypeNull  ConsumeType = iota
	ConsumeActively              // CONSUME_ACTIVELY, pull
	ConsumePassively             // CONSUME_PASSIVELY, push
)

var consumeTypeNames = []string{"", "CONSUME_ACTIVELY", "CONSUME_PASSIVELY"}

// String returns the Java name ("" for null).
func (t ConsumeType) String() string { return enumName(consumeTypeNames, uint8(t)) }

// MessageModel is org.apache.rocketmq.common.protocol.heartbeat.MessageModel;
// the zero value is Java null.
type MessageModel uint8

// MessageModel values in Java ordinal order, after null.
const (
	MessageModelNull MessageModel = iota
	Broadcasting                  // BROADCASTING
	Clustering                    // CLUSTERING
)

var messageModelNames = []string{"", "BROADCASTING", "CLUSTERING"}

// String returns the Java name ("" for null).
func (m MessageModel) String() string { return enumName(messageModelNames, uint8(m)) }

// ConsumeFromWhere is org.apache.rocketmq.common.consumer.ConsumeFromWhere;
// the zero value is Java null.
type ConsumeFromWhere uint8

// ConsumeFromWhere values in Java ordinal order, after null.
const (
	ConsumeFromWhereNull                         ConsumeFromWhere = iota
	ConsumeFromLastOffset                                         // CONSUME_FROM_LAST_OFFSET
	ConsumeFromLastOffsetAndFromMinWhenBootFirst                  // deprecated
	ConsumeFromMinOffset                                          // deprecated
	ConsumeFromMaxOffset                                          // deprecated
	ConsumeFromFirstOffset                                        // CONSUME_FROM_FIRST_OFFSET
	ConsumeFromTimestamp                                          // CONSUME_FROM_TIMESTAMP
)

var consumeFromWhereNames = []string{"", "CONSUME_FROM_LAST_OFFSET",
	"CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST", "CONSUME_FROM_MIN_OFFSET",
	"CONSUME_FROM_MAX_OFFSET", "CONSUME_FROM_FIRST_OFFSET", "CONSUME_FROM_TIMESTAMP"}

// String returns the Java name ("" for null).
func (c ConsumeFromWhere) String() string { return enumName(consumeFromWhereNames, uint8(c)) }

func enumName(names []string, v uint8) string {
	if int(v) < len(names) {
		return names[v]
	}
	return ""
}

// decodeEnum is fastjson 1.2.69's EnumDeserializer: a string is looked
// up by name, exactly and then ignoring case (an unknown or empty name is
// null), an integer is the ordinal (out of range is a JSONException),
// anything else fails.
func decodeEnum(d *fastjson.Decoder, v fastjson.Value, names []string, class string) uint8 {
	switch v.Kind() {
	case fastjson.Absent, fastjson.Null:
		return 0
	case fastjson.String:
		for i, n := range names[1:] {
			if n == v.Text() {
				return uint8(i + 1)
			}
		}
		for i, n := range names[1:] {
			if strings.EqualFold(n, v.Text()) {
				return uint8(i + 1)
			}
		}
		return 0
	case fastjson.Number:
		ord := d.Int(v, -1)
		if d.Err() != nil {
			return 0
		}
		if ord < 0 || int(ord) >= len(names)-1 {
			d.Fail(fmtErr("parse enum %s error, value : %d", class, ord))
			return 0
		}
		return uint8(ord + 1)
	}
	d.Fail(fmtErr("parse enum %s error, value : %s", class, v.Text()))
	return 0
}

func writeEnum(w *fastjson.Writer, key string, names []string, v uint8) {
	if v == 0 || int(v) >= len(names) {
		return
	}
	w.Key(key)
	w.String(names[v])
}
