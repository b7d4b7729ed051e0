package broker

// ACL administration on a broker without ACL. Sputnik refuses
// aclEnable=true at start (ErrACLUnsupported), so every broker that runs
// is one without ACL, where Java 4.9.8's AdminBrokerProcessor finds no
// PlainAccessValidator and answers UPDATE_AND_CREATE_ACL_CONFIG,
// DELETE_ACL_CONFIG and UPDATE_GLOBAL_WHITE_ADDRS_CONFIG with their
// failure codes (its remark is the NullPointerException's message; ours
// says why). GET_BROKER_CLUSTER_ACL_INFO gets no answer at all from such
// a Java broker, so the client times out; Sputnik answers
// REQUEST_CODE_NOT_SUPPORTED at once.

import (
	"context"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// aclDisabledRemark is the remark of the failures.
const aclDisabledRemark = "ACL is not enabled on this broker (aclEnable=false)"

type aclAdmin struct{}

func (aclAdmin) register(t handlerTable) {
	t.Add(protocol.ReqUpdateAndCreateAclConfig, aclRefusal[protocol.CreateAccessConfigRequestHeader](protocol.RespUpdateAndCreateAclConfigFailed))
	t.Add(protocol.ReqDeleteAclConfig, aclRefusal[protocol.DeleteAccessConfigRequestHeader](protocol.RespDeleteAclConfigFailed))
	t.Add(protocol.ReqUpdateGlobalWhiteAddrsConfig, aclRefusal[protocol.UpdateGlobalWhiteAddrsConfigRequestHeader](protocol.RespUpdateGlobalWhiteAddrsConfigFailed))
}

// aclRefusal decodes the request's header H (a bad one is Java's
// RemotingCommandException) and answers code.
func aclRefusal[H any, P interface {
	*H
	DecodeFrom(*wire.Command) error
}](code protocol.ResponseCode) remoting.Handler {
	return func(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
		var hdr H
		if err := P(&hdr).DecodeFrom(req); err != nil {
			return nil, err
		}
		return wire.NewResponse(req, int32(code), aclDisabledRemark), nil
	}
}
