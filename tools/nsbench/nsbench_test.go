package nsbench

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestRegisterBodyDecodes(t *testing.T) {
	for _, compressed := range []bool{false, true} {
		o := Options{Topics: 3, Queues: 4, TopicNameLen: 14, Compressed: compressed}
		body, err := RegisterBody(o, 1234)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := routeinfo.DecodeRegisterBody(body, compressed, 0)
		if err != nil {
			t.Fatalf("compressed=%v: %v", compressed, err)
		}
		if got := rb.Topics.DataVersion; got.Timestamp != 1234 || got.Counter != 1 {
			t.Errorf("compressed=%v: data version %+v", compressed, got)
		}
		if len(rb.Topics.Topics) != 3 {
			t.Fatalf("compressed=%v: %d topics", compressed, len(rb.Topics.Topics))
		}
		names := map[string]bool{}
		for _, tc := range rb.Topics.Topics {
			names[tc.TopicName] = true
			if tc.ReadQueueNums != 4 || tc.WriteQueueNums != 4 || tc.Perm != 6 {
				t.Errorf("compressed=%v: %+v", compressed, tc)
			}
		}
		for i := range 3 {
			if n := TopicName(i, 14); !names[n] || len(n) != 14 {
				t.Errorf("compressed=%v: topic %q missing or not padded", compressed, n)
			}
		}
	}
}

func TestResponseCode(t *testing.T) {
	frame := func(c *wire.Command) []byte {
		f, err := wire.AppendFrame(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		return f[4:] // without the length field
	}
	req := wire.NewRequest(int32(protocol.ReqGetRouteinfoByTopic))
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		req.Serialize = st
		for _, code := range []int32{0, 17, -1, 215} {
			resp := wire.NewResponse(req, code, "remark")
			resp.Body = []byte("body!")
			got, n, err := ResponseCode(frame(resp))
			if err != nil || got != code || n != 5 {
				t.Errorf("%v code %d: got %d, body %d, %v", st, code, got, n, err)
			}
			for _, opaque := range []int32{0, 7, -3, 1 << 30} {
				req.Opaque = opaque
				resp := wire.NewResponse(req, code, "opaque\":99")
				got, n, gotOpaque, err := ResponseHead(frame(resp))
				if err != nil || got != code || n != 0 || gotOpaque != opaque {
					t.Errorf("%v code %d opaque %d: got %d, body %d, opaque %d, %v", st, code, opaque, got, n, gotOpaque, err)
				}
			}
		}
	}
	// Keys in another order, as a non-Java server might write them.
	h := `{"flag":1,"code":-17,"opaque":3}`
	f := binary.BigEndian.AppendUint32(nil, uint32(len(h)))
	f = append(f, h...)
	if got, _, err := ResponseCode(f); err != nil || got != -17 {
		t.Errorf("reordered JSON: %d, %v", got, err)
	}
	if _, _, opaque, err := ResponseHead(f); err != nil || opaque != 3 {
		t.Errorf("reordered JSON: opaque %d, %v", opaque, err)
	}
	for _, bad := range []string{`{"code":0}`, `{"code":0,"opaque":x}`} {
		f := binary.BigEndian.AppendUint32(nil, uint32(len(bad)))
		f = append(f, bad...)
		if _, _, _, err := ResponseHead(f); !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: want ErrBadResponse, got %v", bad, err)
		}
	}
	for _, bad := range []string{`{"flag":1}`, `{"code":x}`, `{"code":99999999999}`} {
		f := binary.BigEndian.AppendUint32(nil, uint32(len(bad)))
		f = append(f, bad...)
		if _, _, err := ResponseCode(f); !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: want ErrBadResponse, got %v", bad, err)
		}
	}
	if _, _, err := ResponseCode([]byte{0, 0, 0, 9, '{'}); !errors.Is(err, ErrBadResponse) {
		t.Errorf("short header: want ErrBadResponse, got %v", err)
	}
}

func TestRouteRequestDecodes(t *testing.T) {
	f, err := RouteRequest("BenchTopic7", 7)
	if err != nil {
		t.Fatal(err)
	}
	c, err := wire.Decode(f[4:])
	if err != nil {
		t.Fatal(err)
	}
	var h protocol.GetRouteInfoRequestHeader
	if err := h.DecodeFrom(c); err != nil {
		t.Fatal(err)
	}
	if c.Code != int32(protocol.ReqGetRouteinfoByTopic) || c.Version != 409 || c.Serialize != wire.SerializeJSON ||
		c.Language != wire.LanguageJava || c.Opaque != 7 || h.Topic.Value != "BenchTopic7" {
		t.Errorf("decoded %v, header %+v", c, h)
	}
}

