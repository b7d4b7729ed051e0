package broker

// ACL administration: UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG,
// UPDATE_GLOBAL_WHITE_ADDRS_CONFIG and GET_BROKER_CLUSTER_ACL_INFO, as
// Java 4.9.8's AdminBrokerProcessor serves them through its
// PlainAccessValidator (broker/acl edits and reloads the yml files).
//
// Without aclEnable Java has no validator: the three updates fail with
// their failure codes (its remark is a NullPointerException's message;
// ours says why), and GET_BROKER_CLUSTER_ACL_INFO gets no answer at all,
// so the client times out; Sputnik answers REQUEST_CODE_NOT_SUPPORTED at
// once. GET_BROKER_CLUSTER_ACL_CONFIG is not served by 4.9.8 either way.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/sputnikmq/sputnik/broker/acl"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// aclDisabledRemark is the remark of the failures without aclEnable.
const aclDisabledRemark = "ACL is not enabled on this broker (aclEnable=false)"

type aclAdmin struct {
	m           *acl.Manager // nil without aclEnable
	brokerName  string
	clusterName string
	brokerAddr  func() string
	mu          sync.Mutex // Java's handlers are synchronized
}

func (a *aclAdmin) register(t handlerTable) {
	if a.m == nil {
		t.Add(protocol.ReqUpdateAndCreateAclConfig, aclRefusal[protocol.CreateAccessConfigRequestHeader](protocol.RespUpdateAndCreateAclConfigFailed))
		t.Add(protocol.ReqDeleteAclConfig, aclRefusal[protocol.DeleteAccessConfigRequestHeader](protocol.RespDeleteAclConfigFailed))
		t.Add(protocol.ReqUpdateGlobalWhiteAddrsConfig, aclRefusal[protocol.UpdateGlobalWhiteAddrsConfigRequestHeader](protocol.RespUpdateGlobalWhiteAddrsConfigFailed))
		return
	}
	t.Add(protocol.ReqUpdateAndCreateAclConfig, a.updateAccount)
	t.Add(protocol.ReqDeleteAclConfig, a.deleteAccount)
	t.Add(protocol.ReqUpdateGlobalWhiteAddrsConfig, a.updateGlobalWhiteAddrs)
	t.Add(protocol.ReqGetBrokerClusterAclInfo, a.versionInfo)
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

// updateAccount is updateAndCreateAccessConfig: the perms lists are
// comma-separated (UtilAll.split).
func (a *aclAdmin) updateAccount(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var h protocol.CreateAccessConfigRequestHeader
	if err := h.DecodeFrom(req); err != nil {
		return nil, err
	}
	acc := acl.Account{AccessKey: h.AccessKey, SecretKey: h.SecretKey, WhiteRemoteAddress: h.WhiteRemoteAddress, Admin: h.Admin,
		DefaultTopicPerm: h.DefaultTopicPerm, DefaultGroupPerm: h.DefaultGroupPerm}
	if v, ok := req.ExtValue("topicPerms"); ok {
		acc.TopicPerms = javaSplit(v, ",")
	}
	if v, ok := req.ExtValue("groupPerms"); ok {
		acc.GroupPerms = javaSplit(v, ",")
	}
	a.mu.Lock()
	err := a.m.UpdateAccount(acc)
	a.mu.Unlock()
	return aclUpdateResponse(req, true, err, protocol.RespUpdateAndCreateAclConfigFailed,
		"The accesskey["+h.AccessKey+"] corresponding to accessConfig has been updated failed.")
}

// deleteAccount is deleteAccessConfig.
func (a *aclAdmin) deleteAccount(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var h protocol.DeleteAccessConfigRequestHeader
	if err := h.DecodeFrom(req); err != nil {
		return nil, err
	}
	a.mu.Lock()
	ok, err := a.m.DeleteAccount(h.AccessKey)
	a.mu.Unlock()
	return aclUpdateResponse(req, ok, err, protocol.RespDeleteAclConfigFailed,
		"The accesskey["+h.AccessKey+"] corresponding to accessConfig has been deleted failed.")
}

// updateGlobalWhiteAddrs is updateGlobalWhiteAddrsConfig.
func (a *aclAdmin) updateGlobalWhiteAddrs(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var h protocol.UpdateGlobalWhiteAddrsConfigRequestHeader
	if err := h.DecodeFrom(req); err != nil {
		return nil, err
	}
	a.mu.Lock()
	ok, err := a.m.UpdateGlobalWhiteAddrs(javaSplit(h.GlobalWhiteAddrs, ","), h.AclFileFullPath.Value)
	a.mu.Unlock()
	return aclUpdateResponse(req, ok, err, protocol.RespUpdateGlobalWhiteAddrsConfigFailed,
		"The globalWhiteAddresses["+h.GlobalWhiteAddrs+"] has been updated failed.")
}

// aclUpdateResponse answers an update: SUCCESS (no remark), or the
// failure code with the exception's message (err) or failRemark (!ok).
func aclUpdateResponse(req *wire.Command, ok bool, err error, failCode protocol.ResponseCode, failRemark string) (*wire.Command, error) {
	switch {
	case err != nil:
		return wire.NewResponse(req, int32(failCode), aclErrorMessage(err)), nil
	case !ok:
		return wire.NewResponse(req, int32(failCode), failRemark), nil
	}
	return wire.NewResponse(req, int32(protocol.RespSuccess), ""), nil
}

// aclErrorMessage is an update's failure remark: the AclException's
// message (Java answers e.getMessage()), else the error.
func aclErrorMessage(err error) string {
	var ae *acl.Error
	if errors.As(err, &ae) {
		return ae.Message()
	}
	return err.Error()
}

// versionInfo is getBrokerAclConfigVersion: the plain file's data
// version, every file's, and the broker's names.
func (a *aclAdmin) versionInfo(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	version, err := json.Marshal(a.m.DataVersion())
	if err != nil {
		return nil, fmt.Errorf("acl version: %w", err)
	}
	all, err := json.Marshal(a.m.DataVersions())
	if err != nil {
		return nil, fmt.Errorf("acl versions: %w", err)
	}
	resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
	(&protocol.GetBrokerAclConfigResponseHeader{Version: string(version), AllAclFileVersion: string(all),
		BrokerName: a.brokerName, BrokerAddr: a.brokerAddr(), ClusterName: a.clusterName}).EncodeTo(resp)
	return resp, nil
}
