package topics

import (
	"strings"
	"unicode"

	"github.com/sputnikmq/sputnik/store"
)

// Topic names Java reserves (TopicValidator and MixAll constants). Part
// of the protocol, do not change.
const (
	AutoCreateTopicKey     = "TBW102"                     // AUTO_CREATE_TOPIC_KEY_TOPIC
	ScheduleTopic          = store.ScheduleTopic          // RMQ_SYS_SCHEDULE_TOPIC
	BenchmarkTopic         = "BenchmarkTest"              // RMQ_SYS_BENCHMARK_TOPIC
	TransHalfTopic         = store.TransHalfTopic         // RMQ_SYS_TRANS_HALF_TOPIC
	TraceTopic             = "RMQ_SYS_TRACE_TOPIC"        // RMQ_SYS_TRACE_TOPIC (msgTraceTopicName default)
	TransOpHalfTopic       = store.TransOpHalfTopic       // RMQ_SYS_TRANS_OP_HALF_TOPIC
	TransCheckMaxTimeTopic = "TRANS_CHECK_MAX_TIME_TOPIC" // RMQ_SYS_TRANS_CHECK_MAX_TIME_TOPIC
	SelfTestTopic          = "SELF_TEST_TOPIC"            // RMQ_SYS_SELF_TEST_TOPIC
	OffsetMovedEventTopic  = "OFFSET_MOVED_EVENT"         // RMQ_SYS_OFFSET_MOVED_EVENT
	SystemTopicPrefix      = "rmq_sys_"                   // SYSTEM_TOPIC_PREFIX
	ReplyTopicPostfix      = "REPLY_TOPIC"                // MixAll.REPLY_TOPIC_POSTFIX
	LmqPrefix              = store.LmqPrefix              // MixAll.LMQ_PREFIX
	// TopicMaxLength is TopicValidator.TOPIC_MAX_LENGTH (UTF-16 units).
	TopicMaxLength = 127
)

// systemTopics is TopicValidator's static SYSTEM_TOPIC_SET before any
// broker adds its own names.
var systemTopics = map[string]bool{
	AutoCreateTopicKey: true, ScheduleTopic: true, BenchmarkTopic: true, TransHalfTopic: true,
	TraceTopic: true, TransOpHalfTopic: true, TransCheckMaxTimeTopic: true, SelfTestTopic: true,
	OffsetMovedEventTopic: true,
}

// notAllowedSend is TopicValidator's NOT_ALLOWED_SEND_TOPIC_SET.
var notAllowedSend = map[string]bool{
	ScheduleTopic: true, TransHalfTopic: true, TransOpHalfTopic: true, TransCheckMaxTimeTopic: true,
	SelfTestTopic: true, OffsetMovedEventTopic: true,
}

// IsSystemTopic is TopicValidator.isSystemTopic without the names a
// broker adds at start (Manager.IsSystemTopic has those).
func IsSystemTopic(topic string) bool {
	return systemTopics[topic] || strings.HasPrefix(topic, SystemTopicPrefix)
}

// IsNotAllowedSend is TopicValidator.isNotAllowedSendTopic: clients may not
// send to these topics.
func IsNotAllowedSend(topic string) bool { return notAllowedSend[topic] }

// ReplyTopic is MixAll.getReplyTopic: the cluster's request/reply topic.
func ReplyTopic(cluster string) string { return cluster + "_" + ReplyTopicPostfix }

// IsLmq is MixAll.isLmq: the name of a light message queue.
func IsLmq(name string) bool { return strings.HasPrefix(name, LmqPrefix) }

// IsTopicOrGroupIllegal is TopicValidator.isTopicOrGroupIllegal: a
// character outside ^[%|a-zA-Z0-9_-]$. Any non-ASCII byte is outside it,
// as every non-ASCII UTF-16 unit is in Java.
func IsTopicOrGroupIllegal(s string) bool {
	for i := 0; i < len(s); i++ {
		if !validChar(s[i]) {
			return true
		}
	}
	return false
}

func validChar(c byte) bool {
	switch {
	case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	}
	return c == '%' || c == '-' || c == '_' || c == '|'
}

// Validate is TopicValidator.validateTopic; the error's text is Java's
// remark (the response code is SYSTEM_ERROR for all three).
func Validate(topic string) error {
	switch {
	case isBlank(topic):
		return ErrTopicBlank
	case IsTopicOrGroupIllegal(topic):
		return ErrTopicIllegal
	case len(topic) > TopicMaxLength: // only ASCII gets here: bytes = UTF-16 units
		return ErrTopicTooLong
	}
	return nil
}

// isBlank is UtilAll.isBlank: empty, or every UTF-16 unit is
// Character.isWhitespace.
func isBlank(s string) bool {
	for _, r := range s {
		if !javaWhitespace(r) { // a bad UTF-8 byte is U+FFFD, not blank either
			return false
		}
	}
	return true
}

// javaWhitespace is Character.isWhitespace: the Unicode space, line and
// paragraph separators except the no-break spaces, and \t \n \v \f \r and
// the four ASCII separators 0x1C..0x1F.
func javaWhitespace(r rune) bool {
	switch r {
	case '\u00a0', '\u2007', '\u202f':
		return false
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}
