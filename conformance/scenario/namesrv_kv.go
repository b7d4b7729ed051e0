package scenario

// Name server: KV config (PUT_KV_CONFIG 100, GET_KV_CONFIG 101,
// DELETE_KV_CONFIG 102, GET_KVLIST_BY_NAMESPACE 219) through
// DefaultMQAdminExt, mqadmin updateKvConfig/deleteKvConfig and raw frames.
// Java 4.9.8 mirror: DefaultRequestProcessor.{put,get,delete}KVConfig,
// getKVListByNamespace; KVConfigManager.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

func init() {
	Register(
		&Scenario{
			Name: "namesrv/kv/java-admin",
			Doc:  "DefaultMQAdminExt createAndUpdateKvConfig/getKVConfig/getKVListByNamespace/deleteKvConfig; missing key is code 22",
			Tags: []string{"quick", "namesrv", "javaclient"},
			Run:  kvJavaAdmin,
		},
		&Scenario{
			Name: "namesrv/kv/mqadmin",
			Doc:  "mqadmin updateKvConfig and deleteKvConfig print their success lines and take effect",
			Tags: []string{"namesrv", "mqadmin"},
			Run:  kvMQAdmin,
		},
		&Scenario{
			Name: "namesrv/kv/raw",
			Doc:  "raw PUT/GET/DELETE_KV_CONFIG and GET_KVLIST_BY_NAMESPACE: value in the response header, Java's QUERY_NOT_FOUND remarks",
			Tags: []string{"namesrv", "raw"},
			Run:  kvRaw,
		},
		&Scenario{
			Name:    "namesrv/kv/persist-restart",
			Doc:     "KV config survives a kill -9 of the name server (kvConfigPath); brokers register again within their 30 s period",
			Tags:    []string{"namesrv", "lifecycle"},
			Timeout: 2 * time.Minute,
			Run:     kvPersistRestart,
		},
	)
}

func kvJavaAdmin(ctx context.Context, env *Env) error {
	const ns, key = "ConfNS", "k1"
	if err := env.Java.Admin(ctx, env.Namesrv, "deleteKvConfig", nil, ns, key); err != nil {
		return fmt.Errorf("initial delete: %w", err)
	}
	for _, v := range []string{"v1", "v2 with spaces=and;separators"} {
		if err := env.Java.Admin(ctx, env.Namesrv, "createAndUpdateKvConfig", nil, ns, key, v); err != nil {
			return err
		}
		var got string
		if err := env.Java.Admin(ctx, env.Namesrv, "getKVConfig", &got, ns, key); err != nil {
			return err
		}
		if got != v {
			return fmt.Errorf("getKVConfig = %q, want %q", got, v)
		}
	}
	var table map[string]string
	if err := env.Java.Admin(ctx, env.Namesrv, "getKVListByNamespace", &table, ns); err != nil {
		return err
	}
	if len(table) != 1 || table[key] != "v2 with spaces=and;separators" {
		return fmt.Errorf("getKVListByNamespace = %v", table)
	}
	if err := env.Java.Admin(ctx, env.Namesrv, "deleteKvConfig", nil, ns, key); err != nil {
		return err
	}
	err := env.Java.Admin(ctx, env.Namesrv, "getKVConfig", nil, ns, key)
	if javaclient.CodeOf(err) != int(respQueryNotFound) {
		return fmt.Errorf("getKVConfig after delete: want code %d, got %v", respQueryNotFound, err)
	}
	if want := "No config item, Namespace: " + ns + " Key: " + key; !strings.Contains(err.Error(), want) {
		return fmt.Errorf("getKVConfig after delete: %v lacks %q", err, want)
	}
	// Java keeps the emptied namespace: its list is an empty table, not 22.
	table = nil
	if err := env.Java.Admin(ctx, env.Namesrv, "getKVListByNamespace", &table, ns); err != nil {
		return fmt.Errorf("getKVListByNamespace of an emptied namespace: %w", err)
	}
	if len(table) != 0 {
		return fmt.Errorf("getKVListByNamespace after delete = %v, want empty", table)
	}
	err = env.Java.Admin(ctx, env.Namesrv, "getKVListByNamespace", nil, "ConfNSNeverUsed")
	if javaclient.CodeOf(err) != int(respQueryNotFound) {
		return fmt.Errorf("getKVListByNamespace of an unknown namespace: want code %d, got %v", respQueryNotFound, err)
	}
	return nil
}

func kvMQAdmin(ctx context.Context, env *Env) error {
	const ns, key, val = "ConfNSAdmin", "color", "blue"
	out, err := mqadminOK(ctx, env, "updateKvConfig", "-n", env.Namesrv, "-s", ns, "-k", key, "-v", val)
	if err != nil {
		return err
	}
	if strings.TrimSpace(out) != "create or update kv config to namespace success." {
		return fmt.Errorf("updateKvConfig printed %q", out)
	}
	first := out
	var got string
	if err := env.Java.Admin(ctx, env.Namesrv, "getKVConfig", &got, ns, key); err != nil {
		return err
	}
	if got != val {
		return fmt.Errorf("after updateKvConfig getKVConfig = %q, want %q", got, val)
	}
	out, err = mqadminOK(ctx, env, "deleteKvConfig", "-n", env.Namesrv, "-s", ns, "-k", key)
	if err != nil {
		return err
	}
	if strings.TrimSpace(out) != "delete kv config from namespace success." {
		return fmt.Errorf("deleteKvConfig printed %q", out)
	}
	err = env.Java.Admin(ctx, env.Namesrv, "getKVConfig", nil, ns, key)
	if javaclient.CodeOf(err) != int(respQueryNotFound) {
		return fmt.Errorf("after deleteKvConfig: want code %d, got %v", respQueryNotFound, err)
	}
	env.Observe("mqadmin kv", env.Mask(first+out))
	return nil
}

