package scenario

// The real mqadmin updateBrokerConfig against the broker under test: a
// value changed over the wire is live at once (getBrokerConfig), is
// persisted to the broker's -c file so that a restart keeps it, and
// brokerPermission re-registers the broker so the route shows the new
// permission. Java 4.9.8 mirror: AdminBrokerProcessor.updateBrokerConfig
// and org.apache.rocketmq.common.Configuration.update/persist. 4.9.8's
// refusal of black-listed keys (brokerConfigPath, rocketmqHome,
// configBlackList: NO_PERMISSION) is not part of it: the Java column's
// broker is 4.9.7's, which has no black list (conformance/java/pom.xml);
// broker/admin_config_test.go covers it.

import (
	"context"
	"fmt"
	"strconv"
)

func init() {
	Register(&Scenario{
		Name: "broker/mqadmin/updateBrokerConfig",
		Doc: "mqadmin updateBrokerConfig changes a value getBrokerConfig shows at once and after a restart (persisted to " +
			"the -c file); brokerPermission=4 re-registers the broker, read-only in the route, and 6 makes it writable again",
		Tags:    tags("mqadmin", "lifecycle"),
		Timeout: brokerScenarioLimit,
		Run:     mqadminUpdateBrokerConfig,
	})
}

// brokerConfigValue reads key from the real mqadmin getBrokerConfig.
func brokerConfigValue(ctx context.Context, env *Env, key string) (string, error) {
	out, err := mqadminOK(ctx, env, "getBrokerConfig", "-n", env.Namesrv, "-b", env.Brokers[0].Addr)
	if err != nil {
		return "", err
	}
	for _, m := range adminConfigLine.FindAllStringSubmatch(out, -1) {
		if m[1] == key {
			return m[2], nil
		}
	}
	return "", fmt.Errorf("getBrokerConfig has no %s:\n%s", key, firstLines(out, 6))
}

// updateBrokerConfig sets key to value with the real mqadmin and checks
// getBrokerConfig shows it.
func updateBrokerConfig(ctx context.Context, env *Env, key, value string) error {
	out, err := mqadminOK(ctx, env, "updateBrokerConfig", "-n", env.Namesrv, "-b", env.Brokers[0].Addr, "-k", key, "-v", value)
	if err != nil {
		return err
	}
	env.Observe("updateBrokerConfig "+key+"="+value, maskAdmin(env, out))
	return checkBrokerConfig(ctx, env, key, value, "after the update")
}

func checkBrokerConfig(ctx context.Context, env *Env, key, want, when string) error {
	got, err := brokerConfigValue(ctx, env, key)
	if err != nil {
		return fmt.Errorf("%s: %w", when, err)
	}
	if got != want {
		return fmt.Errorf("%s: getBrokerConfig %s=%s, want %s", when, key, got, want)
	}
	return nil
}

func mqadminUpdateBrokerConfig(ctx context.Context, env *Env) error {
	const topic = "ConfUpdateBrokerConfig"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	// A key with no effect on the scenarios after this one, and a value
	// other than its default.
	const key = "flushIntervalCommitLog"
	orig, err := brokerConfigValue(ctx, env, key)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(orig)
	if err != nil {
		return fmt.Errorf("%s=%q: %w", key, orig, err)
	}
	changed := strconv.Itoa(n + 211)
	perm, err := brokerConfigValue(ctx, env, "brokerPermission")
	if err != nil {
		return err
	}
	// What the scenario changed and has not set back yet, set back if it
	// fails half-way: the scenarios after it share the broker.
	restore := map[string]string{key: orig, "brokerPermission": perm}
	defer func() {
		for k, v := range restore {
			_, _, _ = env.Java.MQAdmin(context.WithoutCancel(ctx), "updateBrokerConfig", "-n", env.Namesrv,
				"-b", env.Brokers[0].Addr, "-k", k, "-v", v)
		}
	}()
	if err := updateBrokerConfig(ctx, env, key, changed); err != nil {
		return err
	}

	// Persisted: the broker restarted on its -c file has the new value.
	if err := env.Nodes.StopBroker(0); err != nil {
		return err
	}
	if err := env.Nodes.StartBroker(ctx, 0); err != nil {
		return err
	}
	if err := waitRoute(ctx, env, topic, 1); err != nil {
		return err
	}
	if err := checkBrokerConfig(ctx, env, key, changed, "after a restart"); err != nil {
		return err
	}
	if err := updateBrokerConfig(ctx, env, key, orig); err != nil {
		return err
	}
	delete(restore, key)

	// brokerPermission re-registers at once: read-only in the route, then
	// writable again.
	if err := updateBrokerConfig(ctx, env, "brokerPermission", "4"); err != nil {
		return err
	}
	if err := awaitRoutePerm(ctx, env, topic, env.Brokers[0].Name, 4, routeVisibleTimeout); err != nil {
		return fmt.Errorf("brokerPermission=4: %w", err)
	}
	if err := updateBrokerConfig(ctx, env, "brokerPermission", perm); err != nil {
		return err
	}
	if err := awaitRoutePerm(ctx, env, topic, env.Brokers[0].Name, 6, routeVisibleTimeout); err != nil {
		return fmt.Errorf("brokerPermission=%s: %w", perm, err)
	}
	delete(restore, "brokerPermission")
	env.Observe("route permission", "4 after brokerPermission=4, 6 after brokerPermission=6")
	return nil
}
