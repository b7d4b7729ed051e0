package rawclient

import (
	"encoding/json"
	"fmt"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// UnmarshalFastJSON decodes a fastjson body (non-string map keys written
// unquoted, e.g. {"brokerAddrs":{0:"127.0.0.1:10911"}}) into v: the
// project's fastjson reader parses it, its standard mode rewrites it as
// plain JSON, and encoding/json fills v.
func UnmarshalFastJSON(data []byte, v any) error {
	std, err := StandardJSON(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(std, v)
}

// StandardJSON rewrites a fastjson body as standard JSON (keys quoted).
func StandardJSON(data []byte) ([]byte, error) {
	parsed, err := fastjson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("rawclient: fastjson body: %w", err)
	}
	w := fastjson.NewWriter(fastjson.Standard)
	w.Value(parsed)
	if err := w.Err(); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// ClusterInfo is the body of GET_BROKER_CLUSTER_INFO (106).
type ClusterInfo struct {
	BrokerAddrTable  map[string]BrokerData `json:"brokerAddrTable"`
	ClusterAddrTable map[string][]string   `json:"clusterAddrTable"`
}

// BrokerData is one broker group of a route or cluster info.
type BrokerData struct {
	Cluster     string            `json:"cluster"`
	BrokerName  string            `json:"brokerName"`
	BrokerAddrs map[string]string `json:"brokerAddrs"`
}

// QueueData is one broker's queues of a topic route.
type QueueData struct {
	BrokerName     string `json:"brokerName"`
	ReadQueueNums  int    `json:"readQueueNums"`
	WriteQueueNums int    `json:"writeQueueNums"`
	Perm           int    `json:"perm"`
	TopicSysFlag   int    `json:"topicSysFlag"`
}

// TopicRouteData is the body of GET_ROUTEINFO_BY_TOPIC (105).
type TopicRouteData struct {
	OrderTopicConf    string              `json:"orderTopicConf,omitempty"`
	QueueDatas        []QueueData         `json:"queueDatas"`
	BrokerDatas       []BrokerData        `json:"brokerDatas"`
	FilterServerTable map[string][]string `json:"filterServerTable"`
}
