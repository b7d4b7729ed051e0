// Package body holds the JSON bodies of the broker's client bookkeeping
// requests (HEART_BEAT, CHECK_CLIENT_CONFIG, LOCK_BATCH_MQ, UNLOCK_BATCH_MQ,
// GET_CONSUMER_LIST_BY_GROUP, GET_CONSUMER_CONNECTION_LIST,
// GET_PRODUCER_CONNECTION_LIST) as Go types, with a lenient decoder that
// accepts what fastjson 1.2.69 accepts and an encoder that writes the bytes
// RemotingSerializable.encode() writes in Java 4.9.8.
//
//	Java 4.9.8 class (org.apache.rocketmq.common...)       Go type              direction
//	-----------------------------------------------------  -------------------  ---------
//	protocol.heartbeat.HeartbeatData                       HeartbeatData        decode
//	protocol.heartbeat.ProducerData                        ProducerData         decode
//	protocol.heartbeat.ConsumerData                        ConsumerData         decode
//	protocol.heartbeat.SubscriptionData                    SubscriptionData     both
//	protocol.heartbeat.ConsumeType / MessageModel          ConsumeType, ...     both
//	consumer.ConsumeFromWhere                              ConsumeFromWhere     both
//	protocol.body.CheckClientRequestBody                   CheckClientRequest   decode
//	protocol.body.LockBatchRequestBody                     LockBatchRequest     both
//	protocol.body.UnlockBatchRequestBody                   LockBatchRequest     both
//	protocol.body.LockBatchResponseBody                    LockBatchResponse    both
//	protocol.header.GetConsumerListByGroupResponseBody     ConsumerList         both
//	protocol.body.ConsumerConnection                       ConsumerConnection   encode
//	protocol.body.ProducerConnection                       ProducerConnection   encode
//	protocol.body.Connection                               Connection           encode
//	message.MessageQueue                                   MessageQueue         both
//
// # What fastjson writes
//
// Bean properties in alphabetical order, nulls left out, enums as names.
// A HashSet is written in its iteration order, which depends on the element
// hashes (MessageQueue.hashCode, String.hashCode, Integer.hashCode,
// SubscriptionData.hashCode) and the table capacity; decoders therefore
// keep every Set in the order Java's HashSet would iterate it after
// fastjson filled it (a `new HashSet()` receiving the array's elements in
// order, duplicates by equals() dropped), and encoders write slices as they
// are. Sets of classes without hashCode (ConsumerData, ProducerData,
// Connection) iterate in identity-hash order in Java, which is random: the
// array order is kept.
//
// # What clients send
//
// The Java 4.9.8 client sends fastjson's form (see HeartbeatData's example).
// client-go v2.1.2 (internal/model.go, jsoniter) sends the same property
// names in declaration order, codeSet as strings (["2598919"]), subVersion
// in nanoseconds, and lockBatchRequestBody with `mqSet` as a plain array.
// fastjson converts "2598919" to an Integer, and so does the decoder here.
//
// Input that Java could not decode at all (not JSON, an array where an
// object is expected, an unconvertible number) is ErrCorrupt; an empty
// body or a JSON null, which Java decodes to a null object (and then
// dereferences), is ErrNull.
package body
