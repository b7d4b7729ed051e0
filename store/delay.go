package store

import (
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// The system topics the store itself treats specially (TopicValidator and
// MixAll constants; broker/topics takes them from here).
const (
	// ScheduleTopic is where delayed messages wait (RMQ_SYS_SCHEDULE_TOPIC);
	// queue id = delay level − 1.
	ScheduleTopic = consumequeue.ScheduleTopic
	// TransHalfTopic holds prepared transactional messages
	// (RMQ_SYS_TRANS_HALF_TOPIC); the scheduler never delivers into it.
	TransHalfTopic = "RMQ_SYS_TRANS_HALF_TOPIC"
	// TransOpHalfTopic records commits and rollbacks
	// (RMQ_SYS_TRANS_OP_HALF_TOPIC); cleanUnusedTopic keeps it.
	TransOpHalfTopic = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
	// LmqPrefix starts light-message-queue topics (MixAll.LMQ_PREFIX).
	LmqPrefix = message.LmqPrefix
)

// DelayLevels is the parsed messageDelayLevel setting: level L (1-based)
// waits Millis[L-1] ms. Java ScheduleMessageService.parseDelayLevel.
type DelayLevels struct {
	Millis []int64
}

var delayUnits = map[byte]int64{'s': 1000, 'm': 60 * 1000, 'h': 60 * 60 * 1000, 'd': 24 * 60 * 60 * 1000}

// ParseDelayLevels parses "1s 5s 10s …": tokens split on single spaces
// (trailing empty ones dropped, as String.split does),
// each a Java long followed by one unit letter s, m, h or d. Anything else
// fails, and Java then refuses to load the store; so do we.
func ParseDelayLevels(s string) (DelayLevels, error) {
	var d DelayLevels
	toks := strings.Split(s, " ")
	for len(toks) > 1 && toks[len(toks)-1] == "" {
		toks = toks[:len(toks)-1] // String.split drops trailing empty strings
	}
	for i, tok := range toks {
		if tok == "" {
			return DelayLevels{}, fmt.Errorf("store: messageDelayLevel %q: empty level %d", s, i+1)
		}
		unit, ok := delayUnits[tok[len(tok)-1]]
		if !ok {
			return DelayLevels{}, fmt.Errorf("store: messageDelayLevel %q: level %d %q has no unit s/m/h/d", s, i+1, tok)
		}
		n, err := javalang.ParseLong(tok[:len(tok)-1])
		if err != nil {
			return DelayLevels{}, fmt.Errorf("store: messageDelayLevel %q: level %d: %w", s, i+1, err)
		}
		d.Millis = append(d.Millis, n*unit)
	}
	return d, nil
}

// Max is the highest level (Java maxDelayLevel).
func (d DelayLevels) Max() int32 { return int32(len(d.Millis)) }

// DeliverAt is the time a message stored at storeTS with level is due
// (Java computeDeliverTimestamp: an unknown level waits 1 s).
func (d DelayLevels) DeliverAt(level int32, storeTS int64) int64 {
	if level >= 1 && int(level) <= len(d.Millis) {
		return storeTS + d.Millis[level-1]
	}
	return storeTS + 1000
}

// QueueID is the schedule-topic queue of a level (delayLevel2QueueId).
func QueueID(level int32) int32 { return level - 1 }
