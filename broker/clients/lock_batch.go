package clients

// Codes: LOCK_BATCH_MQ (41), UNLOCK_BATCH_MQ (42).
// Java 4.9.8 mirror: AdminBrokerProcessor.lockBatchMQ and unlockBatchMQ.

import (
	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// LockBatchMQ locks what it can of the body's mqSet for its clientId and
// answers {"lockOKMQSet":[...]}.
func (h *Handlers) LockBatchMQ(_ Channel, req *wire.Command) (*wire.Command, error) {
	r, err := decodeLockBody(req)
	if err != nil {
		return nil, err
	}
	if r.MQSet == nil || len(r.MQSet) > 0 && (!r.ConsumerGroup.Valid || !r.ClientID.Valid) {
		return nil, errNPE("RebalanceLockManager.tryLockBatch")
	}
	locked := h.Locks.TryLockBatch(r.ConsumerGroup.S, r.MQSet, r.ClientID.S)
	resp := success(req)
	resp.Body = (&body.LockBatchResponse{LockOKMQSet: locked}).Encode()
	return resp, nil
}

// UnlockBatchMQ releases the body's queues held by its clientId.
func (h *Handlers) UnlockBatchMQ(_ Channel, req *wire.Command) (*wire.Command, error) {
	r, err := decodeLockBody(req)
	if err != nil {
		return nil, err
	}
	if !r.ConsumerGroup.Valid || r.MQSet == nil && h.Locks.HasGroup(r.ConsumerGroup.S) {
		return nil, errNPE("RebalanceLockManager.unlockBatch")
	}
	h.Locks.UnlockBatch(r.ConsumerGroup.S, r.MQSet, r.ClientID.S)
	return success(req), nil
}

// decodeLockBody decodes a (Un)LockBatchRequestBody. Java throws an NPE on
// a null body; a lock, on a null mqSet, or a null group or clientId once a
// queue has to be looked up; an unlock, on a null group, or a null mqSet
// when the group holds locks.
func decodeLockBody(req *wire.Command) (body.LockBatchRequest, error) {
	if len(req.Body) == 0 {
		return body.LockBatchRequest{}, errNPE("LockBatchRequestBody.decode(null)")
	}
	r, err := body.DecodeLockBatchRequest(req.Body)
	if err != nil {
		return r, bodyError(err, "requestBody.getConsumerGroup()")
	}
	return r, nil
}
