package compat_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// stub plays a one-broker name server and broker behind a real Sputnik
// remoting server, just enough for official clients to exercise the wire:
// route lookups, heartbeats, sends, topic admin, and a server→client
// callback. It records every request it gets.
type stub struct {
	srv  *remoting.Server
	addr string

	mu       sync.Mutex
	requests []*wire.Command
	oneway   chan *wire.Command
	callback chan string // results of the server→client requests
}

func startStub(t *testing.T) *stub { return startStubOn(t, nil) }

// startStubOn starts the stub; wrap, if set, wraps its listener (to tee
// the bytes clients send).
func startStubOn(t *testing.T, wrap func(net.Listener) net.Listener) *stub {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	if wrap != nil {
		ln = wrap(ln)
	}
	s := &stub{addr: ln.Addr().String(), oneway: make(chan *wire.Command, 16), callback: make(chan string, 4)}
	s.srv = remoting.NewServer(remoting.ServerConfig{})
	s.srv.RegisterProcessor([]protocol.RequestCode{
		protocol.ReqGetRouteinfoByTopic, protocol.ReqHeartBeat, protocol.ReqUnregisterClient,
		protocol.ReqSendMessage, protocol.ReqSendMessageV2, protocol.ReqUpdateConsumerOffset,
		protocol.ReqGetAllTopicListFromNameserver, protocol.ReqUpdateAndCreateTopic,
	}, remoting.Processor{Handler: s.handle})
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.srv.Shutdown(ctx)
	})
	return s
}

func (s *stub) seen(code protocol.RequestCode) []*wire.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*wire.Command
	for _, c := range s.requests {
		if c.Code == int32(code) {
			out = append(out, c)
		}
	}
	return out
}

func (s *stub) handle(ctx context.Context, conn *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	req.DetachBody()
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	switch protocol.RequestCode(req.Code) {
	case protocol.ReqGetRouteinfoByTopic:
		return s.route(ctx, conn, req)
	case protocol.ReqSendMessage, protocol.ReqSendMessageV2:
		return s.send(req)
	case protocol.ReqUpdateConsumerOffset:
		s.oneway <- req
		return wire.NewResponse(req, int32(protocol.RespSuccess), ""), nil
	case protocol.ReqGetAllTopicListFromNameserver:
		resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
		resp.Body = []byte(`{"topicList":["TopicTest","TBW102"]}`)
		return resp, nil
	}
	return wire.NewResponse(req, int32(protocol.RespSuccess), ""), nil
}

// routeBody is a fastjson-style TopicRouteData with this stub as broker-a.
func (s *stub) routeBody() []byte {
	return []byte(fmt.Sprintf(`{"brokerDatas":[{"brokerAddrs":{0:"%s"},"brokerName":"broker-a","cluster":"DefaultCluster"}],`+
		`"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}`, s.addr))
}

func (s *stub) route(ctx context.Context, conn *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var h protocol.GetRouteInfoRequestHeader
	if err := h.DecodeFrom(req); err != nil {
		return nil, err
	}
	if h.Topic.Value == "CallMeBack" {
		s.callBack(ctx, conn)
	}
	if h.Topic.Value == "NoSuchTopic" {
		return nil, protocol.Errorf(protocol.RespTopicNotExist, "No topic route info in name server for the topic: %s", h.Topic.Value)
	}
	resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
	resp.Body = s.routeBody()
	return resp, nil
}

// callBack sends GET_CONSUMER_RUNNING_INFO (sync) and
// NOTIFY_CONSUMER_IDS_CHANGED (oneway) to the requesting client.
func (s *stub) callBack(ctx context.Context, conn *remoting.Conn) {
	ri := wire.NewRequest(int32(protocol.ReqGetConsumerRunningInfo))
	(&protocol.GetConsumerRunningInfoRequestHeader{ConsumerGroup: "CG", ClientId: "client-1"}).EncodeTo(ri)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	resp, err := conn.InvokeSync(ctx, ri)
	if err != nil {
		s.callback <- "error " + err.Error()
	} else {
		s.callback <- fmt.Sprintf("code=%d body=%s", resp.Code, resp.Body)
	}
	n := wire.NewRequest(int32(protocol.ReqNotifyConsumerIdsChanged))
	(&protocol.NotifyConsumerIdsChangedRequestHeader{ConsumerGroup: "CG"}).EncodeTo(n)
	if err := conn.InvokeOneway(n); err != nil {
		s.callback <- "error " + err.Error()
	}
}

