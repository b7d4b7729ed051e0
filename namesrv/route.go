package namesrv

// Routes and cluster layout:
//
//	GET_ROUTEINFO_BY_TOPIC (105)   a topic's queues and brokers
//	GET_BROKER_CLUSTER_INFO (106)  every broker group and cluster
//
// Java 4.9.8 mirror: DefaultRequestProcessor.getRouteInfoByTopic and
// getBrokerClusterInfo; ClusterTestRequestProcessor.getRouteInfoByTopic
// when clusterTest is on.

import (
	"context"

	"github.com/sputnikmq/sputnik/namesrv/kvconfig"
	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// routeFetcher looks a topic up elsewhere: the product environment's name
// servers in clusterTest mode.
type routeFetcher interface {
	fetchRoute(ctx context.Context, topic string) (*routeinfo.TopicRouteData, error)
}

// routeHandlers serves the route lookups.
type routeHandlers struct {
	routes *routeinfo.Table
	kv     *kvconfig.Store
	// orderMessageEnable reads NamesrvConfig.orderMessageEnable, which
	// UPDATE_NAMESRV_CONFIG may change.
	orderMessageEnable func() bool
	// clusterTest, when set, is ClusterTestRequestProcessor's fallback.
	clusterTest routeFetcher
}

func (h *routeHandlers) register(t handlerTable) {
	t.Add(protocol.ReqGetRouteinfoByTopic, h.getRouteInfoByTopic)
	t.Add(protocol.ReqGetBrokerClusterInfo, h.getBrokerClusterInfo)
}

func (h *routeHandlers) getRouteInfoByTopic(ctx context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetRouteInfoRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	if !hdr.Topic.Valid { // Java: topicQueueTable.get(null)
		return topicNotExist(req, javaString(hdr.Topic)), nil
	}
	topic := hdr.Topic.Value
	if h.clusterTest != nil {
		return h.clusterTestRoute(ctx, req, topic), nil
	}
	standard := req.Version >= wire.VersionV4_9_4 || hdr.AcceptStandardJsonOnly.Or(false)
	resp := success(req)
	if conf, ok := h.orderTopicConf(topic); ok {
		rd, found := h.routes.PickupTopicRouteData(topic)
		if !found {
			return topicNotExist(req, topic), nil
		}
		rd.OrderTopicConf = &conf
		resp.Body = rd.AppendJSON(make([]byte, 0, 512), standard)
		return resp, nil
	}
	body, found := h.routes.RouteJSON(topic, standard) // cached until the table changes
	if !found {
		return topicNotExist(req, topic), nil
	}
	resp.Body = body
	return resp, nil
}

// orderTopicConf is the ORDER_TOPIC_CONFIG entry attached to routes when
// orderMessageEnable is on.
func (h *routeHandlers) orderTopicConf(topic string) (string, bool) {
	if !h.orderMessageEnable() {
		return "", false
	}
	return h.kv.Get(kvconfig.NamespaceOrderTopicConfig, topic)
}

func (h *routeHandlers) setOrderTopicConf(rd *routeinfo.TopicRouteData, topic string) {
	if conf, ok := h.kv.Get(kvconfig.NamespaceOrderTopicConfig, topic); ok {
		rd.OrderTopicConf = &conf
	}
}

// clusterTestRoute serves the lookup in clusterTest mode: the order
// configuration is always attached, a topic unknown here is looked up in
// the product environment, and the body is always fastjson's form.
func (h *routeHandlers) clusterTestRoute(ctx context.Context, req *wire.Command, topic string) *wire.Command {
	rd, ok := h.routes.PickupTopicRouteData(topic)
	if ok {
		h.setOrderTopicConf(rd, topic)
	} else if fetched, err := h.clusterTest.fetchRoute(ctx, topic); err == nil {
		rd, ok = fetched, true
	}
	if !ok {
		return topicNotExist(req, topic)
	}
	resp := success(req)
	resp.Body = rd.AppendJSON(nil, false)
	return resp
}

func topicNotExist(req *wire.Command, topic string) *wire.Command {
	return wire.NewResponse(req, int32(protocol.RespTopicNotExist),
		"No topic route info in name server for the topic: "+topic+protocol.FAQSuggestTodo)
}

func (h *routeHandlers) getBrokerClusterInfo(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	resp := success(req)
	resp.Body = h.routes.ClusterInfo().AppendJSON(nil)
	return resp, nil
}
