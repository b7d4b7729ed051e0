package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

// A cycle's kind says how it sends and what its consumer checks; each
// kind runs through the broker's machinery that a restart or a switch of
// implementation must carry over.
//
//   - plain: sync sends, a concurrent push consumer.
//   - orderly: sends by sharding key (client-go's hash selector over the
//     queues), an orderly push consumer; the first delivery of each message
//     of a key must come after the first delivery of the key's earlier
//     messages (redeliveries after a restart are allowed).
//   - delay: every message at delay level 2 (5 s, SCHEDULE_TOPIC_XXXX and
//     delayOffset.json); none may arrive before it was born + 5 s.
//   - retry: the consumer fails each message the first time it sees it
//     (CONSUMER_SEND_MSG_BACK, the group's %RETRY% topic through the delay
//     levels); the cycle is done when each came back with a reconsume count.
//   - tx: transactional sends (half messages, END_TRANSACTION, and the
//     broker's check-back for the ones left unknown); message i commits
//     when i%3 is 0, rolls back when 1, and is left unknown when 2, to be
//     committed by whichever producer of the group the broker asks. No
//     consumer may ever receive a rolled-back message, of any cycle.
//   - tag: message i is tagged even or odd; the consumer subscribes to
//     "even" (the broker's tag-hash filter) and must receive every even
//     message and none of the odd ones.
//   - sql: the same split by a user property, soakParity, with an SQL92
//     selector (the soak's broker has enablePropertyFilter=true; with -n
//     the running broker needs it). The groups are shared with the other
//     kinds, so a group's subscription changes from cycle to cycle.
//
// The j kinds are cycles of the official Java client (4.9.8, or the
// -java-clients versions in turn, clients.go), run by conformance/java's
// SoakWorker in a JVM of their own, with the same
// bodies, topics and groups: jplain (SEND_MESSAGE_V2 sync sends, a
// concurrent push consumer), jorderly (the orderly kind's promise with a
// MessageQueueSelector and MessageListenerOrderly), jlitepull (async
// sends, a DefaultLitePullConsumer) and jtx (the tx kind's promise with a
// TransactionMQProducer, in a producer group of its own, jtxProducerGroup:
// a Go tx producer would roll back a jtx message it is asked about).
const (
	kindPlain     = "plain"
	kindOrderly   = "orderly"
	kindDelay     = "delay"
	kindRetry     = "retry"
	kindTx        = "tx"
	kindTag       = "tag"
	kindSQL       = "sql"
	kindJPlain    = javaclient.SoakPlain
	kindJOrderly  = javaclient.SoakOrderly
	kindJLitePull = javaclient.SoakLitePull
	kindJTx       = javaclient.SoakTx
)

// allKinds is -kinds' default.
var allKinds = []string{kindPlain, kindOrderly, kindDelay, kindRetry, kindTx, kindTag, kindSQL, kindJPlain, kindJOrderly, kindJLitePull, kindJTx}

// javaKind says whether kind's cycles run the Java client.
func javaKind(kind string) bool {
	return kind == kindJPlain || kind == kindJOrderly || kind == kindJLitePull || kind == kindJTx
}

// anyJava says whether any of kinds runs the Java client.
func anyJava(kinds []string) bool {
	for _, k := range kinds {
		if javaKind(k) {
			return true
		}
	}
	return false
}

// delayLevel and delayOf are the delay kind's level and its time in
// 4.9.8's default messageDelayLevel ("1s 5s 10s ...").
const (
	delayLevel = 2
	delayOf    = 5 * time.Second
)

// shardingKeys is how many keys the orderly kind spreads its messages on.
const shardingKeys = 8

// parityOf is message i's tag (tag kind) or soakParity property (sql
// kind); the consumers of both select "even".
func parityOf(i int) string {
	if i%2 == 0 {
		return "even"
	}
	return "odd"
}

