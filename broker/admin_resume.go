package broker

// RESUME_CHECK_HALF_MESSAGE (323), DefaultMQAdminExt.resumeCheckHalfMessage:
// the message an offset message id names is written again to
// RMQ_SYS_TRANS_HALF_TOPIC queue 0 with TRANSACTION_CHECK_TIMES 0, so the
// transaction check asks its producer again from the start (a half message
// given up after transactionCheckMax checks, for one).
//
// Java 4.9.8 mirror: AdminBrokerProcessor.resumeCheckHalfMessage and
// toMessageExtBrokerInner. The copy keeps the body, flag, system flag,
// born time and host, store host and reconsume times, and the properties
// in HashMap order. Like Java it does not check that the message was a
// half message.
//
// Better than Java: the body is copied as stored. Java decodes it
// decompressed and writes it under the unchanged compressed flag (as its
// transaction check does, see txcheck.go).

import (
	"context"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

type halfAdmin struct {
	store *store.Store
	log   *logrus.Entry
}

func (h *halfAdmin) register(t handlerTable) {
	t.Add(protocol.ReqResumeCheckHalfMessage, h.resume)
}

// Remarks of resumeCheckHalfMessage: a message that cannot be read (Java's
// exception) and a failed put.
const (
	remarkResumeException = "Exception was thrown when putting message back to RMQ_SYS_TRANS_HALF_TOPIC."
	remarkResumeFailed    = "Put message back to RMQ_SYS_TRANS_HALF_TOPIC failed."
)

func (h *halfAdmin) resume(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ResumeCheckHalfMessageRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	_, off, err := message.ParseOffsetMsgID(hdr.MsgId)
	if err != nil {
		h.log.WithError(err).WithField("msgId", hdr.MsgId).Error("resume half message check: bad message id")
		return wire.NewResponse(req, int32(protocol.RespSystemError), remarkResumeException), nil
	}
	rec, ok := h.store.LookMessage(off)
	if !ok {
		h.log.WithField("offset", off).Error("resume half message check: no message at the offset")
		return wire.NewResponse(req, int32(protocol.RespSystemError), remarkResumeException), nil
	}
	r := h.store.PutMessage(resumedHalf(&rec))
	if r.Status != store.PutOK {
		h.log.WithError(r.Err).WithField("status", r.Status).Error(remarkResumeFailed)
		return wire.NewResponse(req, int32(protocol.RespSystemError), remarkResumeFailed), nil
	}
	realTopic, _ := message.ParseProperties(rec.Properties).Get(message.PropRealTopic)
	h.log.WithField("realTopic", realTopic).Info("Put message back to RMQ_SYS_TRANS_HALF_TOPIC.")
	return success(req), nil
}

// resumedHalf is toMessageExtBrokerInner with TRANSACTION_CHECK_TIMES 0.
func resumedHalf(rec *message.Record) *store.Message {
	p := message.ParseProperties(rec.Properties)
	p.Set(message.PropTransactionCheckTimes, "0")
	return store.Rewritten(rec, topics.TransHalfTopic, 0, p)
}
