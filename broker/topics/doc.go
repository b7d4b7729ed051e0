// Package topics is the broker's topic table: Java 4.9.8's
// TopicConfigManager (broker/.../topic/TopicConfigManager.java, and
// LmqTopicConfigManager when LMQ is on), the name rules of
// common/.../topic/TopicValidator.java and the permission bits of
// common/.../constant/PermName.java.
//
// A Manager holds the table of topics.json (store/config.Topics, which
// iterates in the Java ConcurrentHashMap's order) and applies Java's
// semantics to it:
//
//	Go                            Java (TopicConfigManager unless noted)
//	----------------------------  ------------------------------------------------
//	New                           the constructor: system topics (see below)
//	Load / Persist                ConfigManager.load (decode = putAll) / persist
//	Select                        selectTopicConfig (LMQ: a synthesized 1/1 RW topic)
//	CreateInSendMessage           createTopicInSendMessageMethod
//	CreateInSendMessageBack       createTopicInSendMessageBackMethod
//	CreateTranCheckMaxTime        createTopicOfTranCheckMaxTime
//	Update                        updateTopicConfig
//	UpdateUnitFlag(Sub)           updateTopicUnitFlag / updateTopicUnitSubFlag
//	UpdateOrderTopics             updateOrderTopicConfig(KVTable from the name server)
//	IsOrderTopic, Delete          isOrderTopic, deleteTopicConfig
//	Wrapper                       buildTopicConfigSerializeWrapper
//	IsSystemTopic                 TopicValidator.isSystemTopic after the constructor's
//	                              addSystemTopic calls (per Manager, not global)
//
// # System topics (the constructor, in put order)
//
//	topic                        queues r/w     perm          when
//	---------------------------  -------------  ------------  ---------------------------
//	SELF_TEST_TOPIC              1/1            RW  (6)       always
//	TBW102                       defaultTopicQueueNums (8)    RWX (7) autoCreateTopicEnable
//	BenchmarkTest                1024/1024      RW  (6)       always
//	<brokerClusterName>          16/16          X, +RW if clusterTopicEnable
//	<brokerName>                 1/1            X, +RW if brokerTopicEnable
//	OFFSET_MOVED_EVENT           1/1            RW            always
//	SCHEDULE_TOPIC_XXXX          18/18          RW            always
//	<msgTraceTopicName>          1/1            RW            traceTopicEnable
//	<brokerClusterName>_REPLY_TOPIC 1/1         RW            always
//
// The transaction topics (RMQ_SYS_TRANS_HALF_TOPIC, RMQ_SYS_TRANS_OP_HALF_TOPIC)
// are not created here: the transaction service creates them on first use
// through CreateInSendMessageBack, and TRANS_CHECK_MAX_TIME_TOPIC through
// CreateTranCheckMaxTime.
//
// # Persisting
//
// Every change Java persists is persisted here, after the table lock is
// released, through store/config.Save; a failed save is returned (Java logs
// it) and the change stays in the table, as in Java. Where Java persists
// nothing (the TBW102 permission reset, UpdateOrderTopics without a change)
// nothing is written. Java's registerBrokerAll after a creation is
// Options.Register, called outside the lock.
//
// # Differences from Java
//
//   - The table lock is a plain mutex: Java's tryLock gives up after 3 s
//     and returns null; here the caller waits.
package topics

import "errors"

// Errors of the package.
var (
	// ErrNoRoot: Options.StorePathRootDir is empty.
	ErrNoRoot = errors.New("topics: no store root directory")
	// ErrNullTopicName: Update was given a config whose topicName is Java
	// null (ConcurrentHashMap.put throws).
	ErrNullTopicName = errors.New("topics: topic name is null")
	// ErrTopicBlank, ErrTopicIllegal and ErrTopicTooLong are Validate's
	// findings, in the order TopicValidator.validateTopic checks them.
	ErrTopicBlank   = errors.New("The specified topic is blank.")
	ErrTopicIllegal = errors.New("The specified topic contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$")
	ErrTopicTooLong = errors.New("The specified topic is longer than topic max length.")
)
