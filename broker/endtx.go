package broker

// The end of a transaction (the transactional producer's second step):
//
//	END_TRANSACTION (37)   commit: the half message, waiting in
//	                       RMQ_SYS_TRANS_HALF_TOPIC, is stored again in its real
//	                       topic and queue; commit or rollback: an op message
//	                       ("d", the half message's queue offset) in
//	                       RMQ_SYS_TRANS_OP_HALF_TOPIC marks it done
//
// Java 4.9.8 mirror: EndTransactionProcessor, TransactionalMessageServiceImpl
// commitMessage/rollbackMessage/deletePrepareMessage and
// TransactionalMessageBridge.putOpMessage. Clients send the request oneway;
// a pending (TRANSACTION_NOT_TYPE) or unknown state gets no answer at all,
// as in Java.
//
// The committed message is what Java's endMessageTransaction builds: the
// half message's body, flag, born time, hosts and reconsume times, its
// system flag with the transaction type COMMIT, the prepared commit-log
// offset, and the properties string written from the half message's map
// before REAL_TOPIC, REAL_QID and TRAN_MSG are cleared from it (so the
// stored string keeps them, as Java's does).

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// opRemoveTag is TransactionalMessageUtil.REMOVETAG, the tag of the op
// message that marks a half message done.
const opRemoveTag = "d"

type txHandlers struct {
	store       *store.Store
	slave       bool
	storeHost   message.Host
	maxBodySize int32 // maxMessageSize, for the MESSAGE_ILLEGAL remark
	log         *logrus.Entry
}

func (h *txHandlers) register(t handlerTable) {
	t.Add(protocol.ReqEndTransaction, h.endTransaction)
}

func (h *txHandlers) endTransaction(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.EndTransactionRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	if h.slave {
		h.log.Warn("Message store is slave mode, so end transaction is forbidden.")
		return wire.NewResponse(req, int32(protocol.RespSlaveNotAvailable), ""), nil
	}
	log := h.log.WithFields(logrus.Fields{"producer": remoteOf(c), "group": hdr.ProducerGroup,
		"msgId": hdr.MsgId, "transactionId": hdr.TransactionId, "fromCheck": hdr.FromTransactionCheck})
	switch hdr.CommitOrRollback {
	case message.TransactionCommit:
		if hdr.FromTransactionCheck {
			log.Warn("Check producer transaction state, the producer commit the message.")
		}
	case message.TransactionRollback:
		log.Warn("The producer rollback the message.")
	case message.TransactionNotType:
		log.Warn("The producer end transaction, and it's pending status.")
		return nil, nil
	default:
		return nil, nil
	}
	half, ok := h.store.LookMessage(hdr.CommitLogOffset)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespSystemError), "Find prepared transaction message failed"), nil
	}
	if remark := checkPrepared(&half, &hdr); remark != "" {
		return wire.NewResponse(req, int32(protocol.RespSystemError), remark), nil
	}
	if hdr.CommitOrRollback == message.TransactionCommit {
		r := h.store.PutMessage(committedMessage(&half, hdr.CommitLogOffset))
		if code, remark := h.finalPutAnswer(r); code != protocol.RespSuccess {
			return wire.NewResponse(req, int32(code), remark), nil
		}
	}
	h.putOp(&half)
	return success(req), nil
}

// checkPrepared is checkPrepareMessage: the half message must be the
// producer group's and sit at the offsets the producer was told; a
// non-empty remark says which does not hold.
func checkPrepared(half *message.Record, hdr *protocol.EndTransactionRequestHeader) string {
	if group, _ := message.ParseProperties(half.Properties).Get(message.PropProducerGroup); group != hdr.ProducerGroup {
		return "The producer group wrong"
	}
	if half.QueueOffset != hdr.TranStateTableOffset {
		return "The transaction state table offset wrong"
	}
	if half.PhysicalOffset != hdr.CommitLogOffset {
		return "The commit log offset wrong"
	}
	return ""
}

// committedMessage is endMessageTransaction plus what the processor sets
// after it (see the file comment).
func committedMessage(half *message.Record, preparedOffset int64) *store.Message {
	p := message.ParseProperties(half.Properties)
	topic, _ := p.Get(message.PropRealTopic)
	qid, _ := p.Get(message.PropRealQueueID)
	queueID, _ := strconv.Atoi(qid)
	m := store.Rewritten(half, topic, int32(queueID), p)
	m.SysFlag = message.SetTransactionType(half.SysFlag, message.TransactionCommit)
	m.PreparedTransactionOffset = preparedOffset
	return m
}

// finalPutAnswer is sendFinalMessage's mapping of the put status.
func (h *txHandlers) finalPutAnswer(r store.PutResult) (protocol.ResponseCode, string) {
	switch r.Status {
	case store.PutOK, store.FlushDiskTimeout, store.FlushSlaveTimeout, store.SlaveNotAvailable:
		return protocol.RespSuccess, ""
	case store.CreateMappedFileFailed:
		return protocol.RespSystemError, "Create mapped file failed."
	case store.MessageIllegal, store.PropertiesSizeExceeded:
		return protocol.RespMessageIllegal, fmt.Sprintf("The message is illegal, maybe msg body or properties length not matched. msg body length limit %dB, msg properties length limit 32KB.", h.maxBodySize)
	case store.ServiceNotAvailable:
		return protocol.RespServiceNotAvailable, "Service not available now."
	case store.OSPageCacheBusy:
		return protocol.RespSystemError, "OS page cache busy, please try another machine"
	}
	return protocol.RespSystemError, "UNKNOWN_ERROR"
}

// putOp is deletePrepareMessage: an op message in the op queue of the
// half message's queue, tag "d", its body the half message's queue
// offset. Like Java, a failed put is only logged.
func (h *txHandlers) putOp(half *message.Record) {
	var p message.Properties
	p.Set(message.PropTags, opRemoveTag)
	p.Set(message.PropWait, "true")
	r := h.store.PutMessage(&store.Message{
		Topic: topics.TransOpHalfTopic, QueueID: half.QueueID,
		Body:          []byte(strconv.FormatInt(half.QueueOffset, 10)),
		Properties:    message.AppendProperties(nil, p.HashMapOrder()),
		BornTimestamp: time.Now().UnixMilli(), BornHost: h.storeHost, StoreHost: h.storeHost,
	})
	if r.Status != store.PutOK {
		h.log.WithError(r.Err).WithFields(logrus.Fields{"msgId": half.MsgID(), "queueId": half.QueueID}).
			Error("Transaction op message write failed.")
	}
}
