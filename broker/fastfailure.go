package broker

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// Fast failure, Java 4.9.8's BrokerFastFailure: while brokerFastFailureEnable
// is set, every fastFailurePeriod (after fastFailureDelay) requests that
// waited too long for a worker are answered SYSTEM_BUSY at once, so their
// clients can try another broker instead of timing out:
//
//   - while the OS page cache is busy, every queued send
//     ("[PCBUSY_CLEAN_QUEUE]…");
//   - sends, pulls, heartbeats and END_TRANSACTION requests that waited
//     waitTimeMillsIn{Send,Pull,Heartbeat,Transaction}Queue
//     ("[TIMEOUT_CLEAN_QUEUE]…").
//
// Only requests that found every worker busy wait at all: puts that wait
// for a flush or a slave release their worker (Store.PutMessageDeferring),
// and pulls that wait for messages are held outside the pool, so a queue
// forms only when the broker cannot keep up, not on a merely slow disk or
// a long poll.
const (
	fastFailureDelay  = time.Second
	fastFailurePeriod = 10 * time.Millisecond
)

// fastFailureRemark returns the CutRemark Java answers with for the given
// tag (PCBUSY_CLEAN_QUEUE or TIMEOUT_CLEAN_QUEUE).
func fastFailureRemark(tag string) remoting.CutRemark {
	return func(waited time.Duration, left int) string {
		return fmt.Sprintf("[%s]broker busy, start flow control for a while, period in queue: %dms, size of queue: %d",
			tag, waited.Milliseconds(), left)
	}
}

var (
	remarkPCBusyCleanQueue  = fastFailureRemark("PCBUSY_CLEAN_QUEUE")
	remarkTimeoutCleanQueue = fastFailureRemark("TIMEOUT_CLEAN_QUEUE")
)

// sendQueueCodes name the pools of Java's send executor: sends and
// CONSUMER_SEND_MSG_BACK.
var sendQueueCodes = []protocol.RequestCode{protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack}

// fastFailure is the broker's BrokerFastFailure.
type fastFailure struct {
	cfg           *brokerconfig.BrokerConfig
	pageCacheBusy func() bool   // Store.OSPageCacheBusy
	servers       []queueCutter // the main port and the VIP port
	log           *logrus.Entry
	lastWarn      atomic.Int64 // unix nanos of the last warning
}

// queueCutter is the remoting server's side of fast failure.
type queueCutter interface {
	CutQueued(code protocol.RequestCode, maxWait time.Duration, remark remoting.CutRemark) int
}

func (f *fastFailure) run(ctx context.Context) {
	runEvery(ctx, fastFailureDelay, fastFailurePeriod, f.cleanExpired)
}

// cleanExpired is one pass (Java cleanExpiredRequest).
func (f *fastFailure) cleanExpired() {
	bc := f.cfg
	if !bc.BrokerFastFailureEnable {
		return
	}
	n := 0
	if f.pageCacheBusy() {
		n += f.cut(0, remarkPCBusyCleanQueue, sendQueueCodes...)
	}
	n += f.cut(millis(bc.WaitTimeMillsInSendQueue), remarkTimeoutCleanQueue, sendQueueCodes...)
	n += f.cut(millis(bc.WaitTimeMillsInPullQueue), remarkTimeoutCleanQueue, protocol.ReqPullMessage)
	n += f.cut(millis(bc.WaitTimeMillsInHeartbeatQueue), remarkTimeoutCleanQueue, protocol.ReqHeartBeat)
	n += f.cut(millis(bc.WaitTimeMillsInTransactionQueue), remarkTimeoutCleanQueue, protocol.ReqEndTransaction)
	if n > 0 && f.warnNow() {
		f.log.WithField("answered", n).Warn("broker busy: requests that waited too long for a worker were answered SYSTEM_BUSY (brokerFastFailureEnable)")
	}
}

// cut answers the requests of codes' pools, on both ports, that waited
// maxWait or longer.
func (f *fastFailure) cut(maxWait time.Duration, remark remoting.CutRemark, codes ...protocol.RequestCode) int {
	n := 0
	for _, c := range codes {
		for _, s := range f.servers {
			n += s.CutQueued(c, maxWait, remark)
		}
	}
	return n
}

// warnNow reports whether a warning may be logged now (once a second).
func (f *fastFailure) warnNow() bool {
	now := time.Now().UnixNano()
	last := f.lastWarn.Load()
	return now-last >= int64(time.Second) && f.lastWarn.CompareAndSwap(last, now)
}

func millis(ms int64) time.Duration { return time.Duration(max(ms, 0)) * time.Millisecond }
