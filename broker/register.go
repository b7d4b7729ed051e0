package broker

// Registration with the name servers:
//
//	REGISTER_BROKER (103)    at start and every registerNameServerPeriod
//	UNREGISTER_BROKER (104)  at shutdown
//
// Java 4.9.8 mirror: BrokerController.registerBrokerAll /
// doRegisterBrokerAll / unregisterBrokerAll and
// BrokerOuterAPI.registerBrokerAll / unregisterBrokerAll, with
// RegisterBrokerBody.encode(false).

import (
	"compress/zlib"
	"context"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/protocol/registerbody"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// registrar registers the broker with every name server.
type registrar struct {
	client  *remoting.Client
	topics  *topics.Manager
	log     *logrus.Entry
	timeout time.Duration // registerBrokerTimeoutMills

	namesrv    func() []string // namesrvAddr split on ';'
	permission func() int32    // brokerPermission
	header     protocol.RegisterBrokerRequestHeader
	// onResult applies a name server's answer (order topic config, master
	// and HA addresses).
	onResult func(resp *wire.Command)
	// force is forceRegister: false makes the periodic registration ask
	// the name servers first whether they have the topic table's version.
	force func() bool
}

// splitNamesrv splits namesrvAddr as Java does (";"-separated, blanks
// dropped).
func splitNamesrv(addr string) []string {
	var out []string
	for _, a := range strings.Split(addr, ";") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// registerAll sends REGISTER_BROKER to every name server in parallel and
// waits for all (Java registerBrokerAll with a CountDownLatch).
func (r *registrar) registerAll(ctx context.Context) {
	body := r.body()
	var wg sync.WaitGroup
	for _, addr := range r.namesrv() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.registerOne(ctx, addr, body)
		}()
	}
	wg.Wait()
}

func (r *registrar) registerOne(ctx context.Context, addr string, body []byte) {
	req := wire.NewRequest(int32(protocol.ReqRegisterBroker))
	hdr := r.header
	hdr.BodyCrc32 = message.BodyCRC(body) // UtilAll.crc32: CRC-32 & 0x7FFFFFFF
	hdr.EncodeTo(req)
	req.Body = body
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.client.InvokeSync(ctx, addr, req)
	if err != nil {
		r.log.WithError(err).WithField("namesrv", addr).Warn("register broker to name server failed")
		return
	}
	defer resp.Release()
	if resp.Code != int32(protocol.RespSuccess) {
		r.log.WithField("namesrv", addr).WithField("code", resp.Code).Warn("register broker refused: " + resp.Remark)
		return
	}
	if r.onResult != nil {
		r.onResult(resp)
	}
}

// body is RegisterBrokerBody.encode(compressedRegister) of the whole
// topic table.
func (r *registrar) body() []byte { return r.bodyOf(r.topics.Wrapper()) }

// bodyOf is RegisterBrokerBody.encode(false): the wrapper (with every
// topic's perm replaced by brokerPermission when the broker is not both
// readable and writeable) and an empty filter server list.
func (r *registrar) bodyOf(wrapper topics.Wrapper) []byte {
	perm := r.permission()
	if topics.IsReadable(perm) && topics.IsWriteable(perm) {
		perm = -1
	}
	if r.header.Compressed {
		return compressedBody(wrapper, perm)
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("filterServerList")
	w.BeginArray()
	w.EndArray()
	w.Key("topicConfigSerializeWrapper")
	writeWrapper(w, wrapper, perm)
	w.EndObject()
	return w.Bytes()
}

// registerTopic registers one changed topic (registerIncrementBrokerData).
func (r *registrar) registerTopic(ctx context.Context, tc config.TopicConfig) {
	body := r.bodyOf(topics.Wrapper{DataVersion: r.topics.DataVersion(), Topics: []config.TopicConfig{tc}})
	var wg sync.WaitGroup
	for _, addr := range r.namesrv() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.registerOne(ctx, addr, body)
		}()
	}
	wg.Wait()
}

