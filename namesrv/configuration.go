package namesrv

import (
	"slices"
	"strings"
	"sync"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/atomicfile"
	"github.com/sputnikmq/sputnik/compat/javaprops"
)

// configuration holds the live NamesrvConfig and NettyServerConfig and the
// "all configs" property table GET_NAMESRV_CONFIG shows and
// UPDATE_NAMESRV_CONFIG changes and persists.
//
// Java 4.9.8 mirror: org.apache.rocketmq.common.Configuration as
// NamesrvController sets it up: both config objects registered, then the
// -c file's properties (unknown keys included), the store path read from
// NamesrvConfig.configStorePath (the -c file when one was given).
//
// Java's Properties is backed by a ConcurrentHashMap (JDK 9 and later), so
// its text lists keys in that map's order; format reproduces it from the
// order in which keys were first added.
type configuration struct {
	log *logrus.Entry

	mu    sync.RWMutex
	cfg   Config                // Lock should be held
	netty NettyConfig           // Lock should be held
	all   *javaprops.Properties // keys in first-insertion order; Lock should be held

	persistMu sync.Mutex
}

func newConfiguration(cfg Config, netty NettyConfig, fileProps *javaprops.Properties, log *logrus.Entry) *configuration {
	c := &configuration{log: log, cfg: cfg, netty: netty, all: javaprops.New()}
	c.mergeObjectsLocked()
	if fileProps != nil {
		c.all.MergeJava(fileProps)
	}
	return c
}

// mergeObjectsLocked merges object2Properties of both config objects.
func (c *configuration) mergeObjectsLocked() {
	for _, obj := range []any{&c.cfg, &c.netty} {
		p, err := javaprops.ToProperties(obj)
		if err != nil {
			panic(err) // the structs' tags are fixed
		}
		c.all.MergeJava(p)
	}
}

func (c *configuration) orderMessageEnable() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cfg.OrderMessageEnable
}

// blackList is DefaultRequestProcessor's configBlackList: four keys always,
// plus NamesrvConfig.configBlackList split on ';'.
func (c *configuration) blackList() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	list := []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"}
	return append(list, javaSplit(c.cfg.ConfigBlackList, ";")...)
}

// javaSplit is String.split with a one-char literal separator: without a
// match the string itself, else trailing empty strings dropped.
func javaSplit(s, sep string) []string {
	if !strings.Contains(s, sep) {
		return []string{s}
	}
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// update is Configuration.update: only keys already present change the
// table, every key is applied to the config objects, then the table is
// persisted.
func (c *configuration) update(p *javaprops.Properties) {
	c.mu.Lock()
	for _, k := range p.JavaOrder() {
		if _, ok := c.all.Get(k); ok {
			v, _ := p.Get(k)
			c.all.Set(k, v)
		}
	}
	if _, err := javaprops.Bind(p, &c.cfg, &c.netty); err != nil {
		c.log.WithError(err).Warn("updateConfig: some values were not applied")
	}
	c.mu.Unlock()
	c.persist()
}

// format is getAllConfigsFormatString: the config objects merged in again,
// then properties2String.
func (c *configuration) format() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.formatLocked()
}

func (c *configuration) formatLocked() string {
	c.mergeObjectsLocked()
	return c.all.JavaString()
}

// persist writes the table to configStorePath; Java logs failures only.
func (c *configuration) persist() {
	c.persistMu.Lock()
	defer c.persistMu.Unlock()
	c.mu.Lock()
	content, path := c.formatLocked(), c.cfg.ConfigStorePath
	c.mu.Unlock()
	if err := atomicfile.Write(path, []byte(content)); err != nil {
		c.log.WithError(err).Error("persist string2File error, ")
	}
}

// inBlackList reports whether p names a key UPDATE_NAMESRV_CONFIG refuses.
func (c *configuration) inBlackList(p *javaprops.Properties) bool {
	return slices.ContainsFunc(c.blackList(), func(k string) bool {
		_, ok := p.Get(k)
		return ok
	})
}
