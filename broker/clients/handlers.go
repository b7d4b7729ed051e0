package clients

import (
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
)

// SubscriptionGroups is the part of SubscriptionGroupManager the handlers
// use: findSubscriptionGroupConfig, which auto-creates (and persists) the
// group when autoCreateSubscriptionGroup is on or the group is a system
// group, and otherwise reports it missing.
type SubscriptionGroups interface {
	FindSubscriptionGroup(group string) (config.SubscriptionGroupConfig, bool)
}

// Handlers serves the client bookkeeping requests. Every field but Log
// and CompileFilter is required.
type Handlers struct {
	Producers *ProducerManager
	Consumers *ConsumerManager
	Locks     *RebalanceLockManager
	Groups    SubscriptionGroups
	// CreateRetryTopic is TopicConfigManager.createTopicInSendMessageBackMethod
	// for "%RETRY%<group>" (queue count, perm, topicSysFlag); it does
	// nothing when the topic exists.
	CreateRetryTopic func(topic string, queueNums, perm, topicSysFlag int32)
	// EnablePropertyFilter reads BrokerConfig.enablePropertyFilter.
	EnablePropertyFilter func() bool
	// CompileFilter compiles a non-TAG expression as FilterFactory does; an
	// error becomes SUBSCRIPTION_PARSE_FAILED with its text. Nil accepts
	// every expression of a known type (SQL92).
	CompileFilter func(expressionType, expression string) error
	Now           func() time.Time
	Log           *logrus.Entry
}

// errNPE is what Java's handler would throw dereferencing a null (the
// remoting layer answers SYSTEM_ERROR with its description).
func errNPE(where string) error {
	return fmt.Errorf("java.lang.NullPointerException (%s)", where)
}

// bodyError turns a body decode failure into the exception Java would
// throw: a null body is an NPE, a corrupt one a fastjson JSONException.
func bodyError(err error, where string) error {
	if errors.Is(err, body.ErrNull) {
		return errNPE(where)
	}
	return fmt.Errorf("com.alibaba.fastjson.JSONException: %w", err)
}

// ext returns a header field and whether Java would see it non-null
// (missing @CFNotNull fields are only logged by Java's decoder).
func ext(req *wire.Command, key string) (string, bool) { return req.ExtValue(key) }

func success(req *wire.Command) *wire.Command {
	return wire.NewResponse(req, int32(protocol.RespSuccess), "")
}
