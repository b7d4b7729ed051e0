package scenario

// Requests a broker must refuse (issue #6: "validation and response codes
// like Java"), sent as raw frames so that nothing in a client checks them
// first. Each answer's code is recorded, and its remark where Java writes
// a message of its own; the runner compares the records with Java's. Where
// Java's remark is the text of an exception it did not mean to throw (a
// NullPointerException over a missing header field, a JSON parser's
// complaint), Sputnik answers the same code with a remark of its own, and
// only the code is compared. Java 4.9.8 mirror: SendMessageProcessor and
// AbstractSendMessageProcessor.msgCheck, DefaultMessageStore.checkMessage,
// PullMessageProcessor, AdminBrokerProcessor, ConsumerManageProcessor,
// QueryMessageProcessor, NettyRemotingAbstract (unknown codes). Left out on
// purpose: a QUERY_CONSUMER_OFFSET without a group and a QUERY_MESSAGE
// without a topic or key, which Java serves for the string "null" (see
// missingFields).

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

const (
	errTopic          = "errTopic"          // RW, 4 queues, one message in queue 0
	errReadOnlyTopic  = "errReadOnlyTopic"  // perm 4 (read)
	errWriteOnlyTopic = "errWriteOnlyTopic" // perm 2 (write)
	errNoTopic        = "errNoSuchTopic"
	errGroup          = "errGroup"
	errDLQTopic       = "%DLQ%errDLQGroup"
)

