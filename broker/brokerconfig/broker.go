package brokerconfig

// BrokerConfig mirrors org.apache.rocketmq.common.BrokerConfig of 4.9.8:
// every key (prop tags), in Java's declaration order (the order `mqbroker
// -p` prints), with Java's defaults (DefaultBrokerConfig) and its
// @ImportantField marks (`mqbroker -m`). Java long fields are int64, int
// fields int32; a *string is a String field whose default is null (or may
// be: BrokerStartup tests rocketmqHome and namesrvAddr for null). The Java
// class has no getter or setter with logic, so there are no derived
// methods.
type BrokerConfig struct {
	RocketmqHome                           *string `prop:"rocketmqHome"`
	NamesrvAddr                            *string `prop:"namesrvAddr,important"`
	BrokerIP1                              string  `prop:"brokerIP1,important"`
	BrokerIP2                              string  `prop:"brokerIP2"`
	BrokerName                             string  `prop:"brokerName,important"`
	BrokerClusterName                      string  `prop:"brokerClusterName,important"`
	BrokerID                               int64   `prop:"brokerId,important"`
	BrokerPermission                       int32   `prop:"brokerPermission"`
	DefaultTopicQueueNums                  int32   `prop:"defaultTopicQueueNums"`
	AutoCreateTopicEnable                  bool    `prop:"autoCreateTopicEnable,important"`
	ClusterTopicEnable                     bool    `prop:"clusterTopicEnable"`
	BrokerTopicEnable                      bool    `prop:"brokerTopicEnable"`
	AutoCreateSubscriptionGroup            bool    `prop:"autoCreateSubscriptionGroup,important"`
	MessageStorePlugIn                     string  `prop:"messageStorePlugIn"`
	MsgTraceTopicName                      string  `prop:"msgTraceTopicName,important"`
	TraceTopicEnable                       bool    `prop:"traceTopicEnable,important"`
	SendMessageThreadPoolNums              int32   `prop:"sendMessageThreadPoolNums"`
	PutMessageFutureThreadPoolNums         int32   `prop:"putMessageFutureThreadPoolNums"`
	PullMessageThreadPoolNums              int32   `prop:"pullMessageThreadPoolNums"`
	ProcessReplyMessageThreadPoolNums      int32   `prop:"processReplyMessageThreadPoolNums"`
	QueryMessageThreadPoolNums             int32   `prop:"queryMessageThreadPoolNums"`
	AdminBrokerThreadPoolNums              int32   `prop:"adminBrokerThreadPoolNums"`
	ClientManageThreadPoolNums             int32   `prop:"clientManageThreadPoolNums"`
	ConsumerManageThreadPoolNums           int32   `prop:"consumerManageThreadPoolNums"`
	HeartbeatThreadPoolNums                int32   `prop:"heartbeatThreadPoolNums"`
	EndTransactionThreadPoolNums           int32   `prop:"endTransactionThreadPoolNums"`
	FlushConsumerOffsetInterval            int32   `prop:"flushConsumerOffsetInterval"`
	FlushConsumerOffsetHistoryInterval     int32   `prop:"flushConsumerOffsetHistoryInterval"`
	RejectTransactionMessage               bool    `prop:"rejectTransactionMessage,important"`
	FetchNamesrvAddrByAddressServer        bool    `prop:"fetchNamesrvAddrByAddressServer,important"`
	SendThreadPoolQueueCapacity            int32   `prop:"sendThreadPoolQueueCapacity"`
	PutThreadPoolQueueCapacity             int32   `prop:"putThreadPoolQueueCapacity"`
	PullThreadPoolQueueCapacity            int32   `prop:"pullThreadPoolQueueCapacity"`
	ReplyThreadPoolQueueCapacity           int32   `prop:"replyThreadPoolQueueCapacity"`
	QueryThreadPoolQueueCapacity           int32   `prop:"queryThreadPoolQueueCapacity"`
	ClientManagerThreadPoolQueueCapacity   int32   `prop:"clientManagerThreadPoolQueueCapacity"`
	ConsumerManagerThreadPoolQueueCapacity int32   `prop:"consumerManagerThreadPoolQueueCapacity"`
	HeartbeatThreadPoolQueueCapacity       int32   `prop:"heartbeatThreadPoolQueueCapacity"`
	EndTransactionPoolQueueCapacity        int32   `prop:"endTransactionPoolQueueCapacity"`
	FilterServerNums                       int32   `prop:"filterServerNums"`
	LongPollingEnable                      bool    `prop:"longPollingEnable"`
	ShortPollingTimeMills                  int64   `prop:"shortPollingTimeMills"`
	NotifyConsumerIdsChangedEnable         bool    `prop:"notifyConsumerIdsChangedEnable"`
	HighSpeedMode                          bool    `prop:"highSpeedMode"`
	CommercialEnable                       bool    `prop:"commercialEnable"`
	CommercialTimerCount                   int32   `prop:"commercialTimerCount"`
	CommercialTransCount                   int32   `prop:"commercialTransCount"`
	CommercialBigCount                     int32   `prop:"commercialBigCount"`
	CommercialBaseCount                    int32   `prop:"commercialBaseCount"`
	TransferMsgByHeap                      bool    `prop:"transferMsgByHeap"`
	MaxDelayTime                           int32   `prop:"maxDelayTime"`
	RegionID                               string  `prop:"regionId"`
	RegisterBrokerTimeoutMills             int32   `prop:"registerBrokerTimeoutMills"`
	SlaveReadEnable                        bool    `prop:"slaveReadEnable"`
	DisableConsumeIfConsumerReadSlowly     bool    `prop:"disableConsumeIfConsumerReadSlowly"`
	ConsumerFallbehindThreshold            int64   `prop:"consumerFallbehindThreshold"`
	BrokerFastFailureEnable                bool    `prop:"brokerFastFailureEnable"`
	WaitTimeMillsInSendQueue               int64   `prop:"waitTimeMillsInSendQueue"`
	WaitTimeMillsInPullQueue               int64   `prop:"waitTimeMillsInPullQueue"`
	WaitTimeMillsInHeartbeatQueue          int64   `prop:"waitTimeMillsInHeartbeatQueue"`
	WaitTimeMillsInTransactionQueue        int64   `prop:"waitTimeMillsInTransactionQueue"`
	StartAcceptSendRequestTimeStamp        int64   `prop:"startAcceptSendRequestTimeStamp"`
	TraceOn                                bool    `prop:"traceOn"`
	EnableCalcFilterBitMap                 bool    `prop:"enableCalcFilterBitMap"`
	ExpectConsumerNumUseFilter             int32   `prop:"expectConsumerNumUseFilter"`
	MaxErrorRateOfBloomFilter              int32   `prop:"maxErrorRateOfBloomFilter"`
	FilterDataCleanTimeSpan                int64   `prop:"filterDataCleanTimeSpan"`
	FilterSupportRetry                     bool    `prop:"filterSupportRetry"`
	EnablePropertyFilter                   bool    `prop:"enablePropertyFilter"`
	CompressedRegister                     bool    `prop:"compressedRegister"`
	ForceRegister                          bool    `prop:"forceRegister"`
	RegisterNameServerPeriod               int32   `prop:"registerNameServerPeriod"`
	TransactionTimeOut                     int64   `prop:"transactionTimeOut,important"`
	TransactionCheckMax                    int32   `prop:"transactionCheckMax,important"`
	TransactionCheckInterval               int64   `prop:"transactionCheckInterval,important"`
	ACLEnable                              bool    `prop:"aclEnable,important"`
	StoreReplyMessageEnable                bool    `prop:"storeReplyMessageEnable"`
	EnableDetailStat                       bool    `prop:"enableDetailStat"`
	AutoDeleteUnusedStats                  bool    `prop:"autoDeleteUnusedStats"`
	IsolateLogEnable                       bool    `prop:"isolateLogEnable"`
	// ConfigBlackList lists, ';'-separated, keys UPDATE_BROKER_CONFIG may
	// not change (new in 4.9.8).
	ConfigBlackList string `prop:"configBlackList"`
}

