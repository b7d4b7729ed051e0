package broker

// Broker configuration over the wire (mqadmin getBrokerConfig,
// updateBrokerConfig):
//
//	GET_BROKER_CONFIG (26)     every config item as properties text, the
//	                           Configuration's DataVersion JSON in the
//	                           "version" header
//	UPDATE_BROKER_CONFIG (25)  apply a properties body (black-listed keys
//	                           refused), persist to brokerConfigPath
//
// Java 4.9.8 mirror: AdminBrokerProcessor.getBrokerConfig,
// updateBrokerConfig, initConfigBlackList / validateBlackListConfigExist
// and org.apache.rocketmq.common.Configuration as BrokerController builds
// it: BrokerConfig, NettyServerConfig, NettyClientConfig and
// MessageStoreConfig registered in that order, then the -c file's
// properties (unknown keys included), stored at
// BrokerPathConfigHelper.getBrokerConfigPath().
//
// Java's Properties is backed by a ConcurrentHashMap, so its text lists
// keys in that map's order; format reproduces it from the order in which
// keys were first added.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/compat/atomicfile"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
)

// brokerConfiguration is the broker's Configuration object: the live
// config structs and the "all configs" table.
type brokerConfiguration struct {
	log *logrus.Entry
	now func() time.Time

	mu      sync.Mutex
	cfg     *brokerconfig.Startup // the objects UPDATE_BROKER_CONFIG binds into; mu held
	all     *javaprops.Properties // keys in first-insertion order; mu held
	version config.DataVersion    // mu held

	persistMu sync.Mutex
}

// newBrokerConfiguration registers the four config objects and the -c
// file's properties, as BrokerController's constructor and BrokerStartup
// do.
func newBrokerConfiguration(cfg *brokerconfig.Startup, log *logrus.Entry, now func() time.Time) *brokerConfiguration {
	if now == nil {
		now = time.Now
	}
	c := &brokerConfiguration{log: log, now: now, cfg: cfg, all: javaprops.New(),
		version: config.NewDataVersion(now().UnixMilli())}
	c.mergeObjectsLocked()
	if cfg.FileProps != nil {
		c.all.MergeJava(cfg.FileProps)
	}
	return c
}

// mergeObjectsLocked merges object2Properties of the four objects.
func (c *brokerConfiguration) mergeObjectsLocked() {
	for _, obj := range []any{&c.cfg.Broker, &c.cfg.NettyServer, &c.cfg.NettyClient, &c.cfg.Store} {
		p, err := javaprops.ToProperties(obj)
		if err != nil {
			c.log.WithError(err).Warn("getAllConfigsInternal object2Properties failed")
			continue
		}
		c.all.MergeJava(p)
	}
}

// format is getAllConfigsFormatString: the objects merged in again, then
// properties2String ("key=value\n" per entry).
func (c *brokerConfiguration) format() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.formatLocked()
}

func (c *brokerConfiguration) formatLocked() string {
	c.mergeObjectsLocked()
	return c.all.JavaString()
}

// versionJSON is getDataVersionJson.
func (c *brokerConfiguration) versionJSON() string {
	c.mu.Lock()
	v := c.version
	c.mu.Unlock()
	w := fastjson.NewWriter(fastjson.Compact)
	v.WriteJSON(w)
	return string(w.Bytes())
}

// blackList is AdminBrokerProcessor.configBlackList: three keys always,
// plus BrokerConfig.configBlackList split on ';' (taken at start-up).
func blackList(configBlackList string) []string {
	return append([]string{"brokerConfigPath", "rocketmqHome", "configBlackList"}, javaSplit(configBlackList, ";")...)
}

// javaSplit is String.split with a one-char literal separator: trailing
// empty strings dropped ("" stays one empty string, ",," gives none).
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" && s != "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// update is Configuration.update: only keys already present change the
// table, every key is bound to the objects, the version moves on, then the
// table is persisted.
func (c *brokerConfiguration) update(p *javaprops.Properties) {
	c.mu.Lock()
	for _, k := range p.JavaOrder() {
		if _, ok := c.all.Get(k); ok {
			v, _ := p.Get(k)
			c.all.Set(k, v)
		}
	}
	if _, err := javaprops.Bind(p, &c.cfg.Broker, &c.cfg.NettyServer, &c.cfg.NettyClient, &c.cfg.Store); err != nil {
		c.log.WithError(err).Warn("updateBrokerConfig: some values were not applied")
	}
	c.version.Next(c.now().UnixMilli())
	c.mu.Unlock()
	c.persist()
}

// persist writes the table to brokerConfigPath; Java logs failures only.
func (c *brokerConfiguration) persist() {
	c.persistMu.Lock()
	defer c.persistMu.Unlock()
	c.mu.Lock()
	content, path := c.formatLocked(), c.cfg.BrokerConfigPath
	c.mu.Unlock()
	if err := atomicfile.Write(path, []byte(content)); err != nil {
		c.log.WithError(err).Error("persist string2File error, ")
	}
}

type configAdmin struct {
	conf      *brokerConfiguration
	blackList []string
	// permissionChanged runs after an update naming brokerPermission: the
	// topic table's version moves on and the broker registers again
	// (registerBrokerAll(false, false, true)).
	permissionChanged func()
	log               *logrus.Entry
	mu                sync.Mutex // Java's synchronized updateBrokerConfig
}

func (h *configAdmin) register(t handlerTable) {
	t.Add(protocol.ReqUpdateBrokerConfig, h.update)
	t.Add(protocol.ReqGetBrokerConfig, h.get)
}

func (h *configAdmin) get(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	resp := success(req)
	if s := h.conf.format(); s != "" {
		resp.Body = []byte(s)
	}
	(&protocol.GetBrokerConfigResponseHeader{Version: h.conf.versionJSON()}).EncodeTo(resp)
	return resp, nil
}

func (h *configAdmin) update(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log.WithField("remote", remoteOf(c)).Info("updateBrokerConfig called")
	if len(req.Body) == 0 { // Java: a frame without body has a null body
		return success(req), nil
	}
	p, err := javaprops.ParseBody(req.Body)
	if err != nil {
		h.log.WithError(err).Error("string2Properties error")
		return wire.NewResponse(req, int32(protocol.RespSystemError), "string2Properties error"), nil
	}
	if slices.ContainsFunc(h.blackList, func(k string) bool { _, ok := p.Get(k); return ok }) {
		return wire.NewResponse(req, int32(protocol.RespNoPermission), "Can not update config in black list."), nil
	}
	h.conf.update(p)
	if _, ok := p.Get("brokerPermission"); ok && h.permissionChanged != nil {
		h.permissionChanged()
	}
	return success(req), nil
}
