package scenario

// Requests a name server must refuse or serves oddly, as raw frames: each
// @CFNotNull header field of the name server's requests left out in turn,
// and broker registrations whose body is missing its CRC or is not JSON.
// Codes are compared with Java's, and remarks where Java writes a message
// of its own. Java 4.9.8 mirror: DefaultRequestProcessor, RouteInfoManager,
// KVConfigManager. Left out on purpose: requests that would leave state
// behind for the scenarios after this one (a registration that succeeds,
// a key-value pair without a namespace or key, a configuration update).

import (
	"context"
	"strconv"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func init() {
	Register(&Scenario{
		Name: "namesrv/errors/bad-requests",
		Doc: "raw name-server requests without each required header field, key-value requests on a namespace nobody wrote, " +
			"registrations with a wrong CRC or a body that is not JSON, and brokers that do not exist get Java's response codes and remarks",
		Tags: []string{"namesrv", "raw"},
		Run:  namesrvBadRequests,
	})
}

func namesrvBadRequests(ctx context.Context, env *Env) error {
	conn, err := rawclient.Dial(ctx, env.Namesrv)
	if err != nil {
		return err
	}
	defer conn.Close()
	return observeAnswers(ctx, env, conn, append(namesrvOddRequests(), namesrvMissingFields()...))
}

// namesrvOddRequests are single requests with a body or a subject that
// does not exist.
func namesrvOddRequests() []badRequest {
	reg := func(crc int, body string) *wire.Command {
		r := rawclient.Request(int32(protocol.ReqRegisterBroker), "brokerName", "errBroker", "brokerAddr", "127.0.0.1:1",
			"clusterName", "errCluster", "haServerAddr", "127.0.0.1:2", "brokerId", "0", "compressed", "false", "bodyCrc32", strconv.Itoa(crc))
		r.Body = []byte(body)
		return r
	}
	req := func(code protocol.RequestCode, ext ...string) *wire.Command {
		return rawclient.Request(int32(code), ext...)
	}
	return []badRequest{
		{name: "register with a wrong CRC", req: reg(12345, `{"topicConfigSerializeWrapper":{}}`), remark: true},
		{name: "register a body that is not JSON", req: reg(0, "not json")},
		{name: "get a key of a namespace nobody wrote", req: req(protocol.ReqGetKvConfig, "namespace", "errNS", "key", "k"), remark: true},
		{name: "list a namespace nobody wrote", req: req(protocol.ReqGetKvlistByNamespace, "namespace", "errNS"), remark: true},
		{name: "delete a key of a namespace nobody wrote", req: req(protocol.ReqDeleteKvConfig, "namespace", "errNS", "key", "k"), remark: true},
		{name: "route of a missing topic", req: req(protocol.ReqGetRouteinfoByTopic, "topic", "errNoSuchTopic"), remark: true},
		{name: "wipe the write permission of a missing broker", req: req(protocol.ReqWipeWritePermOfBroker, "brokerName", "errNoBroker"), remark: true, ext: []string{"wipeTopicCount"}},
		{name: "add the write permission of a missing broker", req: req(protocol.ReqAddWritePermOfBroker, "brokerName", "errNoBroker"), remark: true, ext: []string{"addTopicCount"}},
		{name: "delete a missing topic", req: req(protocol.ReqDeleteTopicInNamesrv, "topic", "errNoSuchTopic"), remark: true},
		{name: "topics of a missing cluster", req: req(protocol.ReqGetTopicsByCluster, "cluster", "errNoCluster"), remark: true, body: true},
		{name: "unregister a broker that never registered", req: req(protocol.ReqUnregisterBroker, "brokerName", "errBroker",
			"brokerAddr", "127.0.0.1:1", "clusterName", "errCluster", "brokerId", "0"), remark: true},
	}
}

// namesrvMissingFields is each request without each of its @CFNotNull
// fields, in turn.
func namesrvMissingFields() []badRequest {
	bases := []fieldMatrix{
		{name: "GET_KV_CONFIG", code: protocol.ReqGetKvConfig, fields: []string{"namespace", "errNS", "key", "k"}, required: []string{"namespace", "key"}},
		{name: "DELETE_KV_CONFIG", code: protocol.ReqDeleteKvConfig, fields: []string{"namespace", "errNS", "key", "k"}, required: []string{"namespace", "key"}},
		{name: "GET_KVLIST_BY_NAMESPACE", code: protocol.ReqGetKvlistByNamespace, fields: []string{"namespace", "errNS"}, required: []string{"namespace"}},
		{name: "PUT_KV_CONFIG", code: protocol.ReqPutKvConfig, fields: []string{"namespace", "errNS", "key", "k2", "value", "v"}, required: []string{"value"}},
		{name: "GET_ROUTEINFO_BY_TOPIC", code: protocol.ReqGetRouteinfoByTopic, fields: []string{"topic", "errNoSuchTopic"}, required: []string{"topic"}},
		{name: "WIPE_WRITE_PERM_OF_BROKER", code: protocol.ReqWipeWritePermOfBroker, fields: []string{"brokerName", "errNoBroker"}, required: []string{"brokerName"}},
		{name: "ADD_WRITE_PERM_OF_BROKER", code: protocol.ReqAddWritePermOfBroker, fields: []string{"brokerName", "errNoBroker"}, required: []string{"brokerName"}},
		{name: "DELETE_TOPIC_IN_NAMESRV", code: protocol.ReqDeleteTopicInNamesrv, fields: []string{"topic", "errNoSuchTopic"}, required: []string{"topic"}},
		{name: "GET_TOPICS_BY_CLUSTER", code: protocol.ReqGetTopicsByCluster, fields: []string{"cluster", "errNoCluster"}, required: []string{"cluster"}},
		{name: "UNREGISTER_BROKER", code: protocol.ReqUnregisterBroker,
			fields:   []string{"brokerName", "errBroker", "brokerAddr", "127.0.0.1:1", "clusterName", "errCluster", "brokerId", "0"},
			required: []string{"brokerName", "brokerAddr", "clusterName", "brokerId"}},
		{name: "QUERY_DATA_VERSION", code: protocol.ReqQueryDataVersion, body: []byte(`{"counter":0,"timestamp":0}`),
			fields:   []string{"brokerName", "errBroker", "brokerAddr", "127.0.0.1:1", "clusterName", "errCluster", "brokerId", "0"},
			required: []string{"brokerName", "brokerAddr", "clusterName", "brokerId"}},
	}
	out := withoutEach(bases)
	// What a PUT_KV_CONFIG without a value left behind.
	out = append(out, badRequest{name: "GET_KV_CONFIG of the key put without a value",
		req: rawclient.Request(int32(protocol.ReqGetKvConfig), "namespace", "errNS", "key", "k2"), remark: true, ext: []string{"value"}})
	return out
}
