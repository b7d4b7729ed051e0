package broker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Java 4.9.8 without aclEnable: the ACL updates fail with their own codes
// (the conformance scenario broker/admin/acl-disabled checks Java), and a
// header missing a required field is a header error.
func TestACLAdminWithoutACL(t *testing.T) {
	h := handlers(aclAdmin{}.register)
	for _, c := range []struct {
		code protocol.RequestCode
		hdr  interface{ EncodeTo(*wire.Command) }
		want protocol.ResponseCode
	}{
		{protocol.ReqUpdateAndCreateAclConfig, &protocol.CreateAccessConfigRequestHeader{AccessKey: "k", SecretKey: "s12345678"}, protocol.RespUpdateAndCreateAclConfigFailed},
		{protocol.ReqDeleteAclConfig, &protocol.DeleteAccessConfigRequestHeader{AccessKey: "k"}, protocol.RespDeleteAclConfigFailed},
		{protocol.ReqUpdateGlobalWhiteAddrsConfig, &protocol.UpdateGlobalWhiteAddrsConfigRequestHeader{GlobalWhiteAddrs: "10.0.0.*"}, protocol.RespUpdateGlobalWhiteAddrsConfigFailed},
	} {
		resp := call(t, h[c.code], request(c.code, c.hdr))
		require.EqualValues(t, c.want, resp.Code, c.code)
		require.Equal(t, aclDisabledRemark, resp.Remark)
		require.Error(t, callErr(t, h[c.code], wire.NewRequest(int32(c.code))), "no header: %v", c.code)
	}
	_, served := h[protocol.ReqGetBrokerClusterAclInfo]
	require.False(t, served, "answered REQUEST_CODE_NOT_SUPPORTED, where Java's broker never answers")
}
