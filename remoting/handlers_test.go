package remoting

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestHandlerTable(t *testing.T) {
	tab := HandlerTable{}
	ok := func(context.Context, *Conn, *wire.Command) (*wire.Command, error) { return wire.NewRequest(1), nil }
	tab.Add(protocol.ReqSendMessage, ok)
	require.Panics(t, func() { tab.Add(protocol.ReqSendMessage, ok) }, "a code registered twice")
	require.Equal(t, []protocol.RequestCode{protocol.ReqSendMessage}, tab.Codes())

	resp, err := tab.Handle(context.Background(), nil, wire.NewRequest(int32(protocol.ReqSendMessage)))
	require.NoError(t, err)
	require.NotNil(t, resp)
	_, err = tab.Handle(context.Background(), nil, wire.NewRequest(9998))
	pe, isProto := protocol.AsError(err)
	require.True(t, isProto)
	require.Equal(t, protocol.RespRequestCodeNotSupported, pe.Code)
	require.Equal(t, " request type 9998 not supported", pe.Remark)
}
