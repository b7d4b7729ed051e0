package routeinfo

import (
	"strconv"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Permission bits of a topic (Java PermName).
const (
	PermPriority = 0x8
	PermRead     = 0x4
	PermWrite    = 0x2
	PermInherit  = 0x1
)

// Topic system flags (Java TopicSysFlag).
const (
	FlagUnit    = 0x1
	FlagUnitSub = 0x2
)

// MasterID is the broker id of a master (MixAll.MASTER_ID).
const MasterID int64 = 0

// DataVersion mirrors org.apache.rocketmq.common.DataVersion: a broker
// bumps it whenever its topic configuration changes, and the name server
// rebuilds that broker's queue data only when it differs from the last one
// registered.
type DataVersion struct {
	Timestamp int64
	Counter   int64
}

// TopicConfig is the part of a broker's org.apache.rocketmq.common.TopicConfig
// the name server reads.
type TopicConfig struct {
	TopicName       string
	ReadQueueNums   int32
	WriteQueueNums  int32
	Perm            int32
	TopicFilterType string
	TopicSysFlag    int32
	Order           bool
}

// Java TopicConfig field defaults, used when a field is absent from the JSON.
const (
	DefaultQueueNums       = 16
	DefaultPerm            = PermRead | PermWrite
	DefaultTopicFilterType = "SINGLE_TAG"
)

// NewTopicConfig returns a TopicConfig with Java's field initializers.
func NewTopicConfig(name string) TopicConfig {
	return TopicConfig{
		TopicName:       name,
		ReadQueueNums:   DefaultQueueNums,
		WriteQueueNums:  DefaultQueueNums,
		Perm:            DefaultPerm,
		TopicFilterType: DefaultTopicFilterType,
	}
}

// TopicConfigWrapper mirrors TopicConfigSerializeWrapper as the name server
// uses it: the data version and the topic configs in the iteration order of
// the broker's ConcurrentHashMap as Java rebuilds it on decoding.
type TopicConfigWrapper struct {
	DataVersion DataVersion
	Topics      []TopicConfig
}

// QueueData mirrors org.apache.rocketmq.common.protocol.route.QueueData:
// one broker's queues of one topic.
type QueueData struct {
	BrokerName     string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

// BrokerData mirrors org.apache.rocketmq.common.protocol.route.BrokerData:
// the addresses of one broker group (master id 0, slaves 1..n).
type BrokerData struct {
	Cluster    string
	BrokerName string
	// Addrs maps broker id to address, iterating like Java's HashMap<Long,String>.
	Addrs *jhash.Map[int64, string]
}

func newBrokerData(cluster, name string) *BrokerData {
	return &BrokerData{Cluster: cluster, BrokerName: name, Addrs: jhash.NewMap[int64, string](jhash.Long, -1)}
}

// clone copies b as `new BrokerData(cluster, name, addrs.clone())`.
func (b *BrokerData) clone() BrokerData {
	return BrokerData{Cluster: b.Cluster, BrokerName: b.BrokerName, Addrs: b.Addrs.Clone()}
}

// TopicRouteData mirrors org.apache.rocketmq.common.protocol.route.TopicRouteData.
type TopicRouteData struct {
	// OrderTopicConf is nil when Java's field is null (not serialised).
	OrderTopicConf *string
	QueueDatas     []QueueData
	BrokerDatas    []BrokerData
	// FilterServerTable maps a broker address to its filter servers.
	FilterServerTable *jhash.Map[string, []string]
}

// ClusterInfo mirrors org.apache.rocketmq.common.protocol.body.ClusterInfo,
// as a snapshot taken under the table's lock.
type ClusterInfo struct {
	BrokerAddrTable  *jhash.Map[string, BrokerData]
	ClusterAddrTable *jhash.Map[string, []string]
}

// TopicList mirrors org.apache.rocketmq.common.protocol.body.TopicList.
type TopicList struct {
	Topics     []string
	BrokerAddr string // "" is Java null
}

// RegisterResult mirrors RegisterBrokerResult: filled for a slave whose
// master is alive.
type RegisterResult struct {
	HAServerAddr string
	MasterAddr   string
}

// liveInfo mirrors BrokerLiveInfo.
type liveInfo struct {
	lastUpdate   int64 // ms since the epoch
	dataVersion  DataVersion
	conn         Conn
	haServerAddr string
}

func (q QueueData) String() string {
	return "QueueData [brokerName=" + q.BrokerName +
		", readQueueNums=" + strconv.Itoa(int(q.ReadQueueNums)) +
		", writeQueueNums=" + strconv.Itoa(int(q.WriteQueueNums)) +
		", perm=" + strconv.Itoa(int(q.Perm)) +
		", topicSysFlag=" + strconv.Itoa(int(q.TopicSysFlag)) + "]"
}
