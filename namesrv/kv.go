package namesrv

// KV configuration:
//
//	PUT_KV_CONFIG (100)            set namespace/key
//	GET_KV_CONFIG (101)            read namespace/key
//	DELETE_KV_CONFIG (102)         remove namespace/key
//	GET_KVLIST_BY_NAMESPACE (219)  a namespace as a KVTable
//
// Java 4.9.8 mirror: DefaultRequestProcessor.putKVConfig, getKVConfig,
// deleteKVConfig, getKVListByNamespace; KVConfigManager.

import (
	"context"

	"github.com/sputnikmq/sputnik/namesrv/kvconfig"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// kvHandlers serves the KV codes. Persist failures are logged by the store
// and, as in Java, do not fail the request.
type kvHandlers struct {
	kv *kvconfig.Store
}

func (h *kvHandlers) register(t handlerTable) {
	t.Add(protocol.ReqPutKvConfig, h.put)
	t.Add(protocol.ReqGetKvConfig, h.get)
	t.Add(protocol.ReqDeleteKvConfig, h.delete)
	t.Add(protocol.ReqGetKvlistByNamespace, h.list)
}

func (h *kvHandlers) put(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	// Java checks namespace and key itself, with its own remark, and stores
	// a missing value as null.
	ns, okNS := req.ExtValue("namespace")
	key, okKey := req.ExtValue("key")
	if !okNS || !okKey {
		return wire.NewResponse(req, int32(protocol.RespSystemError), "namespace or key is null"), nil
	}
	var value *string
	if v, ok := req.ExtValue("value"); ok {
		value = &v
	}
	_ = h.kv.Put(ns, key, value)
	return success(req), nil
}

func (h *kvHandlers) get(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetKVConfigRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	// An absent (null) namespace or key is looked up in vain, as Java's
	// HashMap.get(null).
	v, ok := h.kv.Get(hdr.Namespace.Value, hdr.Key.Value)
	if !ok || !hdr.Namespace.Valid || !hdr.Key.Valid {
		return wire.NewResponse(req, int32(protocol.RespQueryNotFound),
			"No config item, Namespace: "+javaString(hdr.Namespace)+" Key: "+javaString(hdr.Key)), nil
	}
	resp := success(req)
	resp.AddExt("value", v) // GetKVConfigResponseHeader; "" is sent too
	return resp, nil
}

func (h *kvHandlers) delete(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.DeleteKVConfigRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	if hdr.Namespace.Valid && hdr.Key.Valid {
		_ = h.kv.Delete(hdr.Namespace.Value, hdr.Key.Value)
	}
	return success(req), nil
}

func (h *kvHandlers) list(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetKVListByNamespaceRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	body, ok := h.kv.KVTableJSON(hdr.Namespace.Value)
	if !ok || !hdr.Namespace.Valid {
		return wire.NewResponse(req, int32(protocol.RespQueryNotFound), "No config item, Namespace: "+javaString(hdr.Namespace)), nil
	}
	resp := success(req)
	resp.Body = body
	return resp, nil
}

// javaString is String.valueOf of a lenient field for string
// concatenation.
func javaString(s protocol.Opt[string]) string {
	if !s.Valid {
		return "null"
	}
	return s.Value
}
