package scenario

// Name server through the mqadmin command line (MQAdminStartup of 4.9.8
// tools): clusterList, topicRoute, topicList, getNamesrvConfig, updateTopic
// -c, wipeWritePerm/addWritePerm. mqadmin exits 0 on failure, so every check
// reads its output; outputs are recorded (masked) for the comparison with
// the Java run.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

func init() {
	Register(
		&Scenario{
			Name: "namesrv/mqadmin/clusterList",
			Doc:  "mqadmin clusterList prints one row per broker: cluster, name, BID 0, address, version V4_9_8",
			Tags: []string{"quick", "namesrv", "mqadmin"},
			Run:  mqadminClusterList,
		},
		&Scenario{
			Name: "namesrv/mqadmin/topicRoute",
			Doc:  "mqadmin topicRoute prints the route JSON (and the -l table) of a topic",
			Tags: []string{"namesrv", "mqadmin"},
			Run:  mqadminTopicRoute,
		},
		&Scenario{
			Name: "namesrv/mqadmin/topicList",
			Doc:  "mqadmin topicList lists the created topic and the broker's system topics; client-go FetchAllTopicList sees the same list",
			Tags: []string{"quick", "namesrv", "mqadmin", "goclient"},
			Run:  mqadminTopicList,
		},
		&Scenario{
			Name: "namesrv/mqadmin/getNamesrvConfig",
			Doc:  "mqadmin getNamesrvConfig prints the name server's configuration items, with listenPort and kvConfigPath from the properties file",
			Tags: []string{"quick", "namesrv", "mqadmin"},
			Run:  mqadminGetNamesrvConfig,
		},
		&Scenario{
			Name: "namesrv/mqadmin/updateTopic-cluster",
			Doc:  "mqadmin updateTopic -c finds the brokers through the route of the cluster-named topic and creates the topic on each",
			Tags: []string{"namesrv", "mqadmin"},
			Run:  mqadminUpdateTopicCluster,
		},
		&Scenario{
			Name: "namesrv/mqadmin/write-perm",
			Doc:  "mqadmin wipeWritePerm drops PERM_WRITE from the broker's queue data (perm 6 -> 4) and addWritePerm restores it, counting topics",
			Tags: []string{"quick", "namesrv", "mqadmin"},
			Run:  mqadminWritePerm,
		},
	)
}

func mqadminClusterList(ctx context.Context, env *Env) error {
	// clusterList also asks every broker for its runtime stats; a Java
	// broker answers SYSTEM_ERROR (NoSuchElementException in
	// StoreStatsService.getPutTps) until its first stats sample, a few
	// seconds after start, and mqadmin then prints the exception.
	var out string
	err := Eventually(ctx, 20*time.Second, time.Second, func() error {
		var err error
		out, err = mqadminOK(ctx, env, "clusterList", "-n", env.Namesrv)
		return err
	})
	if err != nil {
		return err
	}
	// One row per broker process: cluster, name, BID, address, version.
	var want []string
	for i, b := range env.Brokers {
		for id, addr := range wantBrokerAddrs(env, i) {
			want = append(want, strings.Join([]string{env.Cluster, b.Name, id, addr, "V4_9_8"}, " "))
		}
	}
	slices.Sort(want)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 1+len(want) {
		return fmt.Errorf("clusterList printed %d lines, want header + %d:\n%s", len(lines), len(want), out)
	}
	obs := []string{strings.TrimRight(lines[0], " ")}
	var got []string
	for _, l := range lines[1:] {
		// #Cluster Name #Broker Name #BID #Addr #Version #InTPS(LOAD) #OutTPS(LOAD) #PCWait(ms) #Hour #SPACE
		f := strings.Fields(l)
		if len(f) < 5 {
			return fmt.Errorf("clusterList row %q", l)
		}
		row := strings.Join(f[:5], " ")
		got = append(got, row)
		obs = append(obs, env.Mask(row))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return fmt.Errorf("clusterList rows %q, want %q", got, want)
	}
	env.Observe("clusterList", strings.Join(obs, "\n"))
	return nil
}

