package body

import "github.com/sputnikmq/sputnik/compat/fastjson"

// LockBatchRequest is org.apache.rocketmq.common.protocol.body.LockBatchRequestBody
// (LOCK_BATCH_MQ) and UnlockBatchRequestBody (UNLOCK_BATCH_MQ), which have
// the same properties:
//
//	{"clientId":"10.0.0.5@1","consumerGroup":"G1","mqSet":[{"brokerName":"b","queueId":0,"topic":"T"}]}
//
// MQSet is in HashSet iteration order; nil is Java null.
type LockBatchRequest struct {
	ClientID      NullString
	ConsumerGroup NullString
	MQSet         []MessageQueue
}

var lockRequestFields = fields("clientId", "consumerGroup", "mqSet")

// DecodeLockBatchRequest reads a LOCK_BATCH_MQ or UNLOCK_BATCH_MQ body.
func DecodeLockBatchRequest(data []byte) (LockBatchRequest, error) {
	r := LockBatchRequest{MQSet: []MessageQueue{}}
	root, err := parseRoot(data, "LockBatchRequestBody")
	if err != nil {
		return r, err
	}
	var d fastjson.Decoder
	for k, fv := range root.Members() {
		switch lockRequestFields.match(k) {
		case "clientId":
			r.ClientID = decodeNullString(&d, fv)
		case "consumerGroup":
			r.ConsumerGroup = decodeNullString(&d, fv)
		case "mqSet":
			r.MQSet = decodeMQSet(&d, fv)
		}
	}
	return r, finish(&d, "LockBatchRequestBody")
}

// Encode is LockBatchRequestBody.encode().
func (r *LockBatchRequest) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeNullString(w, "clientId", r.ClientID)
		writeNullString(w, "consumerGroup", r.ConsumerGroup)
		writeMQs(w, "mqSet", r.MQSet)
		w.EndObject()
	})
}

// LockBatchResponse is
// org.apache.rocketmq.common.protocol.body.LockBatchResponseBody:
// {"lockOKMQSet":[...]}, LockOKMQSet in the set's iteration order.
type LockBatchResponse struct {
	LockOKMQSet []MessageQueue
}

var lockResponseFields = fields("lockOKMQSet")

// DecodeLockBatchResponse reads a LOCK_BATCH_MQ response body.
func DecodeLockBatchResponse(data []byte) (LockBatchResponse, error) {
	r := LockBatchResponse{LockOKMQSet: []MessageQueue{}}
	root, err := parseRoot(data, "LockBatchResponseBody")
	if err != nil {
		return r, err
	}
	var d fastjson.Decoder
	for k, fv := range root.Members() {
		if lockResponseFields.match(k) == "lockOKMQSet" {
			r.LockOKMQSet = decodeMQSet(&d, fv)
		}
	}
	return r, finish(&d, "LockBatchResponseBody")
}

// Encode is LockBatchResponseBody.encode().
func (r *LockBatchResponse) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeMQs(w, "lockOKMQSet", r.LockOKMQSet)
		w.EndObject()
	})
}
