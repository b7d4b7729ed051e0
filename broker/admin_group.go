package broker

// Subscription-group administration and the tables a slave copies:
//
//	UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200)  create or replace a group
//	                                           (SubscriptionGroupConfig JSON body)
//	GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201)     SubscriptionGroupManager.encode()
//	DELETE_SUBSCRIPTIONGROUP (207)             drop a group, optionally its offsets
//	GET_ALL_CONSUMER_OFFSET (43)               ConsumerOffsetManager.encode()
//	QUERY_CORRECTION_OFFSET (216)              per queue of a topic, the smallest
//	                                           offset of the groups not filtered
//	                                           out, or Long.MAX_VALUE where the
//	                                           compare group is behind it
//
// Java 4.9.8 mirror: AdminBrokerProcessor.updateAndCreateSubscriptionGroup,
// getAllSubscriptionGroup, deleteSubscriptionGroup, getAllConsumerOffset,
// queryCorrectionOffset.
//
// Better than Java's queryCorrectionOffset: the filter groups are skipped,
// not deleted from the offset table (see broker/offsets), and a queue the
// compare group has an offset of but no other group does is left out
// where Java answers SYSTEM_ERROR (a NullPointerException).
// GET_ALL_DELAY_OFFSET (45), the fourth table a slave copies, is in
// admin_maint.go.

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
)

// ErrBadGroupBody marks an UPDATE_AND_CREATE_SUBSCRIPTIONGROUP body that
// fastjson would not turn into a SubscriptionGroupConfig.
var ErrBadGroupBody = errors.New("broker: bad subscription group body")

type groupAdmin struct {
	groups  *groups.Manager
	offsets *offsets.Manager
	// allOffsets is the consumer offset table as ConsumerOffsetManager
	// encodes it (pretty or compact; it is answered compact).
	allOffsets func() []byte
	slave      bool
	log        *logrus.Entry
	// groupDeleted follows a deleteSubscriptionGroup (the statistics'
	// onGroupDeleted with autoDeleteUnusedStats); may be nil.
	groupDeleted func(group string)
}

func (h *groupAdmin) register(t handlerTable) {
	t.Add(protocol.ReqUpdateAndCreateSubscriptiongroup, h.updateGroup)
	t.Add(protocol.ReqGetAllSubscriptiongroupConfig, h.allGroups)
	t.Add(protocol.ReqDeleteSubscriptiongroup, h.deleteGroup)
	t.Add(protocol.ReqGetAllConsumerOffset, h.allConsumerOffsets)
	t.Add(protocol.ReqQueryCorrectionOffset, h.correctionOffset)
}

func (h *groupAdmin) updateGroup(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	if h.slave {
		return wire.NewResponse(req, int32(protocol.RespSystemError), slaveModifyRemark), nil
	}
	h.log.WithField("remote", remoteOf(c)).Info("updateAndCreateSubscriptionGroup called")
	g, ok, err := decodeGroupConfig(req.Body)
	if err != nil {
		return nil, err
	}
	if ok {
		if err := h.groups.Update(g); err != nil {
			return nil, fmt.Errorf("broker: update subscription group %q: %w", g.GroupName, err)
		}
	}
	return success(req), nil
}