// unregisterAll sends UNREGISTER_BROKER to every name server.
func (r *registrar) unregisterAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, addr := range r.namesrv() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := wire.NewRequest(int32(protocol.ReqUnregisterBroker))
			(&protocol.UnRegisterBrokerRequestHeader{
				BrokerName: protocol.Some(r.header.BrokerName), BrokerAddr: protocol.Some(r.header.BrokerAddr),
				ClusterName: protocol.Some(r.header.ClusterName), BrokerId: r.header.BrokerId,
			}).EncodeTo(req)
			ctx, cancel := context.WithTimeout(ctx, r.timeout)
			defer cancel()
			resp, err := r.client.InvokeSync(ctx, addr, req)
			if err != nil {
				r.log.WithError(err).WithField("namesrv", addr).Warn("unregister broker failed")
				return
			}
			resp.Release()
		}()
	}
	wg.Wait()
}

// run re-registers every period until stop (Java's scheduled
// registerBrokerAll, first after 10 s).
func (r *registrar) run(stop <-chan struct{}, period time.Duration) {
	first := time.NewTimer(10 * time.Second)
	defer first.Stop()
	select {
	case <-stop:
		return
	case <-first.C:
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		if r.force == nil || r.force() || r.needRegister(context.Background()) {
			r.registerAll(context.Background())
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// needRegister is BrokerController.needRegister: QUERY_DATA_VERSION with
// the topic table's version to every name server in parallel; a
// registration is needed when one answers that its version differs (or
// cannot be asked). A name server that answers with another code needs
// none.
func (r *registrar) needRegister(ctx context.Context) bool {
	version := r.topics.DataVersion()
	var mu sync.Mutex
	need := false
	var wg sync.WaitGroup
	for _, addr := range r.namesrv() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r.versionChanged(ctx, addr, version) {
				mu.Lock()
				need = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return need
}

// versionChanged asks one name server (BrokerOuterAPI.needRegister).
func (r *registrar) versionChanged(ctx context.Context, addr string, version config.DataVersion) bool {
	req := wire.NewRequest(int32(protocol.ReqQueryDataVersion))
	(&protocol.QueryDataVersionRequestHeader{BrokerName: protocol.Some(r.header.BrokerName), BrokerAddr: protocol.Some(r.header.BrokerAddr),
		ClusterName: protocol.Some(r.header.ClusterName), BrokerId: protocol.Some(r.header.BrokerId)}).EncodeTo(req)
	w := fastjson.NewWriter(fastjson.Compact)
	version.WriteJSON(w)
	req.Body = w.Bytes()
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.client.InvokeSync(ctx, addr, req)
	if err != nil {
		r.log.WithError(err).WithField("namesrv", addr).Error("query data version from name server failed")
		return true
	}
	defer resp.Release()
	if resp.Code != int32(protocol.RespSuccess) {
		return false
	}
	var rh protocol.QueryDataVersionResponseHeader
	changed := rh.DecodeFrom(resp) != nil || rh.Changed // Java: a null changed counts as changed
	if len(resp.Body) > 0 {
		if theirs, err := config.DecodeDataVersion(resp.Body, config.DataVersion{}); err != nil || theirs != version {
			changed = true
		}
	}
	r.log.WithFields(logrus.Fields{"namesrv": addr, "changed": changed}).Info("query data version from name server OK")
	return changed
}

// orderTopicsOf reads a registration answer's body, the name server's
// ORDER_TOPIC_CONFIG namespace as a KVTable ({"table":{topic: conf}}); nil
// when there is none (Java then leaves the order flags alone).
func orderTopicsOf(body []byte) map[string]string {
	if len(body) == 0 {
		return nil
	}
	v, err := fastjson.Parse(body)
	if err != nil {
		return nil
	}
	table := v.Get("table")
	if table.IsNull() {
		return nil
	}
	out := map[string]string{}
	for k, val := range table.Members() {
		s, err := val.AsString()
		if err == nil {
			out[k.Text()] = s
		}
	}
	return out
}

// compressedBody is RegisterBrokerBody.encode(true) (compressedRegister),
// in remoting/protocol/registerbody's layout at Deflater.BEST_COMPRESSION.
func compressedBody(wr topics.Wrapper, perm int32) []byte {
	w := fastjson.NewWriter(fastjson.Compact)
	wr.DataVersion.WriteJSON(w)
	p := registerbody.Parts{DataVersion: w.Bytes(), FilterServers: []byte("[]")}
	for _, tc := range wr.Topics {
		if perm >= 0 {
			tc.Perm = perm
		}
		p.Topics = append(p.Topics, registerbody.AppendTopicText(nil, tc.TopicName, tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm, tc.TopicFilterType.String()))
	}
	body, _ := p.Append(nil, zlib.BestCompression) // a valid level, writes to memory
	return body
}