func kvRaw(ctx context.Context, env *Env) error {
	const ns, key = "ConfNSRaw", "answer"
	resp, err := rawCall(ctx, env, rawclient.Request(codeDeleteKVConfig, "namespace", ns, "key", key))
	if err != nil {
		return err
	}
	if err := expectCode("DELETE_KV_CONFIG (absent key)", resp, respSuccess, ""); err != nil {
		return err
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codeGetKVConfig, "namespace", ns, "key", key))
	if err != nil {
		return err
	}
	if err := expectCode("GET_KV_CONFIG (absent)", resp, respQueryNotFound, "No config item, Namespace: "+ns+" Key: "+key); err != nil {
		return err
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codeGetKVListByNamespace, "namespace", ns))
	if err != nil {
		return err
	}
	if err := expectCode("GET_KVLIST_BY_NAMESPACE (absent)", resp, respQueryNotFound, "No config item, Namespace: "+ns); err != nil {
		return err
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codePutKVConfig, "namespace", ns, "key", key, "value", "42"))
	if err != nil {
		return err
	}
	if err := expectCode("PUT_KV_CONFIG", resp, respSuccess, ""); err != nil {
		return err
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codeGetKVConfig, "namespace", ns, "key", key))
	if err != nil {
		return err
	}
	if err := expectCode("GET_KV_CONFIG", resp, respSuccess, ""); err != nil {
		return err
	}
	if v, ok := resp.ExtValue("value"); !ok || v != "42" {
		return fmt.Errorf("GET_KV_CONFIG: value header %q (present %v), want 42", v, ok)
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codeGetKVListByNamespace, "namespace", ns))
	if err != nil {
		return err
	}
	if err := expectCode("GET_KVLIST_BY_NAMESPACE", resp, respSuccess, ""); err != nil {
		return err
	}
	env.Observe("kv list body", string(resp.Body))
	var kv struct {
		Table map[string]string `json:"table"`
	}
	if err := rawclient.UnmarshalFastJSON(resp.Body, &kv); err != nil || kv.Table[key] != "42" {
		return fmt.Errorf("GET_KVLIST_BY_NAMESPACE body %s (%v)", resp.Body, err)
	}
	// PUT without its required namespace: Java's header decoding lets the
	// null through and the processor answers SYSTEM_ERROR.
	resp, err = rawCall(ctx, env, rawclient.Request(codePutKVConfig, "key", key, "value", "x"))
	if err != nil {
		return err
	}
	if err := expectCode("PUT_KV_CONFIG without namespace", resp, 1, "namespace or key is null"); err != nil {
		return err
	}
	resp, err = rawCall(ctx, env, rawclient.Request(codeDeleteKVConfig, "namespace", ns, "key", key))
	if err != nil {
		return err
	}
	return expectCode("DELETE_KV_CONFIG", resp, respSuccess, "")
}

func kvPersistRestart(ctx context.Context, env *Env) error {
	const ns, key, val = "ConfNSPersist", "kept", "yes"
	if err := env.Java.Admin(ctx, env.Namesrv, "createAndUpdateKvConfig", nil, ns, key, val); err != nil {
		return err
	}
	if err := env.Nodes.KillNamesrv(); err != nil {
		return err
	}
	if err := env.Nodes.StartNamesrv(ctx); err != nil {
		return err
	}
	// The cached admin client's connection died with the name server.
	if err := env.Java.Reset(ctx); err != nil {
		return err
	}
	var got string
	if err := env.Java.Admin(ctx, env.Namesrv, "getKVConfig", &got, ns, key); err != nil {
		return fmt.Errorf("after restart: %w", err)
	}
	if got != val {
		return fmt.Errorf("after restart getKVConfig = %q, want %q", got, val)
	}
	if err := env.Java.Admin(ctx, env.Namesrv, "deleteKvConfig", nil, ns, key); err != nil {
		return err
	}
	// Leave the cluster whole: the brokers register again on their period.
	return Eventually(ctx, brokerReRegistrationPeriod, time.Second, func() error {
		var ci struct {
			BrokerAddrTable map[string]any `json:"brokerAddrTable"`
		}
		if err := env.Java.Admin(ctx, env.Namesrv, "examineBrokerClusterInfo", &ci); err != nil {
			return err
		}
		for _, b := range env.Brokers {
			if _, ok := ci.BrokerAddrTable[b.Name]; !ok {
				return fmt.Errorf("%s not registered again", b.Name)
			}
		}
		return nil
	})
}
