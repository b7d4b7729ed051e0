package broker

// Topic administration:
//
//	UPDATE_AND_CREATE_TOPIC (17)   create or replace a topic's config
//	DELETE_TOPIC_IN_BROKER (215)   delete a topic and its consume queues
//	GET_ALL_TOPIC_CONFIG (21)      the topic table (TopicConfigSerializeWrapper)
//
// Java 4.9.8 mirror: AdminBrokerProcessor.updateAndCreateTopic,
// deleteTopic, getAllTopicConfig and BrokerController.registerIncrementBrokerData.

import (
	"context"
	"sync"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
)

const slaveModifyRemark = "Can't modify topic or subscription group from slave broker, please execute it from master broker."

type topicAdmin struct {
	store  *store.Store
	topics *topics.Manager
	slave  bool
	// registerTopic registers one changed topic with the name servers
	// before answering (registerIncrementBrokerData).
	registerTopic func(tc config.TopicConfig)
	// topicsDeleted follows the deletion of topics' queues (the
	// statistics' onTopicDeleted with autoDeleteUnusedStats); may be nil.
	topicsDeleted func(topics ...string)
	mu            sync.Mutex // Java's synchronized handlers
}

func (h *topicAdmin) deleted(topics ...string) {
	if h.topicsDeleted != nil && len(topics) > 0 {
		h.topicsDeleted(topics...)
	}
}

func (h *topicAdmin) register(t handlerTable) {
	t.Add(protocol.ReqUpdateAndCreateTopic, h.createTopic)
	t.Add(protocol.ReqDeleteTopicInBroker, h.deleteTopic)
	t.Add(protocol.ReqGetAllTopicConfig, h.allTopicConfig)
}

// checkTopic is validateSlave, validateTopic and isSystemTopic.
func (h *topicAdmin) checkTopic(req *wire.Command, topic string) *wire.Command {
	switch {
	case h.slave:
		return wire.NewResponse(req, int32(protocol.RespSystemError), slaveModifyRemark)
	case topics.Validate(topic) != nil:
		return wire.NewResponse(req, int32(protocol.RespSystemError), topics.Validate(topic).Error())
	case h.topics.IsSystemTopic(topic):
		return wire.NewResponse(req, int32(protocol.RespSystemError), "The topic["+topic+"] is conflict with system topic.")
	}
	return nil
}

func (h *topicAdmin) createTopic(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.CreateTopicRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if resp := h.checkTopic(req, hdr.Topic); resp != nil {
		return resp, nil
	}
	ft, ok := config.ParseTopicFilterType(hdr.TopicFilterType)
	if !ok {
		return nil, protocol.Errorf(protocol.RespSystemError, "java.lang.IllegalArgumentException: No enum constant org.apache.rocketmq.common.TopicFilterType.%s", hdr.TopicFilterType)
	}
	tc := config.NewTopicConfig(hdr.Topic)
	tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm = hdr.ReadQueueNums, hdr.WriteQueueNums, hdr.Perm
	tc.TopicFilterType, tc.TopicSysFlag = ft, hdr.TopicSysFlag.Or(0)
	if err := h.topics.Update(tc); err != nil {
		return nil, err
	}
	h.registerTopic(tc)
	resp := success(req)
	resp.Remark = remarkNotSet
	return resp, nil
}

func (h *topicAdmin) deleteTopic(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.DeleteTopicRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if resp := h.checkTopic(req, hdr.Topic); resp != nil {
		return resp, nil
	}
	if topics.IsLmq(hdr.Topic) {
		gone, err := h.store.CleanUnusedLmqTopic(hdr.Topic)
		if gone {
			h.deleted(hdr.Topic)
		}
		return success(req), err
	}
	if _, err := h.topics.Delete(hdr.Topic); err != nil {
		return nil, err
	}
	gone, err := h.store.CleanUnusedTopics(func(t string) bool { _, ok := h.topics.Select(t); return ok })
	h.deleted(gone...)
	h.deleted(hdr.Topic) // Java's processor: whether or not the store had queues
	return success(req), err
}

// allTopicConfig answers TopicConfigManager.encode(): the wrapper in
// compact fastjson.
func (h *topicAdmin) allTopicConfig(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	resp := success(req)
	resp.Body = wrapperJSON(h.topics.Wrapper(), -1)
	return resp, nil
}

// wrapperJSON writes a TopicConfigSerializeWrapper; perm ≥ 0 replaces
// every topic's perm (registration of a broker that is not read-write).
func wrapperJSON(wr topics.Wrapper, perm int32) []byte {
	w := fastjson.NewWriter(fastjson.Compact)
	writeWrapper(w, wr, perm)
	return w.Bytes()
}

func writeWrapper(w *fastjson.Writer, wr topics.Wrapper, perm int32) {
	w.BeginObject()
	w.Key("dataVersion")
	wr.DataVersion.WriteJSON(w)
	w.Key("topicConfigTable")
	w.BeginObject()
	for _, tc := range wr.Topics {
		if perm >= 0 {
			tc.Perm = perm
		}
		w.Key(tc.TopicName)
		tc.WriteJSON(w)
	}
	w.EndObject()
	w.EndObject()
}
