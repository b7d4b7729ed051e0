package scenario

// ACL administration on a broker without ACL (aclEnable=false, the
// default). Java 4.9.8 mirror: AdminBrokerProcessor
// updateAndCreateAccessConfig, deleteAccessConfig and
// updateGlobalWhiteAddrsConfig look up the PlainAccessValidator, which
// BrokerController.initialAcl only registers with aclEnable, and answer
// the failure codes.

import (
	"context"
	"fmt"
	"regexp"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// The request and response codes of ACL administration.
const (
	codeUpdateAndCreateACLConfig    = int32(protocol.ReqUpdateAndCreateAclConfig)
	codeDeleteACLConfig             = int32(protocol.ReqDeleteAclConfig)
	codeUpdateGlobalWhiteAddrs      = int32(protocol.ReqUpdateGlobalWhiteAddrsConfig)
	respUpdateAndCreateACLFailed    = int32(protocol.RespUpdateAndCreateAclConfigFailed)
	respDeleteACLFailed             = int32(protocol.RespDeleteAclConfigFailed)
	respUpdateGlobalWhiteAddrFailed = int32(protocol.RespUpdateGlobalWhiteAddrsConfigFailed)
)

func init() {
	Register(&Scenario{
		Name: "broker/admin/acl-disabled",
		Doc: "without aclEnable, UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG " +
			"fail with UPDATE_AND_CREATE_ACL_CONFIG_FAILED, DELETE_ACL_CONFIG_FAILED and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED, " +
			"raw and through mqadmin updateAclConfig, deleteAclConfig and updateGlobalWhiteAddr",
		Tags:    tags("raw", "mqadmin"),
		Timeout: brokerScenarioLimit,
		Run:     brokerACLDisabled,
	})
}

func brokerACLDisabled(ctx context.Context, env *Env) error {
	addr := env.Brokers[0].Addr
	for _, c := range []struct {
		name  string
		req   int32
		ext   []string
		admin []string
		want  int32
	}{
		{"UPDATE_AND_CREATE_ACL_CONFIG", codeUpdateAndCreateACLConfig,
			[]string{"accessKey", "conformanceKey", "secretKey", "conformanceSecret1", "admin", "false"},
			[]string{"updateAclConfig", "-b", addr, "-a", "conformanceKey", "-s", "conformanceSecret1"}, respUpdateAndCreateACLFailed},
		{"DELETE_ACL_CONFIG", codeDeleteACLConfig, []string{"accessKey", "conformanceKey"},
			[]string{"deleteAclConfig", "-b", addr, "-a", "conformanceKey"}, respDeleteACLFailed},
		{"UPDATE_GLOBAL_WHITE_ADDRS_CONFIG", codeUpdateGlobalWhiteAddrs,
			[]string{"globalWhiteAddrs", "10.0.0.*", "aclFileFullPath", "/nonexistent/plain_acl.yml"},
			[]string{"updateGlobalWhiteAddr", "-b", addr, "-g", "10.0.0.*"}, respUpdateGlobalWhiteAddrFailed},
	} {
		if err := mqadminFailsWith(ctx, env, c.admin, c.want); err != nil {
			return err
		}
		resp, err := rawclient.Call(ctx, addr, rawclient.Request(c.req, c.ext...), defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if resp.Code != c.want {
			return fmt.Errorf("%s: code %d (remark %q), want %d", c.name, resp.Code, resp.Remark, c.want)
		}
		env.Log.Printf("%s: code %d, remark %q", c.name, resp.Code, resp.Remark)
		env.Observe(c.name, fmt.Sprint(resp.Code))
	}
	return nil
}

// adminCodeRE finds the response code in a failed mqadmin command's
// output (MQBrokerException: "CODE: 209  DESC: …").
var adminCodeRE = regexp.MustCompile(`CODE: (\d+)`)

// mqadminFailsWith runs an mqadmin command (with the scenario's name
// server) and requires it to report the broker's response code want.
func mqadminFailsWith(ctx context.Context, env *Env, args []string, want int32) error {
	out, errOut, err := env.Java.MQAdmin(ctx, append(args, "-n", env.Namesrv)...)
	if err != nil {
		return fmt.Errorf("mqadmin %s: %w", args[0], err)
	}
	m := adminCodeRE.FindStringSubmatch(out + errOut)
	if m == nil {
		return fmt.Errorf("mqadmin %s reported no response code:\n%s%s", args[0], out, errOut)
	}
	if m[1] != fmt.Sprint(want) {
		return fmt.Errorf("mqadmin %s: CODE %s, want %d:\n%s%s", args[0], m[1], want, out, errOut)
	}
	env.Observe("mqadmin "+args[0], m[0])
	return nil
}
