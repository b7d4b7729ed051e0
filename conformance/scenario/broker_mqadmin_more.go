package scenario

// More of the real mqadmin against the broker under test, the commands an
// operator runs day to day that the other mqadmin scenarios leave out:
// group and topic administration (updateSubGroup, getConsumerConfig,
// deleteSubGroup, updateTopicPerm, topicClusterList), reading messages
// (queryMsgByOffset, printMsgByQueue, printMsg, consumeMessage),
// sending (sendMessage), statistics (statsAll) and the 4.9.x exports
// (exportMetadata, exportConfigs). Each output is compared with Java's
// once message ids, times, addresses and rates are masked. Java 4.9.8
// mirror: tools/command/{consumer,topic,message,stats,export}.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func init() {
	Register(&Scenario{
		Name: "broker/mqadmin/dailyOps",
		Doc: "mqadmin updateSubGroup, getConsumerConfig, deleteSubGroup, updateTopicPerm, topicClusterList, queryMsgByOffset, " +
			"printMsgByQueue, printMsg, consumeMessage, statsAll, sendMessage, exportMetadata and exportConfigs against the " +
			"broker with a live Java producer and consumer, then queryMsgById, queryMsgByUniqueKey, checkMsgSendRT, " +
			"getBrokerConfig and deleteTopic, print what they print against Java's broker",
		Tags:    tags("mqadmin", "javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerDailyOps,
	})
}

var (
	// adminMsgIDRE is a message id: the 32 hex digits of an offset
	// message id (store host, port, commit-log offset) or of a client's
	// unique key.
	adminMsgIDRE = regexp.MustCompile(`\b[0-9A-F]{32,}\b`)
	// adminStoreFieldsRE are the fields of a printed message that differ
	// between two brokers storing the same messages: commit-log offsets
	// (the earlier scenarios wrote different amounts) and times; the
	// body's CRC is the same and stays.
	adminStoreFieldsRE = regexp.MustCompile(`\b(commitLogOffset|storeTimestamp|bornTimestamp)=\d+`)
	adminMillisRE      = regexp.MustCompile(`\b1\d{12}\b`)
	adminDailyTPSRE    = regexp.MustCompile(`\b\d+\.\d+\b`)
	admin24HourRE      = regexp.MustCompile(`(?m)(\s)\d+(\s+)\d+\s*$`)
)

func brokerDailyOps(ctx context.Context, env *Env) error {
	topic, permTopic := "BrokerMQAdmin_daily", "BrokerMQAdmin_daily_perm"
	pg, cg := "CONF_BROKER_ADMIN_PG_daily", "CONF_BROKER_ADMIN_CG_daily"
	subGroup := cg + "_SUB"
	for _, t := range []string{topic, permTopic} {
		if err := createTopic(ctx, env, t, 4, 6); err != nil {
			return err
		}
	}
	broker, addr := env.Brokers[0].Name, env.Brokers[0].Addr
	exportDir := filepath.Join(env.Dir, "export")
	ns := env.Namesrv
	cmds := [][]string{
		{"updateSubGroup", "-n", ns, "-b", addr, "-g", subGroup, "-r", "5", "-q", "2", "-s", "false", "-d", "true", "-i", "1", "-w", "1"},
		{"getConsumerConfig", "-n", ns, "-g", subGroup},
		{"deleteSubGroup", "-n", ns, "-b", addr, "-g", subGroup},
		{"updateTopicPerm", "-n", ns, "-b", addr, "-t", permTopic, "-p", "4"},
		{"topicClusterList", "-n", ns, "-t", topic},
		{"queryMsgByOffset", "-n", ns, "-t", topic, "-b", broker, "-i", "1", "-o", "0"},
		{"printMsgByQueue", "-n", ns, "-t", topic, "-a", broker, "-i", "1", "-p", "true", "-d", "true", "-f", "true"},
		{"printMsg", "-n", ns, "-t", topic, "-d", "true"},
		{"consumeMessage", "-n", ns, "-t", topic, "-b", broker, "-i", "2", "-o", "0", "-c", "1"},
		// Before sendMessage: the live consumer gets that message at once
		// but commits its offset only with its next timed persist.
		{"statsAll", "-n", ns, "-t", topic},
		{"sendMessage", "-n", ns, "-t", topic, "-p", "daily-sent", "-k", "daily-key", "-c", "DailyTag", "-b", broker, "-i", "3"},
		{"exportMetadata", "-n", ns, "-c", env.Cluster, "-f", exportDir},
		{"exportConfigs", "-n", ns, "-c", env.Cluster, "-f", exportDir},
	}
	outs, _, err := runMQAdminLive(ctx, env, mqadminLive{topic: topic, pg: pg, cg: cg, prefix: "daily"}, cmds)
	if err != nil {
		return err
	}
	for i, out := range outs {
		name := cmds[i][0]
		text := maskDaily(env, out, exportDir)
		switch name {
		case "statsAll":
			// The 24-hour columns are sums over the broker's stats samples,
			// taken every 10 s: 0 or the counts, on a Java broker too,
			// depending on whether a sample fell between the sends and
			// the command (broker/stats tests the sampling against Java).
			text = admin24HourRE.ReplaceAllString(linesWith(text, "#Topic", cg), "${1}<24h>${2}<24h>")
		case "exportMetadata":
			if text, err = exportedEntries(filepath.Join(exportDir, "metadata.json"), topic, permTopic, cg); err != nil {
				return err
			}
		case "exportConfigs":
			if text, err = exportedJSON(filepath.Join(exportDir, "configs.json")); err != nil {
				return err
			}
		}
		if strings.TrimSpace(text) == "" {
			return fmt.Errorf("mqadmin %s printed nothing", name)
		}
		env.Observe(name, text)
	}
	return dailyOpsByID(ctx, env, outs[slices.IndexFunc(cmds, func(c []string) bool { return c[0] == "queryMsgByOffset" })],
		topic, permTopic)
}

