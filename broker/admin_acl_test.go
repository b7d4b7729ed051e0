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
	h := handlers((&aclAdmin{}).register)
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

// Java 4.9.8 with aclEnable: AdminBrokerProcessor's ACL updates edit the
// yml through PlainPermissionManager and the next request is checked
// against the new rules; a bad account fails with the AclException's
// message; GET_BROKER_CLUSTER_ACL_INFO answers the data versions.
func TestACLAdminWithACL(t *testing.T) {
	b, call := startACLBroker(t)
	admin := func(code protocol.RequestCode, hdr interface{ EncodeTo(*wire.Command) }) *wire.Command {
		req := wire.NewRequest(int32(code))
		hdr.EncodeTo(req)
		return call(signed(req, "rocketmq2", "12345678"))
	}
	resp := call(signed(sendV2("topicNew", 0, "m", ""), "RocketMQ", "12345678"))
	require.EqualValues(t, protocol.RespSystemError, resp.Code)

	resp = admin(protocol.ReqUpdateAndCreateAclConfig, &protocol.CreateAccessConfigRequestHeader{AccessKey: "RocketMQ", SecretKey: "12345678",
		DefaultTopicPerm: "DENY", DefaultGroupPerm: "SUB", TopicPerms: "topicA=PUB|SUB,topicNew=PUB"})
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	resp = call(signed(sendV2("topicNew", 0, "m", ""), "RocketMQ", "12345678"))
	require.NotEqual(t, int32(protocol.RespSystemError), resp.Code, resp.Remark)

	resp = admin(protocol.ReqUpdateAndCreateAclConfig, &protocol.CreateAccessConfigRequestHeader{AccessKey: "short", SecretKey: "12345678"})
	require.EqualValues(t, protocol.RespUpdateAndCreateAclConfigFailed, resp.Code)
	require.Equal(t, "The accessKey=short and secretKey=12345678 cannot be null and length should longer than 6", resp.Remark)

	resp = admin(protocol.ReqDeleteAclConfig, &protocol.DeleteAccessConfigRequestHeader{AccessKey: "RocketMQ"})
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	resp = call(signed(sendV2("topicA", 0, "m", ""), "RocketMQ", "12345678"))
	require.Contains(t, resp.Remark, "No acl config for RocketMQ")

	resp = admin(protocol.ReqUpdateGlobalWhiteAddrsConfig, &protocol.UpdateGlobalWhiteAddrsConfigRequestHeader{GlobalWhiteAddrs: "127.0.0.*,10.10.103.*"})
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	resp = call(sendV2("topicA", 0, "m", "")) // no credentials: the address is white now
	require.NotEqual(t, int32(protocol.RespSystemError), resp.Code, resp.Remark)

	resp = admin(protocol.ReqGetBrokerClusterAclInfo, noHeader{})
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	var h protocol.GetBrokerAclConfigResponseHeader
	require.NoError(t, h.DecodeFrom(resp))
	require.Equal(t, "broker-t", h.BrokerName)
	require.Equal(t, b.Addr(), h.BrokerAddr)
	require.Contains(t, h.Version, `"counter":3`) // three edits of the plain file
	require.Contains(t, h.AllAclFileVersion, "plain_acl.yml")
}

// noHeader is a request without header fields.
type noHeader struct{}

func (noHeader) EncodeTo(*wire.Command) {}