func (s *stub) send(req *wire.Command) (*wire.Command, error) {
	var topic string
	if req.Code == int32(protocol.ReqSendMessageV2) {
		var h protocol.SendMessageRequestHeaderV2
		if err := h.DecodeFrom(req); err != nil {
			return nil, err
		}
		topic = h.Topic
	} else {
		var h protocol.SendMessageRequestHeader
		if err := h.DecodeFrom(req); err != nil {
			return nil, err
		}
		topic = h.Topic
	}
	if topic != "TopicTest" {
		return nil, protocol.Errorf(protocol.RespTopicNotExist, "topic[%s] not exist, apply first please!", topic)
	}
	resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
	(&protocol.SendMessageResponseHeader{MsgId: "7F00000100002A9F0000000000000000", QueueId: 1, QueueOffset: 42}).EncodeTo(resp)
	resp.AddExt("MSG_REGION", "DefaultRegion")
	resp.AddExt("TRACE_ON", "true")
	return resp, nil
}

// TestJavaRemotingClientRoundTrip drives the stub with the Java 4.9.8
// NettyRemotingClient in both serializations: sync, async, oneway, a
// server→client sync and oneway request, and an unknown code.
func TestJavaRemotingClientRoundTrip(t *testing.T) {
	for _, st := range []string{"JSON", "ROCKETMQ"} {
		t.Run(st, func(t *testing.T) {
			s := startStub(t)
			out := oracle.Run(t, "", nil, "RemotingRoundTrip", s.addr, st)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			route := "code=0 remark=null ext={} body=" + string(s.routeBody())
			require.Equal(t, "sync "+route, lines[0])
			require.Equal(t, "async "+route, lines[1])
			require.Equal(t, "oneway ok", lines[2])
			require.Equal(t, "server-request code=307 ext={clientId=client-1, consumerGroup=CG, jstackEnable=false}", lines[3])
			require.Equal(t, "server-request code=40 ext={consumerGroup=CG}", lines[4])
			require.Equal(t, "callback code=0 remark=null", lines[5])
			require.Equal(t, "unsupported code=3 remark= request type 9998 not supported", lines[6])
			require.Equal(t, "done", lines[7])
			require.Equal(t, "code=0 body=running-info", <-s.callback)

			got := <-s.oneway
			require.True(t, got.IsOneway())
			var h protocol.UpdateConsumerOffsetRequestHeader
			require.NoError(t, h.DecodeFrom(got))
			require.Equal(t, protocol.UpdateConsumerOffsetRequestHeader{ConsumerGroup: "CG", Topic: "TopicTest", QueueId: 0, CommitOffset: 132}, h)
			for _, c := range s.seen(protocol.ReqGetRouteinfoByTopic) {
				require.Equal(t, st, c.Serialize.String(), "the Java client speaks %s", st)
				require.Equal(t, wire.LanguageJava, c.Language)
				require.EqualValues(t, 409, c.Version)
			}
		})
	}
}

// TestJavaClientRouteLookup uses the high-level Java client
// (DefaultMQProducer.fetchPublishMessageQueues) against the stub as name
// server, in both serializations.
func TestJavaClientRouteLookup(t *testing.T) {
	for _, st := range []string{"JSON", "ROCKETMQ"} {
		t.Run(st, func(t *testing.T) {
			s := startStub(t)
			out := oracle.Run(t, "", []string{"-Drocketmq.serialize.type=" + st}, "ClientRoute", s.addr, "TopicTest")
			require.Equal(t, "mq broker-a 0\nmq broker-a 1\nmq broker-a 2\nmq broker-a 3\n", out)
			require.NotEmpty(t, s.seen(protocol.ReqGetRouteinfoByTopic))
		})
	}
}