// decodeGroupConfig is RemotingSerializable.decode(body,
// SubscriptionGroupConfig.class); ok is false for a JSON null. The body is
// validated as one JSON value, then read by the subscription-group file
// decoder so both follow the same fastjson rules.
func decodeGroupConfig(body []byte) (config.SubscriptionGroupConfig, bool, error) {
	var g config.SubscriptionGroupConfig
	v, err := fastjson.Parse(body)
	if err != nil {
		return g, false, fmt.Errorf("%w: %w", ErrBadGroupBody, err)
	}
	switch v.Kind() {
	case fastjson.Null, fastjson.Absent:
		return g, false, nil
	case fastjson.Object:
	default:
		return g, false, fmt.Errorf("%w: %s is not an object", ErrBadGroupBody, v.Kind())
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("subscriptionGroupTable")
	w.BeginObject()
	w.Key("g")
	w.Value(v)
	w.EndObject()
	w.EndObject()
	table, err := config.DecodeSubscriptionGroups(w.Bytes())
	if err != nil {
		return g, false, fmt.Errorf("%w: %w", ErrBadGroupBody, err)
	}
	g, ok := table.Get("g")
	return g, ok, nil
}

// allGroups answers SubscriptionGroupManager.encode(): compact fastjson of
// the data version and the table in its map order.
func (h *groupAdmin) allGroups(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("dataVersion")
	h.groups.DataVersion().WriteJSON(w)
	w.Key("subscriptionGroupTable")
	w.BeginObject()
	for _, g := range h.groups.Groups() {
		w.Key(g.GroupName)
		writeGroupConfig(w, g)
	}
	w.EndObject()
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

// writeGroupConfig writes a SubscriptionGroupConfig as fastjson does
// (getters in name order).
func writeGroupConfig(w *fastjson.Writer, g config.SubscriptionGroupConfig) {
	w.BeginObject()
	w.Key("brokerId")
	w.Int64(g.BrokerID)
	w.Key("consumeBroadcastEnable")
	w.Bool(g.ConsumeBroadcastEnable)
	w.Key("consumeEnable")
	w.Bool(g.ConsumeEnable)
	w.Key("consumeFromMinEnable")
	w.Bool(g.ConsumeFromMinEnable)
	if !g.GroupNameNull {
		w.Key("groupName")
		w.String(g.GroupName)
	}
	w.Key("notifyConsumerIdsChangedEnable")
	w.Bool(g.NotifyConsumerIdsChangedEnable)
	w.Key("retryMaxTimes")
	w.Int(int(g.RetryMaxTimes))
	w.Key("retryQueueNums")
	w.Int(int(g.RetryQueueNums))
	w.Key("whichBrokerWhenConsumeSlowly")
	w.Int64(g.WhichBrokerWhenConsumeSlowly)
	w.EndObject()
}

func (h *groupAdmin) deleteGroup(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	if h.slave {
		return wire.NewResponse(req, int32(protocol.RespSystemError), slaveModifyRemark), nil
	}
	var hdr protocol.DeleteSubscriptionGroupRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.log.WithField("remote", remoteOf(c)).WithField("group", hdr.GroupName).Info("deleteSubscriptionGroup called")
	if _, err := h.groups.Delete(hdr.GroupName); err != nil {
		return nil, fmt.Errorf("broker: delete subscription group %q: %w", hdr.GroupName, err)
	}
	if hdr.RemoveOffset {
		h.offsets.RemoveGroup(hdr.GroupName)
	}
	if h.groupDeleted != nil {
		h.groupDeleted(hdr.GroupName)
	}
	return success(req), nil
}

// allConsumerOffsets answers ConsumerOffsetManager.encode() (compact).
func (h *groupAdmin) allConsumerOffsets(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	content, err := compactJSON(h.allOffsets())
	if err != nil {
		return nil, fmt.Errorf("broker: encode consumer offsets: %w", err)
	}
	if len(content) == 0 {
		h.log.WithField("remote", remoteOf(c)).Error("No consumer offset in this broker")
		return wire.NewResponse(req, int32(protocol.RespSystemError), "No consumer offset in this broker"), nil
	}
	resp := success(req)
	resp.Body = content
	return resp, nil
}

// compactJSON rewrites fastjson output (pretty or not) compact, keeping
// member order and number literals.
func compactJSON(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, nil
	}
	v, err := fastjson.Parse(b)
	if err != nil {
		return nil, err
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.Value(v)
	return w.Bytes(), w.Err()
}

// remoteOf is the connection's remote address ("" in handler tests
// without a connection).
func remoteOf(c *remoting.Conn) string {
	if c == nil {
		return ""
	}
	return c.RemoteAddr()
}

func (h *groupAdmin) correctionOffset(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryCorrectionOffsetHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	resp := success(req)
	resp.Body = body.EncodeQueryCorrectionOffsetBody(h.correction(hdr.Topic, hdr.FilterGroups, hdr.CompareGroup))
	return resp, nil
}

// correction is the correction table: Long.MAX_VALUE marks a queue where
// the compare group's offset is below the others' smallest.
func (h *groupAdmin) correction(topic, filterGroups, compareGroup string) []body.QueueOffset {
	mins := h.offsets.MinOffsetInAllGroups(topic, filterGroups)
	compare, _ := h.offsets.QueryAll(compareGroup, topic)
	rows := make([]body.QueueOffset, len(mins))
	for i, m := range mins {
		rows[i] = body.QueueOffset{QueueID: m.QueueID, Offset: m.Offset}
		for _, c := range compare {
			if c.QueueID == m.QueueID && m.Offset > c.Offset {
				rows[i].Offset = math.MaxInt64
			}
		}
	}
	return rows
}
