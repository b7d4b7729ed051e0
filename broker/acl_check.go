package broker

// The access check of a broker with aclEnable=true, run before every
// request a processor takes (remoting.ServerConfig.BeforeRequest), as
// Java 4.9.8's BrokerController.initialAcl registers an RPC hook that
// calls PlainAccessValidator.validate(parse(request, remoteAddr)).
//
// aclRequest is parse: it reads the credentials from the ext fields and
// names the resources a request touches, by code. Only the codes Java
// lists name resources, and SEND_BATCH_MESSAGE (a 4.9.8 hole RocketMQ 5
// closed); every other request (admin requests, …) is checked for its
// signature alone, and admin requests for the account's admin flag
// (broker/acl). A failure answers SYSTEM_ERROR with Java's exception
// text as the remark.

import (
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/broker/acl"
	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// aclGuard checks requests against the ACL files.
type aclGuard struct{ m *acl.Manager }

// before is the remoting.ServerConfig.BeforeRequest hook.
func (g aclGuard) before(c *remoting.Conn, req *wire.Command) error {
	r, err := aclRequest(c.RemoteAddr(), req)
	if err != nil {
		return err
	}
	return g.m.Validate(r)
}

// aclRequest builds what req asks for from remoteAddr ("host:port").
func aclRequest(remoteAddr string, req *wire.Command) (*acl.Request, error) {
	r := &acl.Request{Code: req.Code, RemoteAddr: remoteHost(remoteAddr)}
	if len(req.Ext) == 0 {
		return r, nil // Java: extFields null, only a white address passes
	}
	ext := make(map[string]string, len(req.Ext))
	for _, f := range req.Ext {
		ext[f.Key] = f.Value // HashMap.put: the last duplicate wins
	}
	r.AccessKey, r.HasAccessKey = ext[acl.AccessKeyField]
	r.Signature = ext[acl.SignatureField]
	if err := addResources(r, req, ext); err != nil {
		return nil, acl.ParseError(err)
	}
	r.Content = acl.Content(ext, req.Body)
	return r, nil
}

// remoteHost is the address without its port, as Java cuts
// RemotingHelper.parseChannelRemoteAddr at the last ':'.
func remoteHost(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		return addr[:i]
	}
	return addr
}

// addResources names the topics and groups req needs, by code, as
// PlainAccessValidator.parse does: a group is its retry topic.
func addResources(r *acl.Request, req *wire.Command, ext map[string]string) error {
	switch protocol.RequestCode(req.Code) {
	case protocol.ReqSendMessage:
		addSend(r, ext["topic"], ext["group"]) // v1 has no "group" field: a retry topic then needs nothing, as in Java
	case protocol.ReqSendMessageV2, protocol.ReqSendBatchMessage:
		// 4.9.8 checks a batch's signature only, so a batch reached topics
		// its sender may not publish to; RocketMQ 5 checks it as a
		// SEND_MESSAGE_V2, and so does Sputnik.
		addSend(r, ext["b"], ext["a"])
	case protocol.ReqConsumerSendMsgBack:
		addGroup(r, ext["group"])
	case protocol.ReqPullMessage:
		addTopic(r, ext["topic"], acl.Sub)
		addGroup(r, ext["consumerGroup"])
	case protocol.ReqQueryMessage:
		addTopic(r, ext["topic"], acl.Sub)
	case protocol.ReqHeartBeat:
		return addHeartbeat(r, req.Body)
	case protocol.ReqUnregisterClient:
		var h protocol.UnregisterClientRequestHeader
		if err := h.DecodeFrom(req); err != nil {
			return err
		}
		addGroup(r, h.ConsumerGroup)
	case protocol.ReqGetConsumerListByGroup:
		var h protocol.GetConsumerListByGroupRequestHeader
		if err := h.DecodeFrom(req); err != nil {
			return err
		}
		addGroup(r, h.ConsumerGroup)
	case protocol.ReqUpdateConsumerOffset:
		var h protocol.UpdateConsumerOffsetRequestHeader
		if err := h.DecodeFrom(req); err != nil {
			return err
		}
		addGroup(r, h.ConsumerGroup)
		addTopic(r, h.Topic, acl.Sub)
	}
	return nil
}

// addSend: a send to a retry topic needs SUB on the sender's group's
// retry topic, any other send PUB on its topic.
func addSend(r *acl.Request, topic, group string) {
	if strings.HasPrefix(topic, groups.RetryTopicPrefix) {
		addGroup(r, group)
		return
	}
	addTopic(r, topic, acl.Pub)
}

// addHeartbeat: every consumer group of the heartbeat and every topic it
// subscribes to need SUB.
func addHeartbeat(r *acl.Request, data []byte) error {
	hb, err := body.DecodeHeartbeatData(data, time.Now().UnixMilli())
	if err != nil {
		return err
	}
	for _, cd := range hb.ConsumerDataSet {
		if cd.GroupName.Valid {
			addGroup(r, cd.GroupName.S)
		}
		for _, sd := range cd.SubscriptionDataSet {
			if sd.Topic.Valid {
				addTopic(r, sd.Topic.S, acl.Sub)
			}
		}
	}
	return nil
}

// addGroup asks SUB on group's retry topic ("" is Java's null: nothing).
func addGroup(r *acl.Request, group string) {
	if group != "" {
		addTopic(r, acl.RetryTopic(group), acl.Sub)
	}
}

// addTopic asks perm on topic ("" is Java's null: nothing).
func addTopic(r *acl.Request, topic string, perm acl.Perm) {
	if topic == "" {
		return
	}
	r.Need(topic, perm)
}