func init() {
	Register(&Scenario{
		Name: "broker/errors/body-and-admin-requests",
		Doc: "raw lock, heartbeat, client-config and subscription-group bodies that are empty, partial or not JSON, and admin " +
			"and consumer-admin requests naming groups, clients, topics, queues and statistics that do not exist, get Java's " +
			"response codes, remarks and bodies",
		Tags:    tags("raw", "javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerBadBodies,
	})
	Register(&Scenario{
		Name: "broker/errors/bad-requests",
		Doc: "raw sends, pulls, offset, query and admin requests the broker must refuse (bad topics, queues, permissions, " +
			"sizes, missing fields, unknown codes, missing subscriptions and messages) get Java's response codes and remarks",
		Tags:    tags("quick", "raw", "javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerBadRequests,
	})
}

// badRequest is one request and what of its answer is compared.
type badRequest struct {
	name   string
	req    *wire.Command
	remark bool     // Java's remark is a message of its own: compare it
	ext    []string // response header fields to compare
	body   bool     // compare the response body
}

func brokerBadRequests(ctx context.Context, env *Env) error {
	if err := createErrTopics(ctx, env); err != nil {
		return err
	}
	conn, offset, err := dialAndSend(ctx, env)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := observeAnswers(ctx, env, conn, append(badRequests(env), missingFields(offset)...)); err != nil {
		return err
	}
	return observeOffsetMovedEvent(ctx, env, conn)
}

// createErrTopics creates the error scenarios' read-write, read-only and
// write-only topics, 4 queues each.
func createErrTopics(ctx context.Context, env *Env) error {
	for _, t := range []struct {
		topic string
		perm  int
	}{{errTopic, 6}, {errReadOnlyTopic, 4}, {errWriteOnlyTopic, 2}} {
		if err := createTopic(ctx, env, t.topic, 4, t.perm); err != nil {
			return err
		}
	}
	return nil
}

// observeOffsetMovedEvent records the size of the OFFSET_MOVED_EVENT
// record "pull past the end" stored (Java generateOffsetMovedEvent): its
// properties and JSON body, byte for byte, decide it.
func observeOffsetMovedEvent(ctx context.Context, env *Env, conn *rawclient.Conn) error {
	const topic = "OFFSET_MOVED_EVENT"
	max, err := awaitDispatched(ctx, conn, topic)
	if err != nil {
		return err
	}
	resp, err := conn.Invoke(ctx, pull(topic, 0, "queueOffset", strconv.FormatInt(max-1, 10), "maxMsgNums", "1"), defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("pull %s: %w", topic, err)
	}
	if resp.Code != respSuccess {
		return fmt.Errorf("pull %s: %w", topic, &codeError{Code: resp.Code, Remark: resp.Remark})
	}
	env.Observe("the offset-moved event's record", fmt.Sprintf("%d bytes", len(resp.Body)))
	return nil
}

// dialAndSend connects to the broker and stores one message in errTopic's
// queue 0; it returns the connection and the message's commit-log offset.
func dialAndSend(ctx context.Context, env *Env) (*rawclient.Conn, int64, error) {
	conn, err := rawclient.Dial(ctx, env.Brokers[0].Addr)
	if err != nil {
		return nil, 0, err
	}
	offset, err := sendOne(ctx, conn)
	if err != nil {
		conn.Close()
		return nil, 0, err
	}
	return conn, offset, nil
}

// sendOne stores a message in errTopic's queue 0 and returns its
// commit-log offset.
func sendOne(ctx context.Context, conn *rawclient.Conn) (int64, error) {
	return sendOneTo(ctx, conn, errTopic, "error scenario body")
}

// sendOneTo stores body in topic's queue 0 and returns its commit-log
// offset.
func sendOneTo(ctx context.Context, conn *rawclient.Conn, topic, body string) (int64, error) {
	sent, err := conn.Invoke(ctx, sendV2(topic, 0, []byte(body)), defaultRawTimeout)
	if err != nil {
		return 0, fmt.Errorf("send: %w", err)
	}
	if sent.Code != respSuccess {
		return 0, fmt.Errorf("send: %w", &codeError{Code: sent.Code, Remark: sent.Remark})
	}
	return offsetOfMsgID(sent)
}

var clientAddr = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// observeAnswers sends each request on conn and records what of its answer
// is compared.
func observeAnswers(ctx context.Context, env *Env, conn *rawclient.Conn, cases []badRequest) error {
	for _, c := range cases {
		resp, err := conn.Invoke(ctx, c.req, defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		env.Log.Printf("%s: code %d, remark %q, ext %v, body %q", c.name, resp.Code, resp.Remark, resp.Ext, resp.Body)
		text := "code " + strconv.Itoa(int(resp.Code)) + ", ext keys " + extKeyOrder(resp)
		if c.remark || resp.Code == respSuccess { // a success's remark is never an exception's text
			text += ": " + clientAddr.ReplaceAllString(env.Mask(resp.Remark), "<client>")
		}
		for _, k := range c.ext {
			v, _ := resp.ExtValue(k)
			text += fmt.Sprintf(" %s=%s", k, v)
		}
		if c.body {
			text += " body " + env.Mask(string(resp.Body))
		}
		env.Observe(c.name, text)
	}
	return nil
}

// awaitDispatched waits until queue 0 of topic holds a message (the
// dispatch to consume queues is asynchronous on both brokers) and returns
// its max offset.
func awaitDispatched(ctx context.Context, conn *rawclient.Conn, topic string) (int64, error) {
	var max int64
	err := Eventually(ctx, 5*time.Second, 20*time.Millisecond, func() error {
		resp, err := conn.Invoke(ctx, rawclient.Request(int32(protocol.ReqGetMaxOffset), "topic", topic, "queueId", "0"), defaultRawTimeout)
		if err != nil {
			return err
		}
		v, _ := resp.ExtValue("offset")
		if max, err = strconv.ParseInt(v, 10, 64); err != nil || max == 0 {
			return fmt.Errorf("%s max offset %q", topic, v)
		}
		return nil
	})
	return max, err
}

// brokerBadBodies sends the requests of broker/errors/body-and-admin-requests.
func brokerBadBodies(ctx context.Context, env *Env) error {
	if err := createTopic(ctx, env, errTopic, 4, 6); err != nil {
		return err
	}
	conn, offset, err := dialAndSend(ctx, env)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := observeAnswers(ctx, env, conn, badBodies(env, offset)); err != nil {
		return err
	}
	if _, err := awaitDispatched(ctx, conn, errDLQTopic); err != nil {
		return err
	}
	return observeAnswers(ctx, env, conn, []badRequest{
		{name: "pull the dead-letter queue", req: pull(errDLQTopic, 0, "maxMsgNums", "1"), remark: true},
	})
}

func badBodies(env *Env, offset int64) []badRequest {
	req := func(code protocol.RequestCode, body string, ext ...string) *wire.Command {
		r := rawclient.Request(int32(code), ext...)
		if body != "" {
			r.Body = []byte(body)
		}
		return r
	}
	broker := env.Brokers[0].Name
	mq := `{"topic":"` + errTopic + `","brokerName":"` + broker + `","queueId":0}`
	binary := req(protocol.ReqGetMaxOffset, "", "topic", errTopic, "queueId", "0")
	binary.Serialize = wire.SerializeRocketMQ
	sendBackDLQ := req(protocol.ReqConsumerSendMsgBack, "", "offset", strconv.FormatInt(offset, 10), "group", "errDLQGroup", "delayLevel", "-1",
		"originTopic", errTopic, "maxReconsumeTimes", "16")
	return []badRequest{
		{name: "lock with an empty body", req: req(protocol.ReqLockBatchMq, "{}")},
		{name: "lock without a client or queues", req: req(protocol.ReqLockBatchMq, `{"consumerGroup":"errGroup"}`)},
		{name: "lock no queues", req: req(protocol.ReqLockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient1","mqSet":[]}`), body: true},
		{name: "lock a queue", req: req(protocol.ReqLockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient1","mqSet":[`+mq+`]}`), body: true},
		{name: "lock a locked queue", req: req(protocol.ReqLockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient2","mqSet":[`+mq+`]}`), body: true},
		{name: "lock a queue of a missing topic", req: req(protocol.ReqLockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient1","mqSet":[{"topic":"errNoSuchTopic","brokerName":"`+broker+`","queueId":0}]}`), body: true},
		{name: "lock without a body", req: req(protocol.ReqLockBatchMq, "")},
		{name: "unlock with an empty body", req: req(protocol.ReqUnlockBatchMq, "{}")},
		{name: "unlock by another client", req: req(protocol.ReqUnlockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient2","mqSet":[`+mq+`]}`)},
		{name: "unlock", req: req(protocol.ReqUnlockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient1","mqSet":[`+mq+`]}`)},
		{name: "unlock a null queue set", req: req(protocol.ReqUnlockBatchMq, `{"consumerGroup":"errGroup","clientId":"errClient1","mqSet":null}`)},
		{name: "heartbeat with an empty body", req: req(protocol.ReqHeartBeat, "{}"), remark: true},
		{name: "heartbeat of a client with nothing", req: req(protocol.ReqHeartBeat, `{"clientID":"errClient3"}`), remark: true},
		{name: "heartbeat with a bare producer", req: req(protocol.ReqHeartBeat, `{"clientID":"errClient3","producerDataSet":[{"groupName":"errHbProducer"}]}`), remark: true},
		{name: "heartbeat with a bare consumer", req: req(protocol.ReqHeartBeat, `{"clientID":"errClient3","consumerDataSet":[{"groupName":"errHbConsumer"}]}`)},
		{name: "heartbeat that is not JSON", req: req(protocol.ReqHeartBeat, "not json")},
		{name: "unregister a client that never registered", req: req(protocol.ReqUnregisterClient, "", "clientID", "errClient9"), remark: true},
		{name: "check client config with an empty body", req: req(protocol.ReqCheckClientConfig, "{}")},
		{name: "check client config of a tag subscription", req: req(protocol.ReqCheckClientConfig, `{"clientId":"errClient1","group":"errGroup","subscriptionData":{"topic":"errTopic","subString":"*","expressionType":"TAG"}}`), remark: true},
		{name: "check client config of a broken SQL92 subscription", req: req(protocol.ReqCheckClientConfig, `{"clientId":"errClient1","group":"errGroup","subscriptionData":{"topic":"errTopic","subString":"a >","expressionType":"SQL92"}}`)},
		{name: "check client config of an unknown filter type", req: req(protocol.ReqCheckClientConfig, `{"clientId":"errClient1","group":"errGroup","subscriptionData":{"topic":"errTopic","subString":"x","expressionType":"XPATH"}}`)},
		{name: "create a group from an empty body", req: req(protocol.ReqUpdateAndCreateSubscriptiongroup, "{}")},
		{name: "create a group from a body that is not JSON", req: req(protocol.ReqUpdateAndCreateSubscriptiongroup, "not json")},
		{name: "delete a group that does not exist", req: req(protocol.ReqDeleteSubscriptiongroup, "", "groupName", "errNoSuchGroup"), remark: true},
		{name: "running info of a client that is not connected", req: req(protocol.ReqGetConsumerRunningInfo, "", "consumerGroup", "errGroup", "clientId", "errClient9"), remark: true},
		{name: "consume directly on a client that is not connected", req: req(protocol.ReqConsumeMessageDirectly, "", "consumerGroup", "errGroup", "clientId", "errClient9", "msgId", "X")},
		{name: "consume queue of a missing topic", req: req(protocol.ReqQueryConsumeQueue, "", "topic", "errNoSuchTopic", "queueId", "0", "index", "0", "count", "1"), remark: true},
		{name: "consume queue 99 of 4", req: req(protocol.ReqQueryConsumeQueue, "", "topic", errTopic, "queueId", "99", "index", "0", "count", "1"), remark: true},
		{name: "correction offsets of a topic nobody consumes", req: req(protocol.ReqQueryCorrectionOffset, "", "compareGroup", "errGroup", "topic", errTopic), body: true},
		{name: "statistics that do not exist", req: req(protocol.ReqViewBrokerStatsData, "", "statsName", "NO_SUCH_STATS", "statsKey", "x"), remark: true},
		{name: "statistics of a key that does not exist", req: req(protocol.ReqViewBrokerStatsData, "", "statsName", "TOPIC_PUT_NUMS", "statsKey", "errNoSuchTopic"), remark: true},
		{name: "producers of a group nobody joined", req: req(protocol.ReqGetProducerConnectionList, "", "producerGroup", "errNoGroup"), remark: true},
		{name: "consumers connected for a group nobody joined", req: req(protocol.ReqGetConsumerConnectionList, "", "consumerGroup", "errNoGroup"), remark: true},
		{name: "clone the offsets of a group that has none", req: req(protocol.ReqCloneGroupOffset, "", "srcGroup", "errNoGroup", "destGroup", "errGroup2", "topic", errTopic, "offline", "true"), remark: true},
		{name: "resume the check of a message that does not exist", req: req(protocol.ReqResumeCheckHalfMessage, "", "msgId", "7F00000100002A9F00000000FFFFFFFF"), remark: true},
		{name: "resume the check without a message id", req: req(protocol.ReqResumeCheckHalfMessage, "")},
		{name: "who consumes a missing topic", req: req(protocol.ReqQueryTopicConsumeByWho, "", "topic", "errNoSuchTopic"), body: true},
		{name: "reset the offsets of a missing topic", req: req(protocol.ReqInvokeBrokerToResetOffset, "", "topic", "errNoSuchTopic", "group", "errGroup", "timestamp", "0", "isForce", "true"), remark: true},
		{name: "reset the offsets of a group nobody joined", req: req(protocol.ReqInvokeBrokerToResetOffset, "", "topic", errTopic, "group", "errNoGroup", "timestamp", "0", "isForce", "true"), remark: true},
		{name: "consumer status of a group nobody joined", req: req(protocol.ReqInvokeBrokerToGetConsumerStatus, "", "topic", errTopic, "group", "errNoGroup")},
		{name: "consume time span of a missing topic", req: req(protocol.ReqQueryConsumeTimeSpan, "", "topic", "errNoSuchTopic", "group", "errGroup"), remark: true},
		{name: "max offset of queue 99 of 4", req: req(protocol.ReqGetMaxOffset, "", "topic", errTopic, "queueId", "99"), remark: true, ext: []string{"offset"}},
		{name: "max offset asked in the ROCKETMQ header", req: binary, remark: true, ext: []string{"offset"}},
		{name: "commit an offset of a missing topic", req: req(protocol.ReqUpdateConsumerOffset, "", "consumerGroup", "errGroup", "topic", "errNoSuchTopic", "queueId", "0", "commitOffset", "5"), remark: true},
		{name: "query the offset committed on a missing topic", req: req(protocol.ReqQueryConsumerOffset, "", "consumerGroup", "errGroup", "topic", "errNoSuchTopic", "queueId", "0"), remark: true, ext: []string{"offset"}},
		{name: "send back to the dead-letter queue", req: sendBackDLQ, remark: true},
	}
}

// offsetOfMsgID is the commit-log offset in a send response's offset
// message id (its last 16 hex digits).
func offsetOfMsgID(resp *wire.Command) (int64, error) {
	id, _ := resp.ExtValue("msgId")
	if len(id) < 16 {
		return 0, fmt.Errorf("send: msgId %q", id)
	}
	off, err := strconv.ParseInt(id[len(id)-16:], 16, 64)
	if err != nil {
		return 0, fmt.Errorf("send: msgId %q: %w", id, err)
	}
	return off, nil
}

// missingFields is, for requests that succeed as given, the same request
// without one of its fields (the ones 4.9.8 marks @CFNotNull), each in
// turn. Java's decoder lets a missing field through as null; whether the
// request then fails depends on whether the processor uses it.
func missingFields(offset int64) []badRequest {
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	bases := []fieldMatrix{
		{name: "SEND_MESSAGE_V2", code: protocol.ReqSendMessageV2, body: []byte("x"),
			fields:   []string{"a", "errProducer", "b", errTopic, "c", "TBW102", "d", "4", "e", "2", "f", "0", "g", now, "h", "0", "i", "TAGS\x01t\x02"},
			required: []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{name: "SEND_MESSAGE", code: protocol.ReqSendMessage, body: []byte("x"),
			fields: []string{"producerGroup", "errProducer", "topic", errTopic, "defaultTopic", "TBW102", "defaultTopicQueueNums", "4",
				"queueId", "2", "sysFlag", "0", "bornTimestamp", now, "flag", "0", "properties", "TAGS\x01t\x02"},
			required: []string{"producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums", "queueId", "sysFlag", "bornTimestamp", "flag"}},
		{name: "PULL_MESSAGE", code: protocol.ReqPullMessage,
			fields: []string{"consumerGroup", errGroup, "topic", errTopic, "queueId", "0", "queueOffset", "0", "maxMsgNums", "32",
				"sysFlag", "4", "commitOffset", "0", "suspendTimeoutMillis", "0", "subscription", "*", "subVersion", "0", "expressionType", "TAG"},
			required: []string{"consumerGroup", "topic", "queueId", "queueOffset", "maxMsgNums", "sysFlag", "commitOffset", "suspendTimeoutMillis", "subVersion"}},
		// Not without consumerGroup: Java then queries the group "null"
		// (string concatenation) and answers SUCCESS; Sputnik refuses.
		{name: "QUERY_CONSUMER_OFFSET", code: protocol.ReqQueryConsumerOffset,
			fields: []string{"consumerGroup", errGroup, "topic", errTopic, "queueId", "0"}, required: []string{"topic", "queueId"}},
		{name: "GET_MAX_OFFSET", code: protocol.ReqGetMaxOffset,
			fields: []string{"topic", errTopic, "queueId", "0"}, required: []string{"topic", "queueId"}},
		{name: "GET_MIN_OFFSET", code: protocol.ReqGetMinOffset,
			fields: []string{"topic", errTopic, "queueId", "0"}, required: []string{"topic", "queueId"}},
		{name: "SEARCH_OFFSET_BY_TIMESTAMP", code: protocol.ReqSearchOffsetByTimestamp,
			fields: []string{"topic", errTopic, "queueId", "0", "timestamp", now}, required: []string{"topic", "queueId", "timestamp"}},
		{name: "GET_EARLIEST_MSG_STORETIME", code: protocol.ReqGetEarliestMsgStoretime,
			fields: []string{"topic", errTopic, "queueId", "0"}, required: []string{"topic", "queueId"}},
		{name: "VIEW_MESSAGE_BY_ID", code: protocol.ReqViewMessageById,
			fields: []string{"offset", strconv.FormatInt(offset, 10)}, required: []string{"offset"}},
		{name: "QUERY_MESSAGE", code: protocol.ReqQueryMessage,
			fields: []string{"topic", errTopic, "key", "k", "maxNum", "32", "beginTimestamp", "0", "endTimestamp", "9999999999999"},
			// Not without topic or key: Java then looks up the key
			// "null#k" or "errTopic#null" and answers QUERY_NOT_FOUND;
			// Sputnik refuses with SYSTEM_ERROR.
			required: []string{"maxNum", "beginTimestamp", "endTimestamp"}},
		{name: "CONSUMER_SEND_MSG_BACK", code: protocol.ReqConsumerSendMsgBack,
			fields:   []string{"offset", strconv.FormatInt(offset, 10), "group", errGroup, "delayLevel", "-1", "originTopic", errTopic, "maxReconsumeTimes", "16"},
			required: []string{"offset", "group", "delayLevel"}},
		{name: "UPDATE_AND_CREATE_TOPIC", code: protocol.ReqUpdateAndCreateTopic,
			fields: []string{"topic", "errMadeTopic", "defaultTopic", "TBW102", "readQueueNums", "1", "writeQueueNums", "1", "perm", "6",
				"topicFilterType", "SINGLE_TAG", "topicSysFlag", "0", "order", "false"},
			required: []string{"topic", "defaultTopic", "readQueueNums", "writeQueueNums", "perm", "topicFilterType"}},
		{name: "GET_CONSUMER_LIST_BY_GROUP", code: protocol.ReqGetConsumerListByGroup,
			fields: []string{"consumerGroup", errGroup}, required: []string{"consumerGroup"}},
		{name: "GET_CONSUME_STATS", code: protocol.ReqGetConsumeStats,
			fields: []string{"consumerGroup", errGroup, "topic", errTopic}, required: []string{"consumerGroup"}},
		{name: "GET_TOPIC_STATS_INFO", code: protocol.ReqGetTopicStatsInfo,
			fields: []string{"topic", errTopic}, required: []string{"topic"}},
		{name: "UNREGISTER_CLIENT", code: protocol.ReqUnregisterClient,
			fields: []string{"clientID", "errClient", "consumerGroup", errGroup}, required: []string{"clientID"}},
	}
	// Fields only some requests need: the default topic and its queue
	// count to create a missing topic, the commit offset to commit, the
	// suspend time to suspend, the subscription version for SQL92.
	autoTopic := func(name string, remark bool, change ...string) badRequest {
		return badRequest{name: "send to the new topic " + name, req: sendV2(name, 0, []byte("x"), change...), remark: remark}
	}
	out := []badRequest{
		autoTopic("errAutoTopicA", true),
		autoTopic("errAutoTopicB", false, "c", ""), // Java: a NullPointerException
		autoTopic("errAutoTopicC", false, "d", ""),
		autoTopic("errAutoTopicD", true, "c", "NoSuchDefault"),
		{name: "PULL_MESSAGE committing without commitOffset", req: pull(errTopic, 0, "sysFlag", "5", "commitOffset", "")},
		{name: "PULL_MESSAGE suspending without suspendTimeoutMillis", req: pull(errTopic, 0, "sysFlag", "6", "suspendTimeoutMillis", "")},
		{name: "PULL_MESSAGE with SQL92 without subVersion", req: pull(errTopic, 0, "expressionType", "SQL92", "subscription", "a > 1", "subVersion", ""), remark: true},
	}
	return append(out, withoutEach(bases)...)
}

// sendV2 is a SEND_MESSAGE_V2 header as the Java producer writes it, with
// fields replaced (value "" drops the field).
func sendV2(topic string, queueID int, body []byte, change ...string) *wire.Command {
	f := map[string]string{
		"a": "errProducer", "b": topic, "c": "TBW102", "d": "4", "e": strconv.Itoa(queueID), "f": "0",
		"g": strconv.FormatInt(time.Now().UnixMilli(), 10), "h": "0", "i": "TAGS\x01t\x02", "j": "0", "k": "false", "m": "false",
	}
	for i := 0; i+1 < len(change); i += 2 {
		f[change[i]] = change[i+1]
	}
	var ext []string
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "m"} {
		if f[k] != "" {
			ext = append(ext, k, f[k])
		}
	}
	req := rawclient.Request(int32(protocol.ReqSendMessageV2), ext...)
	req.Body = body
	return req
}

// pull is a PULL_MESSAGE header with a subscription to every tag, no
// suspension, fields replaced (value "" drops the field).
func pull(topic string, queueID int, change ...string) *wire.Command {
	f := map[string]string{
		"consumerGroup": errGroup, "topic": topic, "queueId": strconv.Itoa(queueID), "queueOffset": "0",
		"maxMsgNums": "32", "sysFlag": "4", "commitOffset": "0", "suspendTimeoutMillis": "0",
		"subscription": "*", "subVersion": "0", "expressionType": "TAG",
	}
	for i := 0; i+1 < len(change); i += 2 {
		f[change[i]] = change[i+1]
	}
	var ext []string
	for _, k := range []string{"consumerGroup", "topic", "queueId", "queueOffset", "maxMsgNums", "sysFlag",
		"commitOffset", "suspendTimeoutMillis", "subscription", "subVersion", "expressionType"} {
		if f[k] != "" {
			ext = append(ext, k, f[k])
		}
	}
	return rawclient.Request(int32(protocol.ReqPullMessage), ext...)
}

func createTopicReq(topic string) *wire.Command {
	return rawclient.Request(int32(protocol.ReqUpdateAndCreateTopic), "topic", topic, "defaultTopic", "TBW102",
		"readQueueNums", "1", "writeQueueNums", "1", "perm", "6", "topicFilterType", "SINGLE_TAG", "topicSysFlag", "0", "order", "false")
}

func badRequests(env *Env) []badRequest {
	req := func(code protocol.RequestCode, body string, ext ...string) *wire.Command {
		r := rawclient.Request(int32(code), ext...)
		if body != "" {
			r.Body = []byte(body)
		}
		return r
	}
	body := []byte("error scenario body")
	offsets := []string{"minOffset", "maxOffset", "nextBeginOffset", "suggestWhichBrokerId"}
	return []badRequest{
		{name: "send without a topic", req: sendV2(errTopic, 0, body, "b", "")},
		{name: "send without a producer group", req: sendV2(errTopic, 0, body, "a", "")},
		{name: "send with queueId x", req: sendV2(errTopic, 0, body, "e", "x")},
		{name: "send to an illegal topic name", req: sendV2("bad topic!", 0, body), remark: true},
		{name: "send to a 128-character topic", req: sendV2(strings.Repeat("T", 128), 0, body), remark: true},
		{name: "send to SCHEDULE_TOPIC_XXXX", req: sendV2("SCHEDULE_TOPIC_XXXX", 0, body), remark: true},
		{name: "send to RMQ_SYS_TRANS_HALF_TOPIC", req: sendV2("RMQ_SYS_TRANS_HALF_TOPIC", 0, body), remark: true},
		{name: "send to queue 99 of 4", req: sendV2(errTopic, 99, body), remark: true},
		{name: "send to a read-only topic", req: sendV2(errReadOnlyTopic, 0, body), remark: true},
		{name: "send a body over maxMessageSize", req: sendV2(errTopic, 0, make([]byte, 4<<20+1)), remark: true},
		{name: "send properties over 32767 bytes", req: sendV2(errTopic, 0, body, "i", "k\x01"+strings.Repeat("v", 33000)+"\x02"), remark: true},
		{name: "send v1 without a topic", req: req(protocol.ReqSendMessage, "", "producerGroup", "errProducer", "defaultTopic", "TBW102",
			"defaultTopicQueueNums", "4", "queueId", "0", "sysFlag", "0", "bornTimestamp", "1", "flag", "0")},
		{name: "pull an empty queue", req: pull(errTopic, 1), remark: true, ext: offsets},
		{name: "pull past the end", req: pull(errTopic, 0, "queueOffset", "100"), remark: true, ext: offsets},
		{name: "pull a missing topic", req: pull(errNoTopic, 0), remark: true},
		{name: "pull queue 99 of 4", req: pull(errTopic, 99), remark: true},
		{name: "pull a write-only topic", req: pull(errWriteOnlyTopic, 0), remark: true},
		{name: "pull without a group", req: pull(errTopic, 0, "consumerGroup", "")},
		{name: "pull without a subscription", req: pull(errTopic, 0, "sysFlag", "0"), remark: true},
		{name: "pull with SQL92 on a broker without property filters", req: pull(errTopic, 0, "expressionType", "SQL92", "subscription", "a > 1"), remark: true},
		{name: "unknown request code 9999", req: req(9999, ""), remark: true},
		{name: "query the offset of a missing group", req: req(protocol.ReqQueryConsumerOffset, "", "consumerGroup", "errNoGroup", "topic", errNoTopic, "queueId", "0"), remark: true},
		{name: "update an offset without a queue", req: req(protocol.ReqUpdateConsumerOffset, "", "consumerGroup", errGroup, "topic", errTopic, "commitOffset", "1")},
		{name: "max offset of a missing topic", req: req(protocol.ReqGetMaxOffset, "", "topic", errNoTopic, "queueId", "0"), remark: true, ext: []string{"offset"}},
		{name: "min offset of a missing topic", req: req(protocol.ReqGetMinOffset, "", "topic", errNoTopic, "queueId", "0"), remark: true, ext: []string{"offset"}},
		{name: "search a missing topic by time", req: req(protocol.ReqSearchOffsetByTimestamp, "", "topic", errNoTopic, "queueId", "0", "timestamp", "1"), remark: true, ext: []string{"offset"}},
		{name: "earliest store time of a missing topic", req: req(protocol.ReqGetEarliestMsgStoretime, "", "topic", errNoTopic, "queueId", "0"), remark: true},
		{name: "view a message at offset 99999999", req: req(protocol.ReqViewMessageById, "", "offset", "99999999"), remark: true},
		{name: "query messages of a missing topic", req: req(protocol.ReqQueryMessage, "", "topic", errNoTopic, "key", "k", "maxNum", "32", "beginTimestamp", "0", "endTimestamp", "9999999999999"), remark: true},
		{name: "consumers of a group nobody joined", req: req(protocol.ReqGetConsumerListByGroup, "", "consumerGroup", "errNoGroup"), remark: true},
		{name: "topic stats of a missing topic", req: req(protocol.ReqGetTopicStatsInfo, "", "topic", errNoTopic), remark: true},
		{name: "consume stats of a group nobody joined", req: req(protocol.ReqGetConsumeStats, "", "consumerGroup", "errNoGroup", "topic", errTopic), remark: true},
		{name: "send back offset 99999999", req: req(protocol.ReqConsumerSendMsgBack, "", "offset", "99999999", "group", errGroup, "delayLevel", "0", "originMsgId", "X", "originTopic", errTopic, "unitMode", "false", "maxReconsumeTimes", "16"), remark: true},
		{name: "end a transaction at offset 99999999", req: req(protocol.ReqEndTransaction, "", "producerGroup", "errProducer", "tranStateTableOffset", "0", "commitLogOffset", "99999999", "commitOrRollback", "8", "fromTransactionCheck", "false", "msgId", "X"), remark: true},
		{name: "create a topic named as the cluster", req: createTopicReq(env.Cluster), remark: true},
		{name: "create an illegal topic name", req: createTopicReq("bad topic!"), remark: true},
		{name: "create a topic without perm", req: req(protocol.ReqUpdateAndCreateTopic, "", "topic", "errNoPerm", "defaultTopic", "TBW102", "readQueueNums", "1", "writeQueueNums", "1")},
		{name: "delete a topic without a name", req: req(protocol.ReqDeleteTopicInBroker, "")},
		{name: "heartbeat without a body", req: req(protocol.ReqHeartBeat, "")},
		{name: "lock queues with a body that is not JSON", req: req(protocol.ReqLockBatchMq, "not json")},
	}
}

// fieldMatrix is a request that succeeds as given, and the fields (the
// ones 4.9.8 marks @CFNotNull) to leave out of it one at a time.
type fieldMatrix struct {
	name     string
	code     protocol.RequestCode
	fields   []string // key, value, …
	required []string
	body     []byte
}

// withoutEach is each request as given, then without each required field.
func withoutEach(bases []fieldMatrix) []badRequest {
	var out []badRequest
	for _, b := range bases {
		for _, drop := range append([]string{""}, b.required...) {
			var ext []string
			for i := 0; i+1 < len(b.fields); i += 2 {
				if b.fields[i] != drop {
					ext = append(ext, b.fields[i], b.fields[i+1])
				}
			}
			r := rawclient.Request(int32(b.code), ext...)
			r.Body = b.body
			name := b.name + " as given"
			if drop != "" {
				name = b.name + " without " + drop
			}
			out = append(out, badRequest{name: name, req: r})
		}
	}
	return out
}
