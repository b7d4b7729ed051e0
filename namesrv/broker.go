package namesrv

// Broker registration and liveness:
//
//	REGISTER_BROKER (103)     register a broker group member and its topics
//	UNREGISTER_BROKER (104)   a broker shutting down
//	QUERY_DATA_VERSION (322)  a broker checking whether it must re-register
//
// Java 4.9.8 mirror: DefaultRequestProcessor.registerBrokerWithFilterServer,
// registerBroker (request version < V3_0_11), unregisterBroker,
// queryBrokerTopicConfig; BrokerHousekeepingService.

import (
	"context"
	"errors"
	"hash/crc32"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/namesrv/kvconfig"
	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Remarks of Java exceptions thrown while decoding a body: the remoting
// layer answers SYSTEM_ERROR with RemotingHelper.exceptionSimpleDesc.
const (
	remarkCRCMismatch      = "crc32 not match"
	remarkRegisterBodyFail = "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody, " +
		"org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.registerBrokerWithFilterServer(DefaultRequestProcessor.java:241)"
	remarkJSONException = "com.alibaba.fastjson.JSONException: "
)

// brokerHandlers serves the broker-facing codes.
type brokerHandlers struct {
	routes *routeinfo.Table
	kv     *kvconfig.Store
	now    func() time.Time
	log    *logrus.Entry
}

func (h *brokerHandlers) register(t handlerTable) {
	t.Add(protocol.ReqRegisterBroker, h.registerBroker)
	t.Add(protocol.ReqUnregisterBroker, h.unregisterBroker)
	t.Add(protocol.ReqQueryDataVersion, h.queryDataVersion)
}

func (h *brokerHandlers) nowMillis() int64 { return h.now().UnixMilli() }

func (h *brokerHandlers) registerBroker(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.RegisterBrokerRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	if !checksum(req.Body, hdr.BodyCrc32) {
		h.log.Warnf("receive registerBroker request,crc32 not match,from %s", c.RemoteAddr())
		return wire.NewResponse(req, int32(protocol.RespSystemError), remarkCRCMismatch), nil
	}
	reg := &routeinfo.Registration{
		ClusterName:  hdr.ClusterName,
		BrokerAddr:   hdr.BrokerAddr,
		BrokerName:   hdr.BrokerName,
		BrokerID:     hdr.BrokerId,
		HAServerAddr: hdr.HaServerAddr,
		Conn:         c,
	}
	if err := h.decodeBody(req, hdr.Compressed, reg); err != nil {
		return nil, err
	}
	res := h.routes.RegisterBroker(reg)
	resp := success(req)
	rh := protocol.RegisterBrokerResponseHeader{HaServerAddr: res.HAServerAddr, MasterAddr: res.MasterAddr}
	rh.EncodeTo(resp)
	resp.Body, _ = h.kv.KVTableJSON(kvconfig.NamespaceOrderTopicConfig)
	return resp, nil
}

// decodeBody fills reg's topics from the body in the form the request's
// version implies; no body registers version 0/0 and no topics.
func (h *brokerHandlers) decodeBody(req *wire.Command, compressed bool, reg *routeinfo.Registration) error {
	legacy := req.Version < wire.VersionV3_0_11
	if len(req.Body) == 0 {
		if !legacy {
			reg.FilterServers = []string{}
		}
		return nil
	}
	now := h.nowMillis()
	if legacy {
		w, err := routeinfo.DecodeTopicConfigWrapper(req.Body, now)
		if err != nil {
			return errors.New(remarkJSONException + err.Error())
		}
		reg.Topics = w
		return nil
	}
	rb, err := routeinfo.DecodeRegisterBody(req.Body, compressed, now)
	if err != nil {
		h.log.WithError(err).Warn("Failed to decode RegisterBrokerBody")
		return errors.New(remarkRegisterBodyFail)
	}
	reg.Topics, reg.FilterServers = rb.Topics, rb.FilterServers
	return nil
}

// checksum is DefaultRequestProcessor.checksum: a non-zero header CRC must
// equal UtilAll.crc32 of the body (CRC32 & 0x7FFFFFFF; 0 for no body).
func checksum(body []byte, want int32) bool {
	if want == 0 {
		return true
	}
	var got int32
	if len(body) > 0 {
		got = int32(crc32.ChecksumIEEE(body) & 0x7FFFFFFF)
	}
	return got == want
}

func (h *brokerHandlers) unregisterBroker(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.UnRegisterBrokerRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.routes.UnregisterBroker(hdr.ClusterName.Value, hdr.BrokerAddr.Value, hdr.BrokerName.Value, hdr.BrokerId) // null: no broker by that name
	return success(req), nil
}

func (h *brokerHandlers) queryDataVersion(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryDataVersionRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	v, err := routeinfo.DecodeDataVersion(req.Body, h.nowMillis())
	if err != nil {
		return nil, errors.New(remarkJSONException + err.Error())
	}
	changed, stored, ok := h.routes.QueryDataVersion(hdr.BrokerAddr.Value, v)
	resp := success(req)
	if ok {
		resp.Body = stored.AppendJSON(nil)
	}
	(&protocol.QueryDataVersionResponseHeader{Changed: changed}).EncodeTo(resp)
	return resp, nil
}

// housekeeping returns the connection hooks that drop a broker whose
// connection closed, failed or went idle (BrokerHousekeepingService).
func housekeeping(routes *routeinfo.Table) remoting.ConnHooks {
	destroy := func(c *remoting.Conn) { routes.OnConnClosed(c.RemoteAddr(), c) }
	return remoting.ConnHooks{OnClose: destroy, OnIdle: destroy, OnException: destroy}
}