// Values of BrokerConfig defaults that name other Java constants.
const (
	MasterID               = 0                     // MixAll.MASTER_ID
	DefaultClusterName     = "DefaultCluster"      // brokerClusterName
	DefaultTraceTopic      = "RMQ_SYS_TRACE_TOPIC" // TopicValidator.RMQ_SYS_TRACE_TOPIC
	DefaultTraceRegionID   = "DefaultRegion"       // MixAll.DEFAULT_TRACE_REGION_ID
	DefaultConfigBlackList = "configBlackList;brokerConfigPath"
	permRead               = 1 << 2 // PermName.PERM_READ
	permWrite              = 1 << 1 // PermName.PERM_WRITE
)

// DefaultBrokerConfig returns the state of `new BrokerConfig()` on machine
// m: rocketmqHome and namesrvAddr from the rocketmq.home.dir /
// rocketmq.namesrv.addr system properties, else ROCKETMQ_HOME /
// NAMESRV_ADDR; brokerIP1/2 the local address; brokerName the host name;
// thread-pool sizes from the processor count.
func DefaultBrokerConfig(m Machine) BrokerConfig {
	c := BrokerConfig{
		RocketmqHome:      m.propOrEnv("rocketmq.home.dir", "ROCKETMQ_HOME"),
		NamesrvAddr:       m.propOrEnv("rocketmq.namesrv.addr", "NAMESRV_ADDR"),
		BrokerIP1:         m.LocalAddress,
		BrokerIP2:         m.LocalAddress,
		BrokerName:        m.HostName,
		BrokerClusterName: DefaultClusterName,
		BrokerID:          MasterID,
		BrokerPermission:  permRead | permWrite,

		DefaultTopicQueueNums:       8,
		AutoCreateTopicEnable:       true,
		ClusterTopicEnable:          true,
		BrokerTopicEnable:           true,
		AutoCreateSubscriptionGroup: true,
		MsgTraceTopicName:           DefaultTraceTopic,

		FlushConsumerOffsetInterval:            1000 * 5,
		FlushConsumerOffsetHistoryInterval:     1000 * 60,
		SendThreadPoolQueueCapacity:            10000,
		PutThreadPoolQueueCapacity:             10000,
		PullThreadPoolQueueCapacity:            100000,
		ReplyThreadPoolQueueCapacity:           10000,
		QueryThreadPoolQueueCapacity:           20000,
		ClientManagerThreadPoolQueueCapacity:   1000000,
		ConsumerManagerThreadPoolQueueCapacity: 1000000,
		HeartbeatThreadPoolQueueCapacity:       50000,
		EndTransactionPoolQueueCapacity:        100000,

		LongPollingEnable:               true,
		ShortPollingTimeMills:           1000,
		NotifyConsumerIdsChangedEnable:  true,
		CommercialEnable:                true,
		CommercialTimerCount:            1,
		CommercialTransCount:            1,
		CommercialBigCount:              1,
		CommercialBaseCount:             1,
		TransferMsgByHeap:               true,
		MaxDelayTime:                    40,
		RegionID:                        DefaultTraceRegionID,
		RegisterBrokerTimeoutMills:      6000,
		ConsumerFallbehindThreshold:     1024 * 1024 * 1024 * 16,
		BrokerFastFailureEnable:         true,
		WaitTimeMillsInSendQueue:        200,
		WaitTimeMillsInPullQueue:        5 * 1000,
		WaitTimeMillsInHeartbeatQueue:   31 * 1000,
		WaitTimeMillsInTransactionQueue: 3 * 1000,
		TraceOn:                         true,
		ExpectConsumerNumUseFilter:      32,
		MaxErrorRateOfBloomFilter:       20,
		FilterDataCleanTimeSpan:         24 * 3600 * 1000,
		ForceRegister:                   true,
		RegisterNameServerPeriod:        1000 * 30,
		TransactionTimeOut:              6 * 1000,
		TransactionCheckMax:             15,
		TransactionCheckInterval:        60 * 1000,
		StoreReplyMessageEnable:         true,
		EnableDetailStat:                true,
		ConfigBlackList:                 DefaultConfigBlackList,
	}
	c.setThreadPools(int32(m.Processors))
	return c
}

// setThreadPools sets the pool sizes BrokerConfig derives from
// Runtime.availableProcessors() (p).
func (c *BrokerConfig) setThreadPools(p int32) {
	c.SendMessageThreadPoolNums = min(p, 4)
	c.PutMessageFutureThreadPoolNums = min(p, 4)
	c.PullMessageThreadPoolNums = 16 + p*2
	c.ProcessReplyMessageThreadPoolNums = 16 + p*2
	c.QueryMessageThreadPoolNums = 8 + p
	c.AdminBrokerThreadPoolNums = 16
	c.ClientManageThreadPoolNums = 32
	c.ConsumerManageThreadPoolNums = 32
	c.HeartbeatThreadPoolNums = min(32, p)
	c.EndTransactionThreadPoolNums = max(8+p*2, c.SendMessageThreadPoolNums*4)
}
