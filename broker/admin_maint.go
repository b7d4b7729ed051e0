package broker

// Store maintenance and the lists mqadmin and slaves fetch:
//
//	GET_ALL_DELAY_OFFSET (45)               ScheduleMessageService.encode(): how far each
//	                                        delay level was delivered (a slave copies it
//	                                        every 10 s)
//	GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305) TopicList of TopicValidator's system topics
//	CLEAN_EXPIRED_CONSUMEQUEUE (306)        mqadmin cleanExpiredCQ: drop consume queues
//	                                        whose messages are all gone
//	CLEAN_UNUSED_TOPIC (316)                mqadmin cleanUnusedTopic: drop consume queues
//	                                        of topics the broker no longer has
//	DELETE_EXPIRED_COMMITLOG (329)          mqadmin deleteExpiredCommitLog: delete expired
//	                                        commit-log files now (executeDeleteFilesManually)
//
// Java 4.9.8 mirror: AdminBrokerProcessor.getAllDelayOffset,
// getSystemTopicListFromBroker, cleanExpiredConsumeQueue, cleanUnusedTopic,
// deleteExpiredCommitLog. Java answers SUCCESS to the clean-ups whatever
// they did; so does Sputnik, logging a failure.

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
)

type maintAdmin struct {
	store  *store.Store
	topics *topics.Manager
	log    *logrus.Entry
	// topicsDeleted follows cleanUnusedTopic (the statistics'
	// onTopicDeleted with autoDeleteUnusedStats); may be nil.
	topicsDeleted func(topics ...string)
}

func (h *maintAdmin) register(t handlerTable) {
	t.Add(protocol.ReqGetAllDelayOffset, h.delayOffsets)
	t.Add(protocol.ReqGetSystemTopicListFromBroker, h.systemTopics)
	t.Add(protocol.ReqCleanExpiredConsumequeue, h.cleanExpiredCQ)
	t.Add(protocol.ReqCleanUnusedTopic, h.cleanUnusedTopic)
	t.Add(protocol.ReqDeleteExpiredCommitlog, h.deleteExpiredCommitLog)
}

func (h *maintAdmin) delayOffsets(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	data, err := h.store.DelayOffsets()
	if err != nil {
		return nil, err
	}
	resp := success(req)
	resp.Body = data
	return resp, nil
}

func (h *maintAdmin) systemTopics(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("topicList")
	w.BeginArray()
	for _, t := range h.topics.SystemTopicList() {
		w.String(t)
	}
	w.EndArray()
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

func (h *maintAdmin) cleanExpiredCQ(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	h.log.WithField("remote", remoteOf(c)).Warn("invoke cleanExpiredConsumeQueue start")
	n, err := h.store.CleanExpiredConsumeQueues()
	h.logCleanup("cleanExpiredConsumeQueue", n, err)
	return success(req), nil
}

func (h *maintAdmin) cleanUnusedTopic(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	h.log.WithField("remote", remoteOf(c)).Warn("invoke cleanUnusedTopic start")
	gone, err := h.store.CleanUnusedTopics(func(topic string) bool {
		_, ok := h.topics.Select(topic)
		return ok
	})
	if h.topicsDeleted != nil && len(gone) > 0 {
		h.topicsDeleted(gone...)
	}
	h.logCleanup("cleanUnusedTopic", len(gone), err)
	return success(req), nil
}

func (h *maintAdmin) logCleanup(what string, n int, err error) {
	l := h.log.WithField("removed", n)
	if err != nil {
		l.WithError(err).Error("invoke " + what + " failed")
		return
	}
	l.Warn("invoke " + what + " end")
}

func (h *maintAdmin) deleteExpiredCommitLog(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	h.log.WithField("remote", remoteOf(c)).Warn("invoke deleteExpiredCommitLog")
	h.store.DeleteFilesManually()
	return success(req), nil
}
