package clients

// Codes: GET_CONSUMER_LIST_BY_GROUP (38), GET_CONSUMER_CONNECTION_LIST (203),
// GET_PRODUCER_CONNECTION_LIST (204).
// Java 4.9.8 mirrors: ConsumerManageProcessor.getConsumerListByGroup,
// AdminBrokerProcessor.getConsumerConnectionList and getProducerConnectionList.

import (
	"errors"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func errorsIsNull(err error) bool { return errors.Is(err, body.ErrNull) }

// GetConsumerListByGroup answers the group's client ids, or SYSTEM_ERROR
// "no consumer for this group, <group>" when the group is unknown or has
// no channel.
func (h *Handlers) GetConsumerListByGroup(_ Channel, req *wire.Command) (*wire.Command, error) {
	group, ok := ext(req, "consumerGroup")
	if !ok {
		return nil, errNPE("ConsumerManager.getConsumerGroupInfo")
	}
	if g, found := h.Consumers.Group(group); found {
		if ids := g.ClientIDs(); len(ids) > 0 {
			resp := success(req)
			resp.Body = (&body.ConsumerList{ConsumerIDList: ids}).Encode()
			return resp, nil
		}
	}
	return nil, &protocol.Error{Code: protocol.RespSystemError, Remark: "no consumer for this group, " + group}
}

func connectionOf(info ClientChannelInfo) body.Connection {
	lang := ""
	if info.Language.Known() {
		lang = info.Language.String()
	}
	return body.Connection{ClientID: body.Str(info.ClientID), ClientAddr: body.Str(info.Channel.RemoteAddr()),
		Language: lang, Version: info.Version}
}

// GetConsumerConnectionList answers ConsumerConnection, or
// CONSUMER_NOT_ONLINE "the consumer group[<g>] not online".
func (h *Handlers) GetConsumerConnectionList(_ Channel, req *wire.Command) (*wire.Command, error) {
	group, ok := ext(req, "consumerGroup")
	if !ok {
		return nil, errNPE("ConsumerManager.getConsumerGroupInfo")
	}
	g, found := h.Consumers.Group(group)
	if !found {
		return nil, &protocol.Error{Code: protocol.RespConsumerNotOnline,
			Remark: "the consumer group[" + group + "] not online"}
	}
	cc := body.ConsumerConnection{ConnectionSet: []body.Connection{}, SubscriptionTable: g.SubscriptionTable(),
		ConsumeType: g.ConsumeType, MessageModel: g.MessageModel, ConsumeFromWhere: g.ConsumeFromWhere}
	for _, info := range g.Channels {
		cc.ConnectionSet = append(cc.ConnectionSet, connectionOf(info))
	}
	resp := success(req)
	resp.Body = cc.Encode()
	return resp, nil
}

// GetProducerConnectionList answers ProducerConnection, or SYSTEM_ERROR
// "the producer group[<g>] not exist".
func (h *Handlers) GetProducerConnectionList(_ Channel, req *wire.Command) (*wire.Command, error) {
	group, ok := ext(req, "producerGroup")
	if !ok {
		return nil, errNPE("ProducerManager.getGroupChannelTable().get")
	}
	infos, found := h.Producers.Connections(group)
	if !found {
		return nil, &protocol.Error{Code: protocol.RespSystemError,
			Remark: "the producer group[" + group + "] not exist"}
	}
	pc := body.ProducerConnection{ConnectionSet: []body.Connection{}}
	for _, info := range infos {
		pc.ConnectionSet = append(pc.ConnectionSet, connectionOf(info))
	}
	resp := success(req)
	resp.Body = pc.Encode()
	return resp, nil
}

// GetAllProducerInfo is getAllProducerInfo (ProducerManager.getProducerTable):
// every producer group with its channels.
func (h *Handlers) GetAllProducerInfo(_ Channel, req *wire.Command) (*wire.Command, error) {
	var groups []body.ProducerGroupInfos
	for _, g := range h.Producers.Groups() {
		infos, _ := h.Producers.Connections(g)
		if len(infos) == 0 {
			continue // Java builds entries from channels: an empty group has none
		}
		pg := body.ProducerGroupInfos{Group: g}
		for _, info := range infos {
			c := connectionOf(info)
			// Java writes channel.remoteAddress().toString(): "/ip:port"
			pg.Producers = append(pg.Producers, body.ProducerInfo{ClientID: info.ClientID, RemoteIP: "/" + c.ClientAddr.S,
				Language: c.Language, Version: info.Version, LastUpdateTimestamp: info.LastUpdate})
		}
		groups = append(groups, pg)
	}
	resp := success(req)
	resp.Body = body.EncodeProducerTableInfo(groups)
	return resp, nil
}
