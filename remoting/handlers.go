package remoting

import (
	"context"
	"fmt"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// HandlerTable maps request codes to the handlers of one server area; the
// name server and broker register each area's codes in one and serve it
// from a Processor (Java's processor table, one processor per group of
// codes).
type HandlerTable map[protocol.RequestCode]Handler

// Add registers h for code; a code registered twice is a programming
// error.
func (t HandlerTable) Add(code protocol.RequestCode, h Handler) {
	if _, dup := t[code]; dup {
		panic(fmt.Sprintf("remoting: request code %d registered twice", code))
	}
	t[code] = h
}

// Codes lists the table's codes.
func (t HandlerTable) Codes() []protocol.RequestCode {
	out := make([]protocol.RequestCode, 0, len(t))
	for c := range t {
		out = append(out, c)
	}
	return out
}

// Handle serves a request with the table's handler for its code; a code
// the table lacks gets Java's REQUEST_CODE_NOT_SUPPORTED answer.
func (t HandlerTable) Handle(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
	h, ok := t[protocol.RequestCode(req.Code)]
	if !ok {
		return nil, protocol.Errorf(protocol.RespRequestCodeNotSupported, "%s", NotSupportedRemark(req.Code))
	}
	return h(ctx, c, req)
}
