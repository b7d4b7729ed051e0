package rawclient

import (
	"encoding/json"
	"strings"
)

// NormalizeFastJSON turns fastjson output that encoding/json rejects into
// standard JSON: bare object keys (fastjson writes non-string map keys
// unquoted, e.g. {"brokerAddrs":{0:"127.0.0.1:10911"}}) get quoted, and
// single-quoted strings become double-quoted. Everything else, including the
// contents of strings, passes through.
func NormalizeFastJSON(in []byte) []byte {
	out := make([]byte, 0, len(in)+16)
	var stack []byte // open brackets
	expectKey := false
	for i := 0; i < len(in); i++ {
		ch := in[i]
		switch {
		case ch == '"' || ch == '\'':
			j := i + 1
			for j < len(in) && in[j] != ch {
				if in[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(in) {
				j = len(in) - 1
			}
			if ch == '\'' {
				out = append(out, '"')
				out = append(out, strings.ReplaceAll(string(in[i+1:j]), `"`, `\"`)...)
				out = append(out, '"')
			} else {
				out = append(out, in[i:j+1]...)
			}
			i = j
			expectKey = false
		case ch == '{' || ch == '[':
			stack = append(stack, ch)
			out = append(out, ch)
			expectKey = ch == '{'
		case ch == '}' || ch == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			out = append(out, ch)
			expectKey = false
		case ch == ',':
			out = append(out, ch)
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
		case expectKey && !isSpace(ch):
			j := i
			for j < len(in) && in[j] != ':' && !isSpace(in[j]) && in[j] != '}' && in[j] != ',' {
				j++
			}
			out = append(out, '"')
			out = append(out, in[i:j]...)
			out = append(out, '"')
			i = j - 1
			expectKey = false
		default:
			out = append(out, ch)
		}
	}
	return out
}

func isSpace(ch byte) bool { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' }

// UnmarshalFastJSON normalizes data and decodes it into v.
func UnmarshalFastJSON(data []byte, v any) error {
	return json.Unmarshal(NormalizeFastJSON(data), v)
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
