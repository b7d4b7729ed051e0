package namesrv

// Topic lists, deletion and broker write permissions:
//
//	GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206)   every topic
//	GET_TOPICS_BY_CLUSTER (224)                topics of one cluster
//	GET_SYSTEM_TOPIC_LIST_FROM_NS (304)        cluster and broker names, one broker address
//	GET_UNIT_TOPIC_LIST (311)                  topics with the unit flag
//	GET_HAS_UNIT_SUB_TOPIC_LIST (312)          topics with the unit-sub flag
//	GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST (313)   unit-sub but not unit
//	DELETE_TOPIC_IN_NAMESRV (216)              drop a topic (of one cluster)
//	WIPE_WRITE_PERM_OF_BROKER (205)            make a broker group read-only in routes
//	ADD_WRITE_PERM_OF_BROKER (327)             give it back read+write
//
// Java 4.9.8 mirror: the same-named methods of DefaultRequestProcessor.

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// topicHandlers serves the topic administration codes.
type topicHandlers struct {
	routes *routeinfo.Table
	log    *logrus.Entry
}

func (h *topicHandlers) register(t handlerTable) {
	t.Add(protocol.ReqGetAllTopicListFromNameserver, h.list(h.routes.AllTopics))
	t.Add(protocol.ReqGetSystemTopicListFromNs, h.list(h.routes.SystemTopics))
	t.Add(protocol.ReqGetUnitTopicList, h.list(h.routes.UnitTopics))
	t.Add(protocol.ReqGetHasUnitSubTopicList, h.list(h.routes.HasUnitSubTopics))
	t.Add(protocol.ReqGetHasUnitSubUnunitTopicList, h.list(h.routes.HasUnitSubUnUnitTopics))
	t.Add(protocol.ReqGetTopicsByCluster, h.topicsByCluster)
	t.Add(protocol.ReqDeleteTopicInNamesrv, h.deleteTopic)
	t.Add(protocol.ReqWipeWritePermOfBroker, h.wipeWritePerm)
	t.Add(protocol.ReqAddWritePermOfBroker, h.addWritePerm)
}

// list serves a code answering a TopicList without header.
func (h *topicHandlers) list(get func() routeinfo.TopicList) remoting.Handler {
	return func(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
		tl := get()
		resp := success(req)
		resp.Body = tl.AppendJSON(nil)
		return resp, nil
	}
}

func (h *topicHandlers) topicsByCluster(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetTopicsByClusterRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	tl := routeinfo.TopicList{Topics: []string{}} // Java: clusterAddrTable.get(null), no cluster
	if hdr.Cluster.Valid {
		tl = h.routes.TopicsByCluster(hdr.Cluster.Value)
	}
	resp := success(req)
	resp.Body = tl.AppendJSON(nil)
	return resp, nil
}

func (h *topicHandlers) deleteTopic(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.DeleteTopicFromNamesrvRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	switch {
	case !hdr.Topic.Valid: // Java: topicQueueTable.remove(null), nothing
	case hdr.ClusterName != "":
		h.routes.DeleteTopicInCluster(hdr.Topic.Value, hdr.ClusterName)
	default:
		h.routes.DeleteTopic(hdr.Topic.Value)
	}
	return success(req), nil
}

func (h *topicHandlers) wipeWritePerm(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.WipeWritePermOfBrokerRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	n := 0
	if hdr.BrokerName.Valid { // Java: brokerAddrTable.get(null), no broker
		n = h.routes.WipeWritePerm(hdr.BrokerName.Value)
	}
	h.log.Infof("wipe write perm of broker[%s], client: %s, %d", javaString(hdr.BrokerName), c.RemoteAddr(), n)
	resp := success(req)
	(&protocol.WipeWritePermOfBrokerResponseHeader{WipeTopicCount: int32(n)}).EncodeTo(resp)
	return resp, nil
}

func (h *topicHandlers) addWritePerm(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.AddWritePermOfBrokerRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	n := 0
	if hdr.BrokerName.Valid {
		n = h.routes.AddWritePerm(hdr.BrokerName.Value)
	}
	h.log.Infof("add write perm of broker[%s], client: %s, %d", javaString(hdr.BrokerName), c.RemoteAddr(), n)
	resp := success(req)
	(&protocol.AddWritePermOfBrokerResponseHeader{AddTopicCount: int32(n)}).EncodeTo(resp)
	return resp, nil
}