// filteredOut says whether message i of kind is one the kind's consumer
// must never receive.
func filteredOut(kind string, i int) bool {
	return (kind == kindTag || kind == kindSQL) && parityOf(i) != "even"
}

// sqlProperty and sqlSelector are the sql kind's property and expression.
const (
	sqlProperty = "soakParity"
	sqlSelector = sqlProperty + " = 'even' AND " + sqlProperty + " IS NOT NULL"
)

// selectorOf is the subscription of kind's consumer.
func selectorOf(kind string) consumer.MessageSelector {
	switch kind {
	case kindTag:
		return consumer.MessageSelector{Type: consumer.TAG, Expression: "even"}
	case kindSQL:
		return consumer.MessageSelector{Type: consumer.SQL92, Expression: sqlSelector}
	}
	return consumer.MessageSelector{}
}

// txProducerGroup is the one producer group of every tx cycle, so that
// the broker's check-back for a half message finds a live producer even
// after the cycle that sent it has gone.
const txProducerGroup = "SoakTxPG"

// jtxProducerGroup is the same for the jtx cycles (SoakWorker answers a
// check-back for a jtx body only).
const jtxProducerGroup = "SoakJTxPG"

func parseKinds(s string) ([]string, error) {
	var kinds []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		switch k {
		case "":
			continue
		case kindPlain, kindOrderly, kindDelay, kindRetry, kindTx, kindTag, kindSQL, kindJPlain, kindJOrderly, kindJLitePull, kindJTx:
			kinds = append(kinds, k)
		default:
			return nil, fmt.Errorf("-kinds: unknown kind %q (have %s)", k, strings.Join(allKinds, ","))
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("-kinds: none given")
	}
	return kinds, nil
}

// kindOf is the kind of a slot's cycle: the slots run the kinds in turn,
// each starting at a kind of its own.
func kindOf(kinds []string, slot, cycle int) string { return kinds[(slot+cycle)%len(kinds)] }

// bodyOf is message i of a cycle: instance, kind and i, so that any
// consumer can tell what a message it sees was sent as.
func bodyOf(slot, cycle int, kind string, i int) string {
	return fmt.Sprintf("%s-%s-%d", instanceOf(slot, cycle), kind, i)
}

// parseBody returns the kind and index bodyOf put in b; ok is false for
// a body of another shape.
func parseBody(b string) (kind string, i int, ok bool) {
	parts := strings.Split(b, "-")
	if len(parts) != 4 {
		return "", 0, false
	}
	i, err := strconv.Atoi(parts[3])
	if err != nil {
		return "", 0, false
	}
	return parts[2], i, true
}

// txOutcome is what the local transaction of a tx message's index
// decides, and what a check-back answers for it.
func txOutcome(i int, checking bool) primitive.LocalTransactionState {
	switch i % 3 {
	case 0:
		return primitive.CommitMessageState
	case 1:
		return primitive.RollbackMessageState
	}
	if checking {
		return primitive.CommitMessageState
	}
	return primitive.UnknowState
}

// rolledBack says whether body is a tx or jtx message that was rolled
// back (both kinds decide by the index alike).
func rolledBack(body string) bool {
	kind, i, ok := parseBody(body)
	return ok && (kind == kindTx || kind == kindJTx) && txOutcome(i, true) == primitive.RollbackMessageState
}

// txListener answers for tx messages from their bodies alone.
type txListener struct{}

func (txListener) ExecuteLocalTransaction(m *primitive.Message) primitive.LocalTransactionState {
	return txAnswer(string(m.Body), false)
}

func (txListener) CheckLocalTransaction(m *primitive.MessageExt) primitive.LocalTransactionState {
	return txAnswer(string(m.Body), true)
}

func txAnswer(body string, checking bool) primitive.LocalTransactionState {
	kind, i, ok := parseBody(body)
	if !ok || kind != kindTx {
		return primitive.RollbackMessageState
	}
	return txOutcome(i, checking)
}
