package rawclient

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestStandardJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"brokerAddrs":{0:"127.0.0.1:10911",1:"x"}}`, `{"brokerAddrs":{"0":"127.0.0.1:10911","1":"x"}}`},
		{`{"a":[1,2,{3:"b,c:{4:d}"}]}`, `{"a":[1,2,{"3":"b,c:{4:d}"}]}`},
		{"{\n\t0:'x',\n\t\"y\":[]\n}", "{\n\t\"0\":\"x\",\n\t\"y\":[]\n}"},
		{`{"s":"quote \" {5:6}"}`, `{"s":"quote \" {5:6}"}`},
		{`[]`, `[]`},
	} {
		got, err := StandardJSON([]byte(c.in))
		if err != nil {
			t.Fatalf("StandardJSON(%s): %v", c.in, err)
		}
		if !json.Valid(got) {
			t.Errorf("not valid JSON: %s", got)
		}
		var gotV, wantV any
		if err := json.Unmarshal(got, &gotV); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.want), &wantV); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotV, wantV) {
			t.Errorf("StandardJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestClusterInfoBody(t *testing.T) {
	body := `{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:20911"},"brokerName":"broker-a","cluster":"C"}},"clusterAddrTable":{"C":["broker-a"]}}`
	var ci ClusterInfo
	if err := UnmarshalFastJSON([]byte(body), &ci); err != nil {
		t.Fatal(err)
	}
	if ci.BrokerAddrTable["broker-a"].BrokerAddrs["0"] != "127.0.0.1:20911" || ci.ClusterAddrTable["C"][0] != "broker-a" {
		t.Errorf("%+v", ci)
	}
}

// serve answers every request with code 0 and remark = its code, except
// code 9999, which it ignores as the Java name server does.
func serve(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				fr := wire.NewFrameReader(c, 0)
				for {
					req, err := fr.ReadCommand()
					if err != nil {
						return
					}
					if req.Code == 9999 {
						continue
					}
					resp := wire.NewResponse(req, 0, "ok")
					frame, _ := wire.AppendFrame(nil, resp)
					c.Write(frame)
				}
			}()
		}
	}()
	return l.Addr().String()
}

func TestInvoke(t *testing.T) {
	addr := serve(t)
	ctx := context.Background()
	c, err := Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		req := Request(105, "topic", "T")
		req.Serialize = st
		resp, err := c.Invoke(ctx, req, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Opaque != req.Opaque || resp.Remark != "ok" || resp.Serialize != st {
			t.Errorf("%s: response %v", st, resp)
		}
	}
	t0 := time.Now()
	_, err = c.Invoke(ctx, Request(9999), 200*time.Millisecond)
	if !errors.Is(err, ErrNoResponse) {
		t.Fatalf("want ErrNoResponse, got %v", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("timeout took %s", d)
	}
	if _, err := c.Invoke(ctx, Request(106), time.Second); err != nil {
		t.Errorf("connection unusable after a timeout: %v", err)
	}
}
