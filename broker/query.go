package broker

// Message queries (mqadmin queryMsgByKey, queryMsgByUniqueKey,
// queryMsgById):
//
//	QUERY_MESSAGE (12)        messages by key in a store-time range; the
//	                          records are concatenated in the body
//	VIEW_MESSAGE_BY_ID (33)   the record at a commit-log offset (the
//	                          offset message id, decoded by the client)
//
// Java 4.9.8 mirror: QueryMessageProcessor.queryMessage and
// viewMessageById. Both answer straight from the mapped commit log, as
// Java's QueryMessageTransfer / OneMessageTransfer do.

import (
	"context"
	"strconv"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/segment"
)

// uniqueMsgQueryFlag is MixAll.UNIQUE_MSG_QUERY_FLAG: the ext field that
// makes a key query look for a unique (client) message id, with the
// store's defaultQueryMaxNum instead of the client's maxNum.
const uniqueMsgQueryFlag = "_UNIQUE_KEY_QUERY"

type queryHandlers struct {
	store *store.Store
	// serialize is the server's configured serialize type: Java writes a
	// found message as a FileRegion, outside the request's callback, with
	// the header in that type.
	serialize wire.SerializeType
}

func (h *queryHandlers) register(t handlerTable) {
	t.Add(protocol.ReqQueryMessage, h.queryMessage)
	t.Add(protocol.ReqViewMessageById, h.viewMessage)
}

func (h *queryHandlers) queryMessage(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryMessageRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	if v, ok := req.ExtValue(uniqueMsgQueryFlag); ok && v == "true" {
		hdr.MaxNum = h.store.Config().DefaultQueryMaxNum
	}
	res := h.store.QueryMessage(hdr.Topic, hdr.Key, int(hdr.MaxNum), hdr.BeginTimestamp, hdr.EndTimestamp)
	resp := success(req)
	(&protocol.QueryMessageResponseHeader{
		IndexLastUpdateTimestamp: res.IndexLastUpdateTimestamp,
		IndexLastUpdatePhyoffset: res.IndexLastUpdatePhyOffset,
	}).EncodeTo(resp)
	if res.BufferTotalSize > 0 {
		resp.Payload = &queryPayload{res: res}
		resp.Serialize = h.serialize
		return resp, nil
	}
	res.Release()
	resp.Code = int32(protocol.RespQueryNotFound)
	resp.Remark = "can not find message, maybe time range not correct"
	return resp, nil
}

func (h *queryHandlers) viewMessage(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ViewMessageRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	v, ok := h.store.SelectOneMessage(hdr.Offset)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespSystemError),
			"can not find message by the offset, "+strconv.FormatInt(hdr.Offset, 10)), nil
	}
	resp := success(req)
	resp.Payload = &viewPayload{v: v}
	resp.Serialize = h.serialize
	return resp, nil
}

// queryPayload sends the found records from the commit log.
type queryPayload struct{ res *store.QueryResult }

func (p *queryPayload) Buffers() [][]byte {
	out := make([][]byte, len(p.res.Messages))
	for i := range p.res.Messages {
		out[i] = p.res.Messages[i].B
	}
	return out
}

func (p *queryPayload) Len() int { return p.res.BufferTotalSize }
func (p *queryPayload) Release() { p.res.Release() }

// viewPayload sends one record from the commit log.
type viewPayload struct{ v segment.View }

func (p *viewPayload) Buffers() [][]byte { return [][]byte{p.v.B} }
func (p *viewPayload) Len() int          { return len(p.v.B) }
func (p *viewPayload) Release()          { p.v.Release() }
