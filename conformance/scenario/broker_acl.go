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

	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

// The request and response codes of ACL administration (RequestCode,
// ResponseCode).
const (
	codeUpdateAndCreateACLConfig    = 50
	codeDeleteACLConfig             = 51
	codeUpdateGlobalWhiteAddrs      = 53
	respUpdateAndCreateACLFailed    = 209
	respDeleteACLFailed             = 210
	respUpdateGlobalWhiteAddrFailed = 211
)

func init() {
	Register(&Scenario{
		Name: "broker/admin/acl-disabled",
		Doc: "without aclEnable, UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG " +
			"fail with UPDATE_AND_CREATE_ACL_CONFIG_FAILED, DELETE_ACL_CONFIG_FAILED and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED",
		Tags:    tags("raw"),
		Timeout: brokerScenarioLimit,
		Run:     brokerACLDisabled,
	})
}

func brokerACLDisabled(ctx context.Context, env *Env) error {
	addr := env.Brokers[0].Addr
	for _, c := range []struct {
		name string
		req  int32
		ext  []string
		want int32
	}{
		{"UPDATE_AND_CREATE_ACL_CONFIG", codeUpdateAndCreateACLConfig,
			[]string{"accessKey", "conformanceKey", "secretKey", "conformanceSecret1", "admin", "false"}, respUpdateAndCreateACLFailed},
		{"DELETE_ACL_CONFIG", codeDeleteACLConfig, []string{"accessKey", "conformanceKey"}, respDeleteACLFailed},
		{"UPDATE_GLOBAL_WHITE_ADDRS_CONFIG", codeUpdateGlobalWhiteAddrs,
			[]string{"globalWhiteAddrs", "10.0.0.*", "aclFileFullPath", "/nonexistent/plain_acl.yml"}, respUpdateGlobalWhiteAddrFailed},
	} {
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
