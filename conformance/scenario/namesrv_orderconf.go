package scenario

// The name server's order configuration and live settings through the real
// mqadmin: updateOrderConf keeps a topic's order configuration in the
// ORDER_TOPIC_CONFIG key-value namespace, which routes carry only while the
// name server's orderMessageEnable is true (RouteInfoManager /
// DefaultRequestProcessor.getRouteInfoByTopic); updateNamesrvConfig turns
// it on and off at run time and persists the change to the properties file
// (Configuration.persist).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

func init() {
	Register(&Scenario{
		Name: "namesrv/mqadmin/orderConf",
		Doc: "mqadmin updateOrderConf put/get/delete keeps a topic's order configuration, routes carry it only while " +
			"updateNamesrvConfig has set orderMessageEnable=true, and the change reaches getNamesrvConfig and the properties file",
		Tags: []string{"namesrv", "mqadmin"},
		Run:  mqadminOrderConf,
	})
}

func mqadminOrderConf(ctx context.Context, env *Env) (err error) {
	const topic = "NsOrderConfTopic"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	conf := env.Brokers[0].Name + ":4"
	admin := func(args ...string) (string, error) {
		return mqadminOK(ctx, env, append([]string{args[0], "-n", env.Namesrv}, args[1:]...)...)
	}
	observeRoute := func(name string) error {
		rd, err := rawRoute(ctx, env, topic, javaVersion409)
		if err != nil {
			return err
		}
		env.Observe(name, fmt.Sprintf("orderTopicConf %q", rd.OrderTopicConf))
		return nil
	}
	if _, err := admin("updateNamesrvConfig", "-k", "orderMessageEnable", "-v", "true"); err != nil {
		return err
	}
	defer func() {
		// The cluster is shared: put the default back whatever happened.
		_, _, rerr := env.Java.MQAdmin(context.WithoutCancel(ctx), "updateNamesrvConfig", "-n", env.Namesrv,
			"-k", "orderMessageEnable", "-v", "false")
		err = errors.Join(err, rerr)
	}()
	if err := observeNamesrvSetting(ctx, env, "orderMessageEnable after turning it on"); err != nil {
		return err
	}
	if err := observeRoute("route before put"); err != nil {
		return err
	}
	for _, step := range [][]string{
		{"updateOrderConf", "-t", topic, "-v", conf, "-m", "put"},
		{"updateOrderConf", "-t", topic, "-m", "get"},
	} {
		out, err := admin(step...)
		if err != nil {
			return err
		}
		env.Observe(strings.Join(step, " "), strings.TrimSpace(out))
	}
	if err := observeRoute("route after put"); err != nil {
		return err
	}
	if _, err := admin("updateNamesrvConfig", "-k", "orderMessageEnable", "-v", "false"); err != nil {
		return err
	}
	if err := observeRoute("route with orderMessageEnable off"); err != nil {
		return err
	}
	out, err := admin("updateOrderConf", "-t", topic, "-m", "delete")
	if err != nil {
		return err
	}
	env.Observe("updateOrderConf delete", strings.TrimSpace(out))
	out, errOut, err := env.Java.MQAdmin(ctx, "updateOrderConf", "-n", env.Namesrv, "-t", topic, "-m", "get")
	if err != nil {
		return err
	}
	env.Log.Printf("updateOrderConf get after delete:\n%s%s", out, errOut)
	env.Observe("updateOrderConf get after delete", rootCause(out+errOut))
	return nil
}

// observeNamesrvSetting records orderMessageEnable as getNamesrvConfig
// prints it and as the properties file (configStorePath) holds it, with the
// file's keys.
func observeNamesrvSetting(ctx context.Context, env *Env, name string) error {
	out, err := mqadminOK(ctx, env, "getNamesrvConfig", "-n", env.Namesrv)
	if err != nil {
		return err
	}
	cfg := map[string]string{}
	for _, m := range adminConfigLine.FindAllStringSubmatch(out, -1) {
		cfg[m[1]] = m[2]
	}
	text, err := os.ReadFile(cfg["configStorePath"])
	if err != nil {
		return fmt.Errorf("the name server's properties file: %w", err)
	}
	file := map[string]string{}
	for _, l := range strings.Split(string(text), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok && !strings.HasPrefix(l, "#") {
			file[k] = v
		}
	}
	keys := make([]string, 0, len(file))
	for k := range file {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	env.Observe(name, fmt.Sprintf("getNamesrvConfig %s, file %s, file keys %s", cfg["orderMessageEnable"],
		file["orderMessageEnable"], strings.Join(keys, " ")))
	return nil
}

// rootCause is the last "Caused by" line of a Java stack trace, or its
// first line when it has none.
func rootCause(trace string) string {
	cause := firstLines(trace, 1)
	for _, l := range strings.Split(trace, "\n") {
		if strings.HasPrefix(l, "Caused by: ") {
			cause = strings.TrimSpace(l)
		}
	}
	return cause
}
