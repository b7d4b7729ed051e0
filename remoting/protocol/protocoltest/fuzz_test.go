package protocoltest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestServedReadsTheSpec(t *testing.T) {
	reqs, err := Served("namesrv")
	require.NoError(t, err)
	var route *Request
	for i := range reqs {
		if reqs[i].Code == protocol.ReqGetRouteinfoByTopic {
			route = &reqs[i]
		}
		require.NotEqual(t, protocol.ReqSendMessage, reqs[i].Code, "the broker's codes are not the name server's")
	}
	require.NotNil(t, route)
	require.Contains(t, route.Fields, Field{Key: "topic", Type: "String"})
}

func TestBuild(t *testing.T) {
	reqs := []Request{
		{Code: 1, Fields: []Field{{"a", "int"}, {"b", "String"}, {"c", "long"}}},
		{Code: 2},
	}
	values := Values{Offset: 77}
	bodies := [][]byte{[]byte("zero"), []byte("one")}
	for _, c := range []struct {
		name string
		in   []byte
		code int32
		ext  map[string]string
		body string
		ser  wire.SerializeType
	}{
		{"dictionary values", []byte{0, 2*8 + 1, 0, 1*8 + 1, 1, 1}, 1, map[string]string{"a": "3", "c": "77"}, "one", wire.SerializeJSON},
		{"absent and raw", []byte{2, 0, 7, 'h', 'i', 0, 0, 0, 15}, 1, map[string]string{"b": "hi"}, "zero", wire.SerializeRocketMQ},
		{"raw body", []byte{1, 0xF0, 'x', 'y'}, 2, map[string]string{}, "xy", wire.SerializeJSON},
		{"short input", []byte{4}, 1, map[string]string{}, "zero", wire.SerializeJSON},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, ok := Build(c.in, reqs, values, bodies)
			require.True(t, ok)
			require.Equal(t, c.code, req.Code)
			got := map[string]string{}
			for _, k := range []string{"a", "b", "c"} {
				if v, ok := req.ExtValue(k); ok {
					got[k] = v
				}
			}
			require.Equal(t, c.ext, got)
			require.Equal(t, c.body, string(req.Body))
			require.Equal(t, c.ser, req.Serialize)
		})
	}
	_, ok := Build(nil, reqs, values, bodies)
	require.False(t, ok)
}
