package broker

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
)

// handlerTable maps request codes to handlers; each handler file registers
// its codes.
type handlerTable map[protocol.RequestCode]remoting.Handler

// add registers h for code; a code registered twice is a programming
// error.
func (t handlerTable) add(code protocol.RequestCode, h remoting.Handler) {
	if _, dup := t[code]; dup {
		panic(fmt.Sprintf("broker: request code %d registered twice", code))
	}
	t[code] = h
}

// handler returns one handler serving every code of the table; unknown
// codes get Java's REQUEST_CODE_NOT_SUPPORTED answer from the remoting
// layer's default processor.
func (t handlerTable) handler(log *logrus.Entry) remoting.Handler {
	return func(ctx context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
		h, ok := t[protocol.RequestCode(req.Code)]
		if !ok {
			return nil, protocol.Errorf(protocol.RespRequestCodeNotSupported, " request type %d not supported", req.Code)
		}
		return h(ctx, c, req)
	}
}

// codes lists the table's codes.
func (t handlerTable) codes() []protocol.RequestCode {
	out := make([]protocol.RequestCode, 0, len(t))
	for c := range t {
		out = append(out, c)
	}
	return out
}

// success returns an empty SUCCESS response to req.
func success(req *wire.Command) *wire.Command {
	return wire.NewResponse(req, int32(protocol.RespSuccess), "")
}

// humanTime2 is UtilAll.timeMillisToHumanString2: local
// "yyyy-MM-dd HH:mm:ss,SSS".
func humanTime2(ms int64) string {
	return time.UnixMilli(ms).Format("2006-01-02 15:04:05,000")
}

// diskUtil is SendMessageProcessor.diskUtil: the used share of the commit
// log, consume queue and index partitions.
func diskUtil(commitLogDir string) string {
	root := filepath.Dir(commitLogDir)
	return fmt.Sprintf("CL: %5.2f CQ: %5.2f INDEX: %5.2f", store.DiskUsage(commitLogDir),
		store.DiskUsage(filepath.Join(root, "consumequeue")), store.DiskUsage(filepath.Join(root, "index")))
}