var (
	adminOffsetIDRE = regexp.MustCompile(`OffsetID:\s+([0-9A-F]{32,})`)
	adminUniqKeyRE  = regexp.MustCompile(`UNIQ_KEY=([0-9A-F]{32,})`)
	adminRTRE       = regexp.MustCompile(`(?m)^(\S+\s+)\d+(\s+\S+\s+)\d+$`)
)

// dailyOpsByID runs the commands that take the ids queryMsgByOffset
// printed (queryMsgById, queryMsgByUniqueKey), then checkMsgSendRT,
// getBrokerConfig (its keys) and deleteTopic. They run in a fresh JVM of
// their own (mqadminLive, sending and consuming 8 more messages): 4.9.8's
// queryMsgByUniqueKey keeps the admin client of its first run, shut down,
// for every later run in the same JVM, which then finds nothing.
func dailyOpsByID(ctx context.Context, env *Env, byOffset, topic, permTopic string) error {
	offsetID, uniq := adminOffsetIDRE.FindStringSubmatch(byOffset), adminUniqKeyRE.FindStringSubmatch(byOffset)
	if offsetID == nil || uniq == nil {
		return fmt.Errorf("queryMsgByOffset printed no OffsetID or UNIQ_KEY:\n%s", byOffset)
	}
	ns := env.Namesrv
	cmds := [][]string{
		{"queryMsgById", "-n", ns, "-i", offsetID[1]},
		{"queryMsgByUniqueKey", "-n", ns, "-t", topic, "-i", uniq[1]},
		{"checkMsgSendRT", "-n", ns, "-t", topic, "-a", "3", "-s", "128"},
		{"getBrokerConfig", "-n", ns, "-b", env.Brokers[0].Addr},
		{"deleteTopic", "-n", ns, "-c", env.Cluster, "-t", permTopic},
	}
	outs, _, err := runMQAdminLive(ctx, env, mqadminLive{topic: topic, pg: "CONF_BROKER_ADMIN_PG_daily2",
		cg: "CONF_BROKER_ADMIN_CG_daily2", prefix: "daily2"}, cmds)
	if err != nil {
		return err
	}
	for i, args := range cmds {
		out := outs[i]
		var text string
		switch args[0] {
		case "checkMsgSendRT": // queue ids (round robin from a random one) and round-trip times vary
			text = adminRTRE.ReplaceAllString(maskDaily(env, out, ""), "${1}<qid>${2}<rt>")
		case "getBrokerConfig": // values hold paths and ports: the keys, in Java's order
			var keys []string
			for _, m := range adminConfigLine.FindAllStringSubmatch(out, -1) {
				keys = append(keys, m[1])
			}
			text = strings.Join(keys, "\n")
		default:
			text = maskDaily(env, out, "")
		}
		if strings.TrimSpace(text) == "" {
			return fmt.Errorf("mqadmin %s printed nothing", args[0])
		}
		env.Observe(args[0], text)
	}
	return nil
}

// maskDaily is maskAdmin plus message ids, the store's own fields of a
// message, epoch-millisecond times, rates and the export directory.
func maskDaily(env *Env, s, exportDir string) string {
	if exportDir != "" {
		s = strings.ReplaceAll(s, exportDir, "<export>")
	}
	s = adminMsgIDRE.ReplaceAllString(s, "<msgId>")
	s = adminStoreFieldsRE.ReplaceAllString(s, "${1}=<n>")
	s = adminMillisRE.ReplaceAllString(s, "<millis>")
	s = maskAdmin(env, s)
	return adminDailyTPSRE.ReplaceAllString(s, "<rate>")
}

// exportedEntries reads an exportMetadata file and returns the entries of
// the scenario's topics and group (the broker holds other scenarios'
// too), as indented JSON with sorted keys.
func exportedEntries(path string, topics ...string) (string, error) {
	var doc struct {
		Topics map[string]json.RawMessage `json:"topicConfigTable"`
		Groups map[string]json.RawMessage `json:"subscriptionGroupTable"`
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("exportMetadata: %w", err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("exportMetadata %s: %w", path, err)
	}
	var b strings.Builder
	for _, name := range topics {
		for kind, table := range map[string]map[string]json.RawMessage{"topic": doc.Topics, "group": doc.Groups} {
			if e, ok := table[name]; ok {
				fmt.Fprintf(&b, "%s %s: %s\n", kind, name, sortedJSON(e))
			}
		}
	}
	return b.String(), nil
}

// exportedJSON reads an export file whole, keys sorted.
func exportedJSON(path string) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return sortedJSON(raw), nil
}

// sortedJSON re-encodes a JSON document with its object keys sorted (what
// encoding/json does for maps), or returns it as it is when it does not
// parse.
func sortedJSON(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	out, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return string(raw)
	}
	lines := strings.Split(string(out), "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "" }), "\n")
}
