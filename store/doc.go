// Package store will hold Sputnik's message store: the CommitLog,
// ConsumeQueue and IndexFile formats of Apache RocketMQ 4.9.8, checkpoint,
// abort and lock files, the config JSON files, dispatch and recovery
// (issue #5). It knows nothing of remoting; tools/lint enforces that.
// Nothing is implemented yet.
package store
