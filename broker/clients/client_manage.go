package clients

// Codes: HEART_BEAT (34), UNREGISTER_CLIENT (35), CHECK_CLIENT_CONFIG (46).
// Java 4.9.8 mirror: org.apache.rocketmq.broker.processor.ClientManageProcessor.

import (
	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	brokergroups "github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// HeartBeat is ClientManageProcessor.heartBeat: every consumer group is
// registered (after its retry topic is created when the group has a
// config), then every producer group; the answer is SUCCESS without body.
func (h *Handlers) HeartBeat(ch Channel, req *wire.Command) (*wire.Command, error) {
	if len(req.Body) == 0 {
		return nil, errNPE("HeartbeatData.decode(null)")
	}
	hb, err := body.DecodeHeartbeatData(req.Body, h.Now().UnixMilli())
	if err != nil {
		return nil, bodyError(err, "heartbeatData.getClientID()")
	}
	info := ClientChannelInfo{Channel: ch, ClientID: hb.ClientID.S, Language: req.Language,
		Version: req.Version, LastUpdate: h.Now().UnixMilli()}
	for i := range hb.ConsumerDataSet {
		if err := h.registerConsumer(&hb.ConsumerDataSet[i], info); err != nil {
			return nil, err
		}
	}
	for _, p := range hb.ProducerDataSet {
		if !p.GroupName.Valid || !hb.ClientID.Valid {
			return nil, errNPE("ProducerManager.registerProducer")
		}
		h.Producers.Register(p.GroupName.S, info)
	}
	return success(req), nil
}

func (h *Handlers) registerConsumer(data *body.ConsumerData, info ClientChannelInfo) error {
	if !data.GroupName.Valid {
		return errNPE("SubscriptionGroupManager.findSubscriptionGroupConfig")
	}
	group := data.GroupName.S
	notify := true
	if cfg, ok := h.Groups.FindSubscriptionGroup(group); ok {
		notify = cfg.NotifyConsumerIdsChangedEnable
		var sysFlag int32
		if data.UnitMode {
			sysFlag = topics.SysFlagUnitSub
		}
		h.CreateRetryTopic(brokergroups.RetryTopic(group), cfg.RetryQueueNums, topics.PermRW, sysFlag)
	}
	for i := range data.SubscriptionDataSet {
		if !data.SubscriptionDataSet[i].Topic.Valid {
			return errNPE("ConsumerGroupInfo.updateSubscription")
		}
	}
	changed := h.Consumers.Register(group, info, Registration{ConsumeType: data.ConsumeType,
		MessageModel: data.MessageModel, ConsumeFromWhere: data.ConsumeFromWhere,
		Subscriptions: data.SubscriptionDataSet, NotifyIdsChanged: notify})
	if changed && h.Log != nil {
		h.Log.WithFields(logrus.Fields{"group": group, "remote": info.Channel.RemoteAddr()}).
			Info("registerConsumer info changed")
	}
	return nil
}

// UnregisterClient is ClientManageProcessor.unregisterClient: the channel
// leaves the producer group and/or the consumer group named in the header
// (each only when present).
func (h *Handlers) UnregisterClient(ch Channel, req *wire.Command) (*wire.Command, error) {
	clientID, _ := ext(req, "clientID")
	info := ClientChannelInfo{Channel: ch, ClientID: clientID, Language: req.Language, Version: req.Version}
	if group, ok := ext(req, "producerGroup"); ok {
		h.Producers.Unregister(group, info)
	}
	if group, ok := ext(req, "consumerGroup"); ok {
		notify := true
		if cfg, found := h.Groups.FindSubscriptionGroup(group); found {
			notify = cfg.NotifyConsumerIdsChangedEnable
		}
		h.Consumers.Unregister(group, ch, notify)
	}
	return success(req), nil
}

// CheckClientConfig is ClientManageProcessor.checkClientConfig (4.9.8): a
// TAG (or null or "") expression is fine; any other type fails with
// SYSTEM_ERROR when enablePropertyFilter is off, and otherwise must
// compile (SUBSCRIPTION_PARSE_FAILED). A body that decodes to null, or
// without subscriptionData, is SUCCESS.
func (h *Handlers) CheckClientConfig(_ Channel, req *wire.Command) (*wire.Command, error) {
	if len(req.Body) == 0 {
		return nil, errNPE("CheckClientRequestBody.decode(null)")
	}
	c, err := body.DecodeCheckClientRequest(req.Body, h.Now().UnixMilli())
	if err != nil && !errorsIsNull(err) {
		return nil, bodyError(err, "checkClientConfig")
	}
	sub := c.SubscriptionData
	if err != nil || sub == nil || body.IsTagType(sub.ExpressionType) {
		return success(req), nil
	}
	if !h.EnablePropertyFilter() {
		return nil, &protocol.Error{Code: protocol.RespSystemError,
			Remark: "The broker does not support consumer to filter message by " + javaString(sub.ExpressionType)}
	}
	if sub.ExpressionType.S != body.ExpressionTypeSQL92 {
		// FilterFactory.get returns null for an unknown type; Java's
		// remark is the NullPointerException's message (null on JDK 8).
		return nil, &protocol.Error{Code: protocol.RespSubscriptionParseFailed,
			Remark: "no filter for the expression type " + sub.ExpressionType.S}
	}
	if h.CompileFilter != nil {
		if err := h.CompileFilter(sub.ExpressionType.S, sub.SubString.S); err != nil {
			return nil, &protocol.Error{Code: protocol.RespSubscriptionParseFailed, Remark: err.Error()}
		}
	}
	return success(req), nil
}

// javaString is String.valueOf for string concatenation.
func javaString(s body.NullString) string {
	if !s.Valid {
		return "null"
	}
	return s.S
}
