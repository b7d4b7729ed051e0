package namesrv

// Name server configuration over the wire:
//
//	UPDATE_NAMESRV_CONFIG (318)  apply a properties body and persist it
//	GET_NAMESRV_CONFIG (319)     every config item as properties text
//
// Java 4.9.8 mirror: DefaultRequestProcessor.updateConfig and getConfig,
// Configuration.update / getAllConfigsFormatString.

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

type configHandlers struct {
	conf *configuration
	log  *logrus.Entry
}

func (h *configHandlers) register(t handlerTable) {
	t.Add(protocol.ReqUpdateNamesrvConfig, h.update)
	t.Add(protocol.ReqGetNamesrvConfig, h.get)
}

func (h *configHandlers) update(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	h.log.Infof("updateConfig called by %s", c.RemoteAddr())
	if len(req.Body) == 0 {
		return success(req), nil
	}
	p, err := javaprops.ParseBody(req.Body)
	if err != nil {
		h.log.WithError(err).Errorf("updateConfig MixAll.string2Properties error %s", req.Body)
		return wire.NewResponse(req, int32(protocol.RespSystemError), "string2Properties error"), nil
	}
	if h.conf.inBlackList(p) {
		return wire.NewResponse(req, int32(protocol.RespNoPermission), "Can not update config in black list."), nil
	}
	h.conf.update(p)
	return success(req), nil
}

func (h *configHandlers) get(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	resp := success(req)
	if s := h.conf.format(); s != "" {
		resp.Body = []byte(s)
	}
	return resp, nil
}