func mqadminTopicRoute(ctx context.Context, env *Env) error {
	const topic = "ConfTopicRoute"
	if err := createTopic(ctx, env, topic, 3, 6); err != nil {
		return err
	}
	out, err := mqadminOK(ctx, env, "topicRoute", "-n", env.Namesrv, "-t", topic)
	if err != nil {
		return err
	}
	var rd rawclient.TopicRouteData
	if err := rawclient.UnmarshalFastJSON([]byte(out), &rd); err != nil {
		return fmt.Errorf("topicRoute output is not a route: %v\n%s", err, out)
	}
	if len(rd.QueueDatas) != len(env.Brokers) || rd.QueueDatas[0].WriteQueueNums != 3 || rd.QueueDatas[0].Perm != 6 {
		return fmt.Errorf("topicRoute printed %s", out)
	}
	env.Observe("topicRoute", env.Mask(prettyJSON(rd)))
	out, err = mqadminOK(ctx, env, "topicRoute", "-n", env.Namesrv, "-t", topic, "-l")
	if err != nil {
		return err
	}
	if !strings.Contains(out, env.Brokers[0].Name) || !strings.Contains(out, "Total:") {
		return fmt.Errorf("topicRoute -l printed %q", out)
	}
	env.Observe("topicRoute -l", env.Mask(out))
	return nil
}

// brokerAgeTopics are system topics whose presence in a route or topic
// list depends on how long the broker has run, not on the name server.
var brokerAgeTopics = []string{"RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC"}

func mqadminTopicList(ctx context.Context, env *Env) error {
	const topic = "ConfTopicList"
	if err := createTopic(ctx, env, topic, 1, 6); err != nil {
		return err
	}
	out, err := mqadminOK(ctx, env, "topicList", "-n", env.Namesrv)
	if err != nil {
		return err
	}
	listed := sortedLines(out)
	want := []string{topic, env.Cluster, "TBW102"}
	for _, b := range env.Brokers {
		want = append(want, b.Name)
	}
	for _, w := range want {
		if !slices.Contains(listed, w) {
			return fmt.Errorf("topicList lacks %s: %v", w, listed)
		}
	}
	adm, err := goAdmin(env)
	if err != nil {
		return err
	}
	defer adm.Close()
	tl, err := adm.FetchAllTopicList(ctx)
	if err != nil {
		return fmt.Errorf("client-go FetchAllTopicList: %w", err)
	}
	goList := slices.Clone(tl.TopicList)
	slices.Sort(goList)
	if !slices.Equal(goList, listed) {
		return fmt.Errorf("client-go FetchAllTopicList %v, mqadmin topicList %v", goList, listed)
	}
	// Topics other scenarios created, and the retry topics of their
	// consumer groups, depend on what ran before: leave them out. So does
	// the transaction half topic: a Java broker creates and registers it
	// at its first transaction check, about a minute after it starts.
	var system []string
	for _, t := range listed {
		name := strings.TrimPrefix(strings.TrimPrefix(t, "%RETRY%"), "%DLQ%")
		if slices.Contains(brokerAgeTopics, t) {
			continue
		}
		if !strings.HasPrefix(name, "Conf") || t == env.Cluster {
			system = append(system, t)
		}
	}
	env.Observe("topics", strings.Join(system, "\n"))
	return nil
}

// adminConfigLine is one "key  =  value" line of getNamesrvConfig and
// getBrokerConfig (printf "%-50s=  %s": a key of 50 characters or more
// has no space before its "=").
var adminConfigLine = regexp.MustCompile(`(?m)^([^\s=]+)\s*=  (.*)$`)

func mqadminGetNamesrvConfig(ctx context.Context, env *Env) error {
	out, err := mqadminOK(ctx, env, "getNamesrvConfig", "-n", env.Namesrv)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if header := "============" + env.Namesrv + "============"; len(lines) == 0 || lines[0] != header {
		return fmt.Errorf("getNamesrvConfig: first line %q, want %q", firstLines(out, 1), header)
	}
	cfg := map[string]string{}
	for _, l := range lines[1:] {
		m := adminConfigLine.FindStringSubmatch(l)
		if m == nil {
			return fmt.Errorf("getNamesrvConfig: unexpected line %q", l)
		}
		cfg[m[1]] = m[2]
	}
	_, port, _ := strings.Cut(env.Namesrv, ":")
	checks := map[string]func(string) bool{
		"listenPort":         func(v string) bool { return v == port },
		"kvConfigPath":       func(v string) bool { return strings.HasSuffix(v, "/kvConfig.json") },
		"configStorePath":    func(v string) bool { return strings.HasSuffix(v, "/namesrv.properties") },
		"orderMessageEnable": func(v string) bool { return v == "false" },
		"serverWorkerThreads": func(v string) bool {
			n, err := strconv.Atoi(v)
			return err == nil && n > 0
		},
		"rocketmqHome": func(v string) bool { return v != "" },
	}
	for k, ok := range checks {
		v, present := cfg[k]
		if !present || !ok(v) {
			return fmt.Errorf("getNamesrvConfig: %s = %q (present %v)", k, v, present)
		}
	}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	env.Observe("config keys", strings.Join(keys, "\n"))
	return nil
}

