package brokerbench

import (
	"bufio"
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// fakeBroker answers SEND_MESSAGE_V2 (SUCCESS, or SYSTEM_BUSY for every
// busyEvery-th request when set, after delay), UPDATE_AND_CREATE_TOPIC and
// GET_BROKER_CLUSTER_INFO (listing broker "b1" once registerAfter requests
// were asked).
type fakeBroker struct {
	ln            net.Listener
	delay         time.Duration
	busyEvery     int64
	registerAfter int64
	sends         atomic.Int64
	infos         atomic.Int64
}

func startFake(t *testing.T, f *fakeBroker) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f.ln = ln
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go f.serve(c)
		}
	}()
	return ln.Addr().String()
}

func (f *fakeBroker) serve(c net.Conn) {
	fr := wire.NewFrameReader(bufio.NewReader(c), 0)
	for {
		req, err := fr.ReadCommand()
		if err != nil {
			return
		}
		resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
		switch protocol.RequestCode(req.Code) {
		case protocol.ReqSendMessageV2:
			n := f.sends.Add(1)
			time.Sleep(f.delay)
			if f.busyEvery > 0 && n%f.busyEvery == 0 {
				resp.Code, resp.Remark = int32(protocol.RespSystemBusy), "busy"
			}
		case protocol.ReqGetBrokerClusterInfo:
			if f.infos.Add(1) > f.registerAfter {
				resp.Body = []byte(`{"brokerAddrTable":{"b1":{}}}`)
			} else {
				resp.Body = []byte(`{"brokerAddrTable":{}}`)
			}
		case protocol.ReqUpdateAndCreateTopic:
			if v, _ := req.ExtValue("topic"); v == "Bad" {
				resp.Code = int32(protocol.RespSystemError)
			}
		}
		req.Release()
		frame, err := wire.AppendFrame(nil, resp)
		if err != nil {
			return
		}
		if _, err := c.Write(frame); err != nil {
			return
		}
	}
}

func TestSendFrameDecodes(t *testing.T) {
	body := Body(1024)
	frame, err := SendFrame("g", "T", 3, body, 42)
	require.NoError(t, err)
	cmd, err := wire.Decode(frame[4:])
	require.NoError(t, err)
	require.Equal(t, int32(protocol.ReqSendMessageV2), cmd.Code)
	require.Equal(t, int32(42), cmd.Opaque)
	require.Equal(t, body, cmd.Body)
	var h protocol.SendMessageRequestHeaderV2
	require.NoError(t, h.DecodeFrom(cmd))
	require.Equal(t, protocol.Some("g"), h.ProducerGroup)
	require.Equal(t, "T", h.Topic)
	require.Equal(t, int32(3), h.QueueId)
	require.Equal(t, protocol.Some("TBW102"), h.DefaultTopic)
}

func TestSendCountsSuccessesAndRefusals(t *testing.T) {
	tests := []struct {
		name      string
		busyEvery int64
		wantFail  bool
	}{
		{"all succeed", 0, false},
		{"every fifth busy", 5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeBroker{busyEvery: tc.busyEvery}
			o := Defaults()
			o.Broker, o.Conns, o.Count, o.BodySize = startFake(t, f), 4, 400, 64
			r, err := Send(context.Background(), o)
			require.NoError(t, err)
			require.GreaterOrEqual(t, r.Sent, int64(400))
			require.Equal(t, r.Sent, int64(r.Latency.Count))
			require.Equal(t, tc.wantFail, r.Failed > 0, "failed = %d", r.Failed)
			require.Equal(t, f.sends.Load(), r.Sent+r.Failed)
			require.Positive(t, r.TPS)
		})
	}
}

func TestSendTimedWindow(t *testing.T) {
	f := &fakeBroker{delay: time.Millisecond}
	o := Defaults()
	o.Broker, o.Conns, o.BodySize = startFake(t, f), 2, 16
	o.Warmup, o.Duration = 100*time.Millisecond, 300*time.Millisecond
	var started, ended atomic.Bool
	o.Hooks = Hooks{MeasureStart: func() { started.Store(true) }, MeasureEnd: func() { ended.Store(true) }}
	r, err := Send(context.Background(), o)
	require.NoError(t, err)
	require.Equal(t, 300*time.Millisecond, r.Window)
	require.Less(t, r.Sent, f.sends.Load(), "warmup sends must not be counted")
	require.True(t, started.Load() && ended.Load())
	require.GreaterOrEqual(t, r.Latency.P50, time.Millisecond)
}

// TestSendAtRateIsOpenLoop: a server taking 4 ms per request, asked 500
// requests/s on one connection, falls behind; latency from the schedule
// grows far past the 4 ms service time (a closed loop would report ~4 ms).
func TestSendAtRateIsOpenLoop(t *testing.T) {
	f := &fakeBroker{delay: 4 * time.Millisecond}
	o := Defaults()
	o.Broker, o.Conns, o.BodySize = startFake(t, f), 1, 16
	o.Warmup, o.Duration = 0, 400*time.Millisecond
	r, err := SendAtRate(context.Background(), o, 500)
	require.NoError(t, err)
	require.InDelta(t, 200, r.Sent+r.Failed, 5)
	require.Greater(t, r.Latency.P99, 100*time.Millisecond)
}

func TestSendAtRateKeepsRate(t *testing.T) {
	f := &fakeBroker{}
	o := Defaults()
	o.Broker, o.Conns, o.BodySize = startFake(t, f), 4, 16
	o.Warmup, o.Duration = 100*time.Millisecond, 500*time.Millisecond
	r, err := SendAtRate(context.Background(), o, 1000)
	require.NoError(t, err)
	require.InDelta(t, 500, r.Sent, 10)
	require.Zero(t, r.Failed)
	require.InDelta(t, 600, f.sends.Load(), 12)
	_, err = SendAtRate(context.Background(), o, 0)
	require.Error(t, err)
}

func TestAdmin(t *testing.T) {
	f := &fakeBroker{registerAfter: 3}
	addr := startFake(t, f)
	ctx := context.Background()
	require.NoError(t, CreateTopic(ctx, addr, "Good", 8))
	require.ErrorIs(t, CreateTopic(ctx, addr, "Bad", 8), ErrBadReply)
	reg, err := WaitRegistered(ctx, addr, "b1", time.Millisecond)
	require.NoError(t, err)
	require.True(t, reg.After.Before(reg.By), "%+v", reg)
	require.Equal(t, int64(4), f.infos.Load())
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = WaitRegistered(cctx, addr, "b2", time.Millisecond)
	require.Error(t, err)
}

func TestRegistered(t *testing.T) {
	body := []byte(`{"brokerAddrTable":{"broker-a":{}},"clusterAddrTable":{"C":["broker-a"]}}`)
	require.True(t, Registered(body, "broker-a"))
	require.False(t, Registered(body, "broker"))
}

func TestDrainResultFinish(t *testing.T) {
	t0 := time.Unix(100, 0)
	d := DrainResult{Received: 1000}
	d.finish(t0, t0.Add(time.Second), t0.Add(3*time.Second))
	require.Equal(t, time.Second, d.First)
	require.Equal(t, 2*time.Second, d.Drain)
	require.Equal(t, 3*time.Second, d.Total)
	require.InDelta(t, 500, d.TPS, 0.001)
	var e DrainResult
	e.finish(t0, time.Time{}, t0.Add(time.Second))
	require.Zero(t, e.TPS)
}
