package groups

import (
	"strings"

	"github.com/sputnikmq/sputnik/store"
)

// Group names and topic prefixes of MixAll. Part of the protocol, do not
// change.
const (
	DefaultProducerGroup     = "DEFAULT_PRODUCER"      // DEFAULT_PRODUCER_GROUP
	DefaultConsumerGroup     = "DEFAULT_CONSUMER"      // DEFAULT_CONSUMER_GROUP
	ToolsConsumerGroup       = "TOOLS_CONSUMER"        // TOOLS_CONSUMER_GROUP
	ScheduleConsumerGroup    = "SCHEDULE_CONSUMER"     // SCHEDULE_CONSUMER_GROUP
	FiltersrvConsumerGroup   = "FILTERSRV_CONSUMER"    // FILTERSRV_CONSUMER_GROUP
	MonitorConsumerGroup     = "__MONITOR_CONSUMER"    // MONITOR_CONSUMER_GROUP
	ClientInnerProducerGroup = "CLIENT_INNER_PRODUCER" // CLIENT_INNER_PRODUCER_GROUP
	SelfTestProducerGroup    = "SELF_TEST_P_GROUP"     // SELF_TEST_PRODUCER_GROUP
	SelfTestConsumerGroup    = "SELF_TEST_C_GROUP"     // SELF_TEST_CONSUMER_GROUP
	OnsHTTPProxyGroup        = "CID_ONS-HTTP-PROXY"    // ONS_HTTP_PROXY_GROUP
	OnsAPIPermissionGroup    = "CID_ONSAPI_PERMISSION" // CID_ONSAPI_PERMISSION_GROUP
	OnsAPIOwnerGroup         = "CID_ONSAPI_OWNER"      // CID_ONSAPI_OWNER_GROUP
	OnsAPIPullGroup          = "CID_ONSAPI_PULL"       // CID_ONSAPI_PULL_GROUP
	SysGroupPrefix           = "CID_RMQ_SYS_"          // CID_RMQ_SYS_PREFIX
	TransCheckGroup          = "CID_RMQ_SYS_TRANS"     // CID_SYS_RMQ_TRANS

	RetryTopicPrefix = "%RETRY%"       // RETRY_GROUP_TOPIC_PREFIX
	DLQTopicPrefix   = "%DLQ%"         // DLQ_GROUP_TOPIC_PREFIX
	LmqPrefix        = store.LmqPrefix // LMQ_PREFIX
)

// builtIn lists init()'s groups in put order.
var builtIn = []string{ToolsConsumerGroup, FiltersrvConsumerGroup, SelfTestConsumerGroup,
	OnsHTTPProxyGroup, OnsAPIPullGroup, OnsAPIPermissionGroup, OnsAPIOwnerGroup}

// RetryTopic is MixAll.getRetryTopic: "%RETRY%" + group.
func RetryTopic(group string) string { return RetryTopicPrefix + group }

// DLQTopic is MixAll.getDLQTopic: "%DLQ%" + group.
func DLQTopic(group string) string { return DLQTopicPrefix + group }

// IsSysConsumerGroup is MixAll.isSysConsumerGroup: such groups are always
// auto-created.
func IsSysConsumerGroup(group string) bool { return strings.HasPrefix(group, SysGroupPrefix) }

// IsLmq is MixAll.isLmq.
func IsLmq(name string) bool { return strings.HasPrefix(name, LmqPrefix) }
