// Package offsets is the broker's consumer-offset table: Java 4.9.8's
// ConsumerOffsetManager (broker/.../offset/ConsumerOffsetManager.java)
// holding consumerOffset.json's "topic@group" → queueId → offset table
// (store/config.ConsumerOffsets, which iterates in Java's order).
//
//	Go                      Java (ConsumerOffsetManager)
//	----------------------  ------------------------------------------------
//	Commit                  commitOffset
//	Query, QueryAll         queryOffset(group, topic, queueId) / (group, topic)
//	TopicsOf, GroupsOf      whichTopicByConsumer / whichGroupByTopic (HashSet order)
//	Clone                   cloneOffset
//	RemoveGroup             removeOffset
//	MinOffsetInAllGroups    queryMinOffsetInAllGroup (HashMap order)
//	ScanUnsubscribed        scanUnsubscribedTopic
//	Load / Persist          ConfigManager.load (decode replaces the table) / persist
//	Run                     the flushConsumerOffsetInterval timer (first run after
//	                        10 s) and the persist at shutdown
//
// Unlike the topic and group tables, commits are not written at once:
// only Persist (the timer, shutdown) writes the file.
//
// # Java behaviour kept on purpose
//
//   - Keys that do not split into exactly topic and group on '@' are
//     skipped by TopicsOf, GroupsOf, RemoveGroup and ScanUnsubscribed;
//     MinOffsetInAllGroups takes the part before the first '@' as the topic.
//
// # Differences from Java
//
//   - MinOffsetInAllGroups skips the filter groups. Java deletes, from the
//     live table, every key of those groups, for every topic (it removes
//     them through offsetTable.keySet()'s iterator), so a QUERY_CORRECTION_OFFSET
//     naming a group silently drops that group's committed offsets at the
//     next persist. No client depends on that.
//   - MinOffsetInAllGroups skips a key without '@' where Java throws
//     ArrayIndexOutOfBoundsException.
//   - With Options.Lmq the table is LmqConsumerOffsetManager's, kept in
//     lmqConsumerOffset.json.
package offsets

import "errors"

// ErrNoRoot: Options.StorePathRootDir is empty.
var ErrNoRoot = errors.New("offsets: no store root directory")