func TestSummarize(t *testing.T) {
	var ns []int64
	for i := 1000; i >= 1; i-- {
		ns = append(ns, int64(i))
	}
	l := Summarize(ns)
	if l.Count != 1000 || l.P50 != 500 || l.P90 != 900 || l.P99 != 990 || l.P999 != 999 || l.Max != 1000 || l.Mean != 500 {
		t.Errorf("%+v", l)
	}
	if (Summarize(nil) != Latency{}) {
		t.Error("empty input")
	}
}

// TestPipelinedLookups keeps several requests in flight per connection and
// gets every answer matched to its request.
func TestPipelinedLookups(t *testing.T) {
	s := namesrvtest.StartTestNamesrv(t)
	o := Defaults()
	o.Namesrv = s.Addr().String()
	o.Brokers, o.Topics, o.Conns, o.Depth = 2, 20, 3, 8
	o.Warmup, o.Duration = 50*time.Millisecond, 300*time.Millisecond
	res, err := Run(context.Background(), o, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	lr := res.Lookups
	if lr.Depth != 8 || lr.Lookups < 3*8 || lr.Errors != 0 || lr.Latency.P99 == 0 || lr.BodyMin == 0 {
		t.Errorf("lookups %+v", lr)
	}
}

// TestRunAgainstSputnik drives the whole benchmark against an in-process
// name server, briefly.
func TestRunAgainstSputnik(t *testing.T) {
	s := namesrvtest.StartTestNamesrv(t)
	o := Defaults()
	o.Namesrv = s.Addr().String()
	o.Brokers, o.Topics, o.Conns = 2, 20, 3
	o.Warmup, o.Duration = 50*time.Millisecond, 200*time.Millisecond
	var started, ended bool
	o.Hooks = Hooks{MeasureStart: func() { started = true }, MeasureEnd: func() { ended = true }}
	res, err := Run(context.Background(), o, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if res.Register.OK != 2 || res.Check.OK != 10 || res.Check.BodyMin == 0 {
		t.Errorf("register %+v, check %+v", res.Register, res.Check)
	}
	lr := res.Lookups
	if lr.Lookups == 0 || lr.Errors != 0 || lr.QPS <= 0 || lr.Latency.P99 == 0 || lr.BodyMin != res.Check.BodyMin {
		t.Errorf("lookups %+v", lr)
	}
	if !started || !ended {
		t.Errorf("hooks: start %v end %v", started, ended)
	}
	// Run closed the registration: the server drops the brokers once it
	// sees the connection close.
	deadline := time.Now().Add(10 * time.Second)
	for {
		rc, err := CheckRoutes(context.Background(), o, 1, 1)
		if err == nil && rc.OK == 0 && strings.Contains(rc.FirstError, "code 17") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("routes still served after Run: %+v, %v", rc, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFrameTooLongForServer(t *testing.T) {
	s := namesrvtest.StartTestNamesrv(t)
	o := Defaults()
	o.Namesrv = s.Addr().String()
	o.Brokers, o.Topics, o.TopicNameLen = 1, 90000, 48 // ≈ 20 MB of JSON
	reg, err := Register(context.Background(), o)
	defer reg.Close()
	if !errors.Is(err, ErrRegister) || reg.FrameBytes <= wire.DefaultMaxFrameLength || reg.OK != 0 {
		t.Fatalf("oversized body: ok %d, frame %d, %v", reg.OK, reg.FrameBytes, err)
	}
}

func TestHeartbeatKeepsRegistering(t *testing.T) {
	s := namesrvtest.StartTestNamesrv(t)
	o := Defaults()
	o.Namesrv = s.Addr().String()
	o.Brokers, o.Topics, o.Heartbeat = 2, 5, 10*time.Millisecond
	reg, err := Register(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(80 * time.Millisecond) // several heartbeats
	rc, err := CheckRoutes(context.Background(), o, 5, 3)
	if err != nil || rc.OK != 5 {
		t.Errorf("routes during heartbeats: %+v, %v", rc, err)
	}
	if err := reg.Close(); err != nil {
		t.Error(err)
	}
}