func mqadminUpdateTopicCluster(ctx context.Context, env *Env) error {
	const topic = "ConfUpdateTopic"
	out, err := mqadminOK(ctx, env, "updateTopic", "-n", env.Namesrv, "-c", env.Cluster, "-t", topic, "-r", "2", "-w", "2")
	if err != nil {
		return err
	}
	for _, b := range env.Brokers {
		if want := "create topic to " + b.Addr + " success."; !strings.Contains(out, want) {
			return fmt.Errorf("updateTopic -c printed %q, lacks %q", out, want)
		}
	}
	if err := waitRoute(ctx, env, topic, len(env.Brokers)); err != nil {
		return err
	}
	rd, err := rawRoute(ctx, env, topic, javaVersion409)
	if err != nil {
		return err
	}
	for _, q := range rd.QueueDatas {
		if q.ReadQueueNums != 2 || q.WriteQueueNums != 2 || q.Perm != 6 {
			return fmt.Errorf("route after updateTopic: %+v", q)
		}
	}
	env.Observe("updateTopic", env.Mask(out))
	return nil
}

var permCountLine = regexp.MustCompile(`^(wipe|add) write perm of broker\[(.+)\] in name server\[(.+)\] OK, (\d+)$`)

func mqadminWritePerm(ctx context.Context, env *Env) error {
	const topic = "ConfWritePerm"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	broker := env.Brokers[0].Name
	restored := false
	defer func() {
		if !restored { // leave the cluster writable for the scenarios after
			env.Java.MQAdmin(context.WithoutCancel(ctx), "addWritePerm", "-n", env.Namesrv, "-b", broker)
		}
	}()
	// Java 4.9.8 RouteInfoManager.operateWritePermOfBroker counts the topics
	// with queue data of the broker: with one broker, every topic.
	var topics []string
	if err := env.Java.Admin(ctx, env.Namesrv, "fetchAllTopicList", &topics); err != nil {
		return err
	}
	onBroker, err := topicsOnBroker(ctx, env, topics, broker)
	if err != nil {
		return err
	}
	var obs []string
	for _, step := range []struct {
		cmd, verb string
		perm      int
	}{{"wipeWritePerm", "wipe", 4}, {"addWritePerm", "add", 6}} {
		out, err := mqadminOK(ctx, env, step.cmd, "-n", env.Namesrv, "-b", broker)
		if err != nil {
			return err
		}
		m := permCountLine.FindStringSubmatch(strings.TrimSpace(out))
		if m == nil || m[1] != step.verb || m[2] != broker || m[3] != env.Namesrv {
			return fmt.Errorf("%s printed %q", step.cmd, out)
		}
		n, _ := strconv.Atoi(m[4])
		if n < 1 || n != onBroker {
			return fmt.Errorf("%s counted %s topics, the name server routes %d of its %d topics to %s", step.cmd, m[4], onBroker, len(topics), broker)
		}
		// The count depends on what ran before; it was checked above.
		obs = append(obs, env.Mask(strings.Replace(strings.TrimSpace(out), "OK, "+m[4], "OK, <n>", 1)))
		if err := awaitRoutePerm(ctx, env, topic, broker, step.perm, 5*time.Second); err != nil {
			return fmt.Errorf("after %s: %w", step.cmd, err)
		}
	}
	restored = true
	env.Observe("write perm", strings.Join(obs, "\n"))
	return nil
}

// awaitRoutePerm waits until the route of topic gives broker's queue data
// permission perm.
func awaitRoutePerm(ctx context.Context, env *Env, topic, broker string, perm int, within time.Duration) error {
	return Eventually(ctx, within, 200*time.Millisecond, func() error {
		rd, err := rawRoute(ctx, env, topic, javaVersion409)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(rd.QueueDatas, func(q rawclient.QueueData) bool { return q.BrokerName == broker })
		switch {
		case i < 0:
			return fmt.Errorf("%s not in route of %s", broker, topic)
		case rd.QueueDatas[i].Perm != perm:
			return fmt.Errorf("perm of %s on %s is %d, want %d", topic, broker, rd.QueueDatas[i].Perm, perm)
		}
		return nil
	})
}

// topicsOnBroker counts the topics whose route has queue data of broker.
func topicsOnBroker(ctx context.Context, env *Env, topics []string, broker string) (int, error) {
	n := 0
	for _, t := range topics {
		rd, err := rawRoute(ctx, env, t, javaVersion409)
		if err != nil {
			return 0, fmt.Errorf("route of %s: %w", t, err)
		}
		if slices.ContainsFunc(rd.QueueDatas, func(q rawclient.QueueData) bool { return q.BrokerName == broker }) {
			n++
		}
	}
	return n, nil
}
