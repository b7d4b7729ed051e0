package broker

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
)

// handlerTable holds one handler group's codes; each handler file
// registers its codes.
type handlerTable = remoting.HandlerTable

// success returns an empty SUCCESS response to req.
func success(req *wire.Command) *wire.Command {
	return wire.NewResponse(req, int32(protocol.RespSuccess), "")
}

// remarkNotSet is the remark RemotingCommand.createResponseCommand(Class)
// starts a response with. Java's updateAndCreateTopic and queryConsumeQueue
// answer SUCCESS without clearing it, so their answers carry it.
const remarkNotSet = "not set any response code"

// humanTime2 is UtilAll.timeMillisToHumanString2: local
// "yyyy-MM-dd HH:mm:ss,SSS".
func humanTime2(ms int64) string {
	return time.UnixMilli(ms).Format("2006-01-02 15:04:05,000")
}

// diskUtil is SendMessageProcessor.diskUtil: the used share of the
// emptiest commit-log partition and of the consume queue and index ones.
func diskUtil(cfg *store.Config) string {
	physic := 100.0
	for _, p := range cfg.CommitLogPaths() {
		physic = min(physic, store.DiskUsage(p))
	}
	root := cfg.StorePathRootDir
	return fmt.Sprintf("CL: %5.2f CQ: %5.2f INDEX: %5.2f", physic,
		store.DiskUsage(filepath.Join(root, "consumequeue")), store.DiskUsage(filepath.Join(root, "index")))
}
