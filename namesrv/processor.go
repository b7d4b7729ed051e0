package namesrv

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// The name server serves every request code through one default processor,
// as NamesrvController.registerProcessor does: a code it does not know
// gets no response at all (DefaultRequestProcessor.processRequest returns
// null), never REQUEST_CODE_NOT_SUPPORTED. That includes broker codes such
// as GET_BROKER_CONFIG and codes unknown to 4.9.8; the caller times out.
//
// Handlers live in one file per area, each opening with the codes it
// serves: broker.go (registration and liveness), route.go (routes and
// cluster info), topic.go (topic lists, deletion, write permissions),
// kv.go (KV config), admin_config.go (name server configuration).

// handlerTable is the name server's one table of handlers.
type handlerTable = remoting.HandlerTable

// dispatch returns the default processor's handler.
func dispatch(t handlerTable, log *logrus.Entry) remoting.Handler {
	return func(ctx context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
		if log.Logger.IsLevelEnabled(logrus.DebugLevel) {
			log.WithField("remote", c.RemoteAddr()).Debugf("receive request, %d %s", req.Code, req)
		}
		h, ok := t[protocol.RequestCode(req.Code)]
		if !ok {
			return nil, nil // Java: no response
		}
		return h(ctx, c, req)
	}
}

// success returns an empty SUCCESS response to req.
func success(req *wire.Command) *wire.Command {
	return wire.NewResponse(req, int32(protocol.RespSuccess), "")
}
