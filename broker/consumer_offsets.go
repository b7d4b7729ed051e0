package broker

// Offsets and queue positions:
//
//	QUERY_CONSUMER_OFFSET (14)        a group's committed offset of a queue
//	UPDATE_CONSUMER_OFFSET (15)       commit one
//	GET_MAX_OFFSET (30)               a queue's next offset
//	GET_MIN_OFFSET (31)               a queue's first offset
//	SEARCH_OFFSET_BY_TIMESTAMP (29)   the offset of a store time
//	GET_EARLIEST_MSG_STORETIME (32)   the store time of a queue's first message
//
// Java 4.9.8 mirror: ConsumerManageProcessor.queryConsumerOffset /
// updateConsumerOffset and AdminBrokerProcessor.getMaxOffset,
// getMinOffset, searchOffsetByTimestamp, getEarliestMsgStoretime.

import (
	"context"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
)

// offsetTable is the consumer offset manager as these handlers use it.
type offsetTable interface {
	offsetCommitter
	Query(group, topic string, queueID int32) int64
}

type offsetHandlers struct {
	store   *store.Store
	offsets offsetTable
}

func (h *offsetHandlers) register(t handlerTable) {
	t.Add(protocol.ReqQueryConsumerOffset, h.query)
	t.Add(protocol.ReqUpdateConsumerOffset, h.update)
	t.Add(protocol.ReqGetMaxOffset, h.maxOffset)
	t.Add(protocol.ReqGetMinOffset, h.minOffset)
	t.Add(protocol.ReqSearchOffsetByTimestamp, h.searchByTime)
	t.Add(protocol.ReqGetEarliestMsgStoretime, h.earliestTime)
}

// query answers a group's offset; a group with none gets 0 while the
// queue still starts at 0 and its first message is in memory, and
// QUERY_NOT_FOUND otherwise (so the client applies its consume-from rule).
func (h *offsetHandlers) query(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryConsumerOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	offset := h.offsets.Query(hdr.ConsumerGroup, hdr.Topic, hdr.QueueId)
	if offset < 0 {
		if h.store.MinOffsetInQueue(hdr.Topic, hdr.QueueId) > 0 || h.store.InDiskByConsumeOffset(hdr.Topic, hdr.QueueId, 0) {
			return wire.NewResponse(req, int32(protocol.RespQueryNotFound), "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first"), nil
		}
		offset = 0
	}
	resp := success(req)
	(&protocol.QueryConsumerOffsetResponseHeader{Offset: offset}).EncodeTo(resp)
	return resp, nil
}

func (h *offsetHandlers) update(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.UpdateConsumerOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.offsets.Commit(c.RemoteAddr(), hdr.ConsumerGroup, hdr.Topic, hdr.QueueId, hdr.CommitOffset)
	return success(req), nil
}

func (h *offsetHandlers) maxOffset(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetMaxOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	resp := success(req)
	(&protocol.GetMaxOffsetResponseHeader{Offset: h.store.MaxOffsetInQueue(hdr.Topic, hdr.QueueId)}).EncodeTo(resp)
	return resp, nil
}

func (h *offsetHandlers) minOffset(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetMinOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	resp := success(req)
	(&protocol.GetMinOffsetResponseHeader{Offset: h.store.MinOffsetInQueue(hdr.Topic, hdr.QueueId)}).EncodeTo(resp)
	return resp, nil
}

func (h *offsetHandlers) searchByTime(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.SearchOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	resp := success(req)
	(&protocol.SearchOffsetResponseHeader{Offset: h.store.OffsetInQueueByTime(hdr.Topic, hdr.QueueId, hdr.Timestamp)}).EncodeTo(resp)
	return resp, nil
}

func (h *offsetHandlers) earliestTime(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetEarliestMsgStoretimeRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	resp := success(req)
	(&protocol.GetEarliestMsgStoretimeResponseHeader{Timestamp: h.store.EarliestMessageTime(hdr.Topic, hdr.QueueId)}).EncodeTo(resp)
	return resp, nil
}
