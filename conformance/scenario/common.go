package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Request codes and response codes the scenarios use, from the protocol
// table (remoting/protocol, checked against Java 4.9.8 RequestCode /
// ResponseCode).
const (
	codePutKVConfig            = int32(protocol.ReqPutKvConfig)
	codeGetKVConfig            = int32(protocol.ReqGetKvConfig)
	codeDeleteKVConfig         = int32(protocol.ReqDeleteKvConfig)
	codeGetRouteInfoByTopic    = int32(protocol.ReqGetRouteinfoByTopic)
	codeGetBrokerClusterInfo   = int32(protocol.ReqGetBrokerClusterInfo)
	codeGetKVListByNamespace   = int32(protocol.ReqGetKvlistByNamespace)
	respSuccess                = int32(protocol.RespSuccess)
	respTopicNotExist          = int32(protocol.RespTopicNotExist)
	respQueryNotFound          = int32(protocol.RespQueryNotFound)
	javaVersion409             = 409
	clientGoVersion            = 317 // client-go v2 sends version 317
	faqSuffix                  = "\nSee http://rocketmq.apache.org/docs/faq/ for further details."
	topicNotExistRemarkPrefix  = "No topic route info in name server for the topic: "
	defaultRawTimeout          = 5 * time.Second
	routeVisibleTimeout        = 20 * time.Second
	registrationExpiryTimeout  = 30 * time.Second
	brokerReRegistrationPeriod = 45 * time.Second // registerNameServerPeriod 30 s + slack
)

var goLogOnce sync.Once

// SetupGoClientLogging sends client-go's log to path at level "error".
// Call once before any scenario runs.
func SetupGoClientLogging(path string) {
	goLogOnce.Do(func() {
		rlog.SetLogLevel("error")
		if path != "" {
			rlog.SetOutputPath(path)
		}
	})
}

// goAdmin returns a fresh client-go admin client (no cached routes).
func goAdmin(env *Env) (admin.Admin, error) {
	return admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{env.Namesrv})))
}

// createTopic creates topic on every broker with the Java admin
// (DefaultMQAdminExt.createAndUpdateTopicConfig, what mqadmin updateTopic
// -b does) and waits until the name server routes it to all of them.
func createTopic(ctx context.Context, env *Env, topic string, queues, perm int) error {
	for _, b := range env.Brokers {
		q := strconv.Itoa(queues)
		if err := env.Java.Admin(ctx, env.Namesrv, "createTopicOnBroker", nil, b.Addr, topic, q, q, strconv.Itoa(perm)); err != nil {
			return fmt.Errorf("create topic %s on %s: %w", topic, b.Name, err)
		}
	}
	return waitRoute(ctx, env, topic, len(env.Brokers))
}

// observeQueueData records the queue data of topic's route (raw lookup)
// under name: each broker's queue counts, permission and system flag.
func observeQueueData(ctx context.Context, env *Env, name, topic string) error {
	route, err := rawRoute(ctx, env, topic, javaVersion409)
	if err != nil {
		return fmt.Errorf("route of %s: %w", topic, err)
	}
	lines := make([]string, 0, len(route.QueueDatas))
	for _, q := range route.QueueDatas {
		lines = append(lines, fmt.Sprintf("%s read %d write %d perm %d sysFlag %d", q.BrokerName, q.ReadQueueNums,
			q.WriteQueueNums, q.Perm, q.TopicSysFlag))
	}
	sort.Strings(lines)
	env.Observe(name, strings.Join(lines, "\n"))
	return nil
}

// waitRoute waits until a raw route lookup of topic lists n brokers.
func waitRoute(ctx context.Context, env *Env, topic string, n int) error {
	return Eventually(ctx, routeVisibleTimeout, 200*time.Millisecond, func() error {
		rd, err := rawRoute(ctx, env, topic, javaVersion409)
		if err != nil {
			return err
		}
		if len(rd.QueueDatas) != n || len(rd.BrokerDatas) != n {
			return fmt.Errorf("route of %s: %d queue datas, %d broker datas, want %d", topic, len(rd.QueueDatas), len(rd.BrokerDatas), n)
		}
		return nil
	})
}

// rawRoute asks the name server for topic's route with the given version.
func rawRoute(ctx context.Context, env *Env, topic string, version int32) (*rawclient.TopicRouteData, error) {
	req := rawclient.Request(codeGetRouteInfoByTopic, "topic", topic)
	req.Version = version
	resp, err := rawclient.Call(ctx, env.Namesrv, req, defaultRawTimeout)
	if err != nil {
		return nil, err
	}
	if resp.Code != respSuccess {
		return nil, &codeError{Code: resp.Code, Remark: resp.Remark}
	}
	var rd rawclient.TopicRouteData
	if err := rawclient.UnmarshalFastJSON(resp.Body, &rd); err != nil {
		return nil, fmt.Errorf("route body %q: %w", resp.Body, err)
	}
	return &rd, nil
}

// codeError is a non-success response seen through the raw client.
type codeError struct {
	Code   int32
	Remark string
}

func (e *codeError) Error() string { return fmt.Sprintf("response code %d: %q", e.Code, e.Remark) }

// rawCall sends one request to the name server.
func rawCall(ctx context.Context, env *Env, req *wire.Command) (*wire.Command, error) {
	return rawclient.Call(ctx, env.Namesrv, req, defaultRawTimeout)
}

// expectCode checks a response's code and, when remark is not "*", its
// remark.
func expectCode(what string, resp *wire.Command, code int32, remark string) error {
	if resp.Code != code {
		return fmt.Errorf("%s: code %d (remark %q), want %d", what, resp.Code, resp.Remark, code)
	}
	if remark != "*" && resp.Remark != remark {
		return fmt.Errorf("%s: remark %q, want %q", what, resp.Remark, remark)
	}
	return nil
}

// queuesString renders queues as "broker:id" sorted, for comparisons.
func queuesString[Q any](qs []Q, f func(Q) (string, string, int)) string {
	parts := make([]string, 0, len(qs))
	for _, q := range qs {
		topic, broker, id := f(q)
		parts = append(parts, fmt.Sprintf("%s@%s:%d", topic, broker, id))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// expectedQueues is "topic@broker:0 … topic@broker:n-1" for every broker.
func expectedQueues(env *Env, topic string, n int) string {
	var parts []string
	for _, b := range env.Brokers {
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf("%s@%s:%d", topic, b.Name, i))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// prettyJSON re-indents JSON with sorted keys, for observations.
func prettyJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sortedLines splits s into trimmed non-empty lines, sorted.
func sortedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// mqadminOK runs mqadmin and fails when its output shows a failure.
func mqadminOK(ctx context.Context, env *Env, args ...string) (string, error) {
	out, errOut, err := env.Java.MQAdmin(ctx, args...)
	if err != nil {
		return "", err
	}
	env.Log.Printf("mqadmin %s\n--- out\n%s--- err\n%s", strings.Join(args, " "), out, errOut)
	if javaclient.MQAdminFailed(out, errOut) {
		return out, fmt.Errorf("mqadmin %s failed: %s", args[0], firstLines(out+errOut, 4))
	}
	return out, nil
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// invokeOK sends req on conn and returns the answer, failing unless it is
// SUCCESS.
func invokeOK(ctx context.Context, conn *rawclient.Conn, req *wire.Command) (*wire.Command, error) {
	resp, err := conn.Invoke(ctx, req, defaultRawTimeout)
	if err != nil {
		return nil, err
	}
	if resp.Code != respSuccess {
		return nil, &codeError{Code: resp.Code, Remark: resp.Remark}
	}
	return resp, nil
}
