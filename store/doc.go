// Package store is Sputnik's message store, a drop-in for Apache RocketMQ
// 4.9.8's DefaultMessageStore on the same directory: it opens what Java
// wrote and Java opens what it writes.
//
// The formats live in sub-packages, one each: store/message (the commit-log
// record), store/commitlog (the log, flushing, checkpoint, recovery scans),
// store/consumequeue, store/index, store/config (the JSON files under
// config/) and store/segment (the mapped files they are all made of). This
// package wires them as DefaultMessageStore does: the lock and abort files,
// load and recovery, the put path (checks, delay-level rewrite, encoding,
// durability), dispatch of new records to consume queues and the index
// (Java's ReputMessageService) with arrival notifications for long
// polling, reads by queue offset and by key, and retention.
//
// It knows nothing of remoting; tools/lint enforces that.
package store
