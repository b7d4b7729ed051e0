// Package config reads and writes the broker's JSON config files under
// <storePathRootDir>/config/ byte for byte as RocketMQ 4.9.8 does:
//
//	file                    Java owner (table class, initial capacity)         Go type
//	----------------------  -------------------------------------------------  ------------------
//	topics.json             TopicConfigManager (CHM 1024)                      *Topics
//	subscriptionGroup.json  SubscriptionGroupManager (CHM 1024)                *SubscriptionGroups
//	consumerOffset.json     ConsumerOffsetManager (CHM 512 of CHM 32)          *ConsumerOffsets
//	delayOffset.json        ScheduleMessageService (CHM 32)                    *DelayOffsets
//	consumerFilter.json     ConsumerFilterManager (CHM 256 of CHM)             *ConsumerFilters
//
// (CHM = java.util.concurrent.ConcurrentHashMap.) The package is pure data:
// no goroutines, no timers, no clock except where Java reads one (the
// timestamp of a DataVersion the file lacks); callers pass "now" elsewhere.
//
// # Layout (fastjson 1.2.69, JSON.toJSONString(obj, true))
//
// Bean fields are sorted by name and nulls are left out; a String map key
// starts a new line, an Integer key does not; the tab indentation is
// fastjson's pretty mode (see compat/fastjson):
//
//	{
//		"dataVersion":{                       <- DataVersion: counter (AtomicLong), timestamp
//			"counter":12,
//			"timestamp":1690000000000
//		},
//		"topicConfigTable":{                  <- Map<String, TopicConfig>, CHM order
//			"TopicTest":{
//				"order":false,
//				"perm":6,
//				"readQueueNums":4,
//				"topicFilterType":"SINGLE_TAG",   <- enum by name
//				"topicName":"TopicTest",
//				"topicSysFlag":0,
//				"writeQueueNums":4
//			}
//		}
//	}
//
//	{
//		"offsetTable":{                       <- Map<String "topic@group", Map<Integer, Long>>
//			"TopicTest@G1":{0:120,1:118,2:131,3:127
//			}
//		}
//	}
//
// # Order
//
// fastjson writes a map in its iteration order, and a ConcurrentHashMap's
// order depends on the key hashes, the table length and the history of
// puts, removes and resizes. Each table here is a model of the Java table
// (chm) created with the capacity the Java manager uses, so a table built by
// the same operations iterates in the same order. Decoding follows what the
// Java decode does, which differs per file: topics.json and delayOffset.json
// are read into a default-capacity map (fastjson's) and putAll into the
// manager's table; consumerOffset.json and consumerFilter.json replace the
// manager's table with fastjson's default-capacity map;
// subscriptionGroup.json is read straight into a fresh manager's 1024 table
// and putAll into the live one. Re-encoding a decoded file therefore does
// not always give back the same bytes — Java does not either — but it gives
// what Java writes after loading that file.
//
// # Reading
//
// Decoders accept what fastjson accepts for these beans (see
// compat/fastjson.Parse): unquoted and quoted keys, comments, extra commas,
// numbers as strings; unknown fields are ignored; missing fields keep the
// Java default; field names match as fastjson's smartMatch does (case,
// '_' and '-' ignored, an "is" prefix on booleans). What makes the Java
// decode throw — a syntax error, a value of the wrong type, a null entry in
// a table (ConcurrentHashMap refuses nulls), a number or object key in a
// String-keyed table, a null topicConfigTable, subscriptionGroupTable,
// groupFilterData, delay offsetTable or dataVersion — is ErrCorrupt here,
// which makes Load fall back to the .bak file as ConfigManager.load does.
// One deliberate difference: a null consumerOffset offsetTable, which Java
// installs (and then fails on first use), is ErrCorrupt too.
//
// Java's encode of consumerFilter.json first drops filters dead for a day
// (ConsumerFilterManager.clean); here that is ConsumerFilters.Clean, which
// the caller runs, and the bloom-filter check and death dating that Java's
// decode does after fastjson are ConsumerFilters.Restore.
package config

import "errors"

// ErrCorrupt marks file content that Java's decode would reject (and so
// fall back to the .bak file). I/O errors are not wrapped with it.
var ErrCorrupt = errors.New("config: corrupt file")
