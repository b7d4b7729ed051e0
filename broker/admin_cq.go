package broker

// QUERY_CONSUME_QUEUE (321), mqadmin queryCq: the raw units of one consume
// queue from an index, with the group's subscription when one is named.
// Java 4.9.8 mirror: AdminBrokerProcessor.queryConsumeQueue.
//
// As in Java, the units come from the one file that holds the index
// (getIndexBuffer), at most count of them; an index the queue does not
// hold answers SUCCESS with a remark and no body. filterData is the
// group's ConsumerFilterData as fastjson prints it ("null" for a TAG
// subscription); a unit in the ext file is evaluated with the group's
// filter.

import (
	"context"
	"fmt"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/consumequeue"
)

func (h *statsAdmin) queryConsumeQueue(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryConsumeQueueRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	q := h.store.ConsumeQueues().Get(hdr.Topic, hdr.QueueId)
	if q == nil {
		return wire.NewResponse(req, int32(protocol.RespSystemError), fmt.Sprintf("%d@%s is not exist!", hdr.QueueId, hdr.Topic)), nil
	}
	res := body.QueryConsumeQueueResponse{MaxQueueIndex: q.MaxOffset(), MinQueueIndex: q.MinOffset()}
	var eval func(tagsCode int64, ext *consumequeue.ExtUnit) bool // nil: no group named
	if _, named := req.ExtValue("consumerGroup"); named {
		if sd, ok := h.consumers.FindSubscription(hdr.ConsumerGroup, hdr.Topic); ok {
			res.SubscriptionData = &sd
			fd, sqlEval := h.filters.QueueView(hdr.Topic, hdr.ConsumerGroup)
			res.FilterData = body.Str(fd)
			eval = func(_ int64, ext *consumequeue.ExtUnit) bool { return sqlEval(ext.MsgStoreTime, ext.BitMap) }
			if body.IsTagType(sd.ExpressionType) {
				eval = newTagFilter(sd.SubString.S).evalExt
			}
		} else {
			res.FilterData = body.Str(fmt.Sprintf("%s@%s is not online!", hdr.ConsumerGroup, hdr.Topic))
		}
	}
	units, err := q.Read(hdr.Index)
	if err != nil {
		resp := success(req)
		resp.Remark = fmt.Sprintf("Index %d of %d@%s is not exist!", hdr.Index, hdr.QueueId, hdr.Topic)
		return resp, nil
	}
	defer units.Release()
	res.QueueData = []body.ConsumeQueueData{}
	for i := 0; i < units.Len() && i < int(max(hdr.Count, 0)); i++ {
		res.QueueData = append(res.QueueData, h.unitData(q, units.At(i), eval))
	}
	resp := success(req)
	resp.Remark = remarkNotSet
	resp.Body = res.Encode()
	return resp, nil
}

// unitData is one unit's ConsumeQueueData; with the ext file on, a unit
// whose tags code is an ext address carries the ext unit.
func (h *statsAdmin) unitData(q *consumequeue.Queue, u consumequeue.Unit, eval func(int64, *consumequeue.ExtUnit) bool) body.ConsumeQueueData {
	d := body.ConsumeQueueData{PhysicOffset: u.Phy, PhysicSize: u.Size, TagsCode: u.TagsCode}
	if q.Ext() == nil || !consumequeue.IsExtAddr(u.TagsCode) {
		return d
	}
	ext, err := q.ExtUnit(u.TagsCode)
	if err != nil {
		d.Msg = body.Str(fmt.Sprintf("Cq extend not exist!addr: %d", u.TagsCode))
		return d
	}
	d.ExtendDataJSON = body.Str(body.ExtUnitJSON(ext.Size, ext.TagsCode, ext.MsgStoreTime, ext.BitMap))
	if len(ext.BitMap) > 0 {
		d.BitMap = body.Str(body.BitsString(ext.BitMap))
	}
	if eval != nil {
		d.Eval = eval(ext.TagsCode, &ext)
	}
	return d
}
