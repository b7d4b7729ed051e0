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
	h.Locks.UnlockBatch(r.ConsumerGroup.S, r.MQSet, r.ClientID.S)
	return success(req), nil
}

// decodeLockBody decodes a (Un)LockBatchRequestBody. Java throws an NPE on
// a null body, a null mqSet, or a null group or clientId once a queue has
// to be looked up.
func decodeLockBody(req *wire.Command) (body.LockBatchRequest, error) {
	if len(req.Body) == 0 {
		return body.LockBatchRequest{}, errNPE("LockBatchRequestBody.decode(null)")
	}
	r, err := body.DecodeLockBatchRequest(req.Body)
	if err != nil {
		return r, bodyError(err, "requestBody.getConsumerGroup()")
	}
	if r.MQSet == nil || len(r.MQSet) > 0 && (!r.ConsumerGroup.Valid || !r.ClientID.Valid) {
		return r, errNPE("RebalanceLockManager")
	}
	return r, nil
}
