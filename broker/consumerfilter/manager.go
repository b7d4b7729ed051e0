// Package consumerfilter is the broker's ConsumerFilterManager (Java 4.9.8
// org.apache.rocketmq.broker.filter): the compiled SQL92 filter of every
// consumer group and topic, fed by heartbeats, read by pulls, kept in
// consumerFilter.json.
package consumerfilter

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/store/config"
)

// Matcher is a compiled expression: whether a message with these
// properties is selected.
type Matcher interface {
	Match(props func(name string) (string, bool)) bool
}

// Compiler compiles an expression of a type (FilterFactory.get(type)
// .compile); an unknown type is an error.
type Compiler func(expressionType, expression string) (Matcher, error)

// Filter is what a pull needs of a group's filter on a topic.
type Filter struct {
	ClientVersion int64
	// Matcher is nil when the expression did not compile (a filter loaded
	// from the file): the pull then lets every message through, as Java's
	// ExpressionMessageFilter does without a compiled expression.
	Matcher Matcher
	// bornTime and bloom (nil unless valid for the manager's bloom
	// filter) are what MatchBitMap reads.
	bornTime int64
	bloom    *config.BloomFilterData
}

// MatchBitMap is the consume-queue check of an extension unit stored at
// storeTime with bitMap (ExpressionMessageFilter.isMatchedByConsumeQueue
// for SQL92): the unit passes unless the filter has a compiled expression
// and valid bloom data, the unit carries a bit map of the bloom filter's
// size (enableCalcFilterBitMap), was stored after the filter was born, and
// misses one of the filter's bloom positions. A pass is not a match: the
// commit-log check evaluates the expression.
func (f Filter) MatchBitMap(storeTime int64, bitMap []byte) bool {
	b := f.bloom
	if f.Matcher == nil || b == nil || storeTime <= f.bornTime || bitMap == nil || len(bitMap)*8 != int(b.BitNum) {
		return true
	}
	for _, p := range b.BitPos {
		if p < 0 || int(p/8) >= len(bitMap) || bitMap[p/8]&(1<<(p%8)) == 0 {
			return false
		}
	}
	return true
}

// Options configure a Manager.
type Options struct {
	Path      string // consumerFilter.json
	Bloom     Bloom
	Compile   Compiler
	CleanSpan time.Duration // filterDataCleanTimeSpan: how long dead filters are kept
	Now       func() time.Time
	Log       *logrus.Entry
}

// Manager is ConsumerFilterManager.
type Manager struct {
	opt       Options
	mu        sync.Mutex
	table     *config.ConsumerFilters
	compiled  map[key]Matcher
	persistMu sync.Mutex
}

type key struct{ topic, group string }

// New returns an empty manager.
func New(opt Options) *Manager {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		opt.Log = logrus.NewEntry(l)
	}
	return &Manager{opt: opt, table: config.NewConsumerFilters(), compiled: map[key]Matcher{}}
}

// Load reads consumerFilter.json (ConsumerFilterManager.decode): every
// filter is compiled again; a file written with another bloom shape is
// ignored whole; filters alive when written count as dead since 30 s
// before now, until their consumers' next heartbeat.
func (m *Manager) Load() (config.LoadResult, error) {
	loaded, res, err := config.LoadDetail(m.opt.Path, config.DecodeConsumerFilters)
	if err != nil || !res.Found {
		return res, err
	}
	if !loaded.Restore(m.opt.Now().UnixMilli(), m.opt.Bloom.M, m.opt.Bloom.K) {
		m.opt.Log.Info("bloom filter changed, so the persisted consumer filters are ignored")
		return res, nil
	}
	compiled := map[key]Matcher{}
	loaded.Range(func(topic string, t *config.FilterDataMapByTopic) bool {
		t.Range(func(group string, f *config.ConsumerFilterData) bool {
			if mt, err := m.opt.Compile(f.ExpressionType, f.Expression); err == nil {
				compiled[key{topic, group}] = mt
			} else {
				m.opt.Log.WithError(err).WithField("group", group).Error("load filter data")
			}
			return true
		})
		return true
	})
	m.mu.Lock()
	m.table, m.compiled = loaded, compiled
	m.mu.Unlock()
	return res, nil
}

// Persist cleans out filters dead for longer than CleanSpan and rewrites
// consumerFilter.json (ConfigManager.persist, encode runs clean first).
func (m *Manager) Persist() error {
	m.persistMu.Lock()
	defer m.persistMu.Unlock()
	m.mu.Lock()
	m.table.Clean(m.opt.Now().UnixMilli(), m.opt.CleanSpan.Milliseconds())
	m.dropUncompiled()
	content := m.table.Encode()
	m.mu.Unlock()
	if err := config.Save(m.opt.Path, content); err != nil {
		return fmt.Errorf("consumerfilter: persist: %w", err)
	}
	return nil
}

// dropUncompiled forgets compiled expressions of filters Clean removed.
// mu is held.
func (m *Manager) dropUncompiled() {
	for k := range m.compiled {
		if _, ok := m.data(k.topic, k.group); !ok {
			delete(m.compiled, k)
		}
	}
}

// Get is the group's filter on topic (get(topic, group)).
func (m *Manager) Get(topic, group string) (Filter, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.filter(topic, group)
}

// filter is Get with mu held.
func (m *Manager) filter(topic, group string) (Filter, bool) {
	f, ok := m.data(topic, group)
	if !ok {
		return Filter{}, false
	}
	r := Filter{ClientVersion: f.ClientVersion, Matcher: m.compiled[key{topic, group}], bornTime: f.BornTime}
	if m.opt.Bloom.Valid(f.BloomFilterData) {
		r.bloom = f.BloomFilterData
	}
	return r, true
}

// QueueView is what QUERY_CONSUME_QUEUE shows of the group's filter on
// topic: the filter as fastjson prints it ("null" without one) and its
// consume-queue check of an extension unit (Filter.MatchBitMap).
//
// A nil manager has no filters.
func (m *Manager) QueueView(topic, group string) (json string, eval func(storeTime int64, bitMap []byte) bool) {
	if m == nil {
		return "null", func(int64, []byte) bool { return true }
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.filter(topic, group)
	if !ok {
		return "null", func(int64, []byte) bool { return true }
	}
	data, _ := m.data(topic, group)
	return string(data.EncodePretty()), f.MatchBitMap
}

// BitMap is CommitLogDispatcherCalcBitMap's filter bit map of a message
// on topic with these properties: a bit array of the bloom filter's M
// bits (Java BitsArray: bit i is 1<<(i%8) of byte i/8) with the bloom
// positions of every filter on the topic whose expression selects the
// message. Dead filters count until they are cleaned out, as in Java; a
// filter without a compiled expression or valid bloom data is skipped.
// It is nil when the topic has no filters, as Java leaves the bit map
// unset then.
func (m *Manager) BitMap(topic string, props func(name string) (string, bool)) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.table.Topic(topic)
	if !ok || t.Len() == 0 {
		return nil
	}
	bits := make([]byte, (m.opt.Bloom.M+7)/8)
	t.Range(func(group string, f *config.ConsumerFilterData) bool {
		mt := m.compiled[key{topic, group}]
		if mt == nil || !m.opt.Bloom.Valid(f.BloomFilterData) || !mt.Match(props) {
			return true
		}
		for _, p := range f.BloomFilterData.BitPos {
			bits[p/8] |= 1 << (p % 8)
		}
		return true
	})
	return bits
}

func (m *Manager) data(topic, group string) (*config.ConsumerFilterData, bool) {
	t, ok := m.table.Topic(topic)
	if !ok {
		return nil, false
	}
	return t.Get(group)
}

// Register is register(group, subList), on every heartbeat: each SQL92
// subscription's filter is added or updated, and the group's filters on
// topics it no longer subscribes to die.
func (m *Manager) Register(group string, subs []body.SubscriptionData) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opt.Now().UnixMilli()
	for _, sub := range subs {
		if body.IsTagType(sub.ExpressionType) || !sub.SubString.Valid || sub.SubString.S == "" {
			continue
		}
		m.register(sub.Topic.S, group, sub.SubString.S, sub.ExpressionType.S, sub.SubVersion, now)
	}
	m.table.Range(func(topic string, t *config.FilterDataMapByTopic) bool {
		f, ok := t.Get(group)
		if ok && !f.Dead() && !subscribes(subs, topic) {
			f.DeadTime = now
			m.opt.Log.WithFields(logrus.Fields{"group": group, "topic": topic}).Info("Consumer filter changed, make illegal topic dead")
		}
		return true
	})
}

func subscribes(subs []body.SubscriptionData, topic string) bool {
	for _, s := range subs {
		if s.Topic.S == topic {
			return true
		}
	}
	return false
}

// register is FilterDataMapByTopic.register. mu is held.
func (m *Manager) register(topic, group, expr, typ string, version, now int64) {
	bloom := m.opt.Bloom.Data(group + "#" + topic)
	old, ok := m.data(topic, group)
	switch {
	case !ok:
		m.replace(topic, group, expr, typ, version, now, bloom)
	case version <= old.ClientVersion:
		if version == old.ClientVersion && old.Dead() {
			old.DeadTime = 0 // reAlive
		}
	case old.Expression != expr || old.ExpressionType != typ || !equalBloom(old.BloomFilterData, bloom):
		if !m.replace(topic, group, expr, typ, version, now, bloom) {
			t, _ := m.table.Topic(topic)
			t.Remove(group)
			delete(m.compiled, key{topic, group})
		}
	default:
		old.ClientVersion = version
		if old.Dead() {
			old.DeadTime = 0
		}
	}
}

// replace stores a new filter (build plus setBloomFilterData), unless the
// expression does not compile.
func (m *Manager) replace(topic, group, expr, typ string, version, now int64, bloom *config.BloomFilterData) bool {
	mt, err := m.opt.Compile(typ, expr)
	if err != nil {
		m.opt.Log.WithError(err).WithFields(logrus.Fields{"group": group, "topic": topic, "expr": expr}).Error("parse error")
		return false
	}
	m.table.Put(&config.ConsumerFilterData{ConsumerGroup: group, Topic: topic, Expression: expr, ExpressionType: typ,
		BornTime: now, ClientVersion: version, BloomFilterData: bloom})
	m.compiled[key{topic, group}] = mt
	return true
}

// Unregister is unRegister(group), when the group's last consumer left:
// its live filters die now.
func (m *Manager) Unregister(group string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opt.Now().UnixMilli()
	m.table.Range(func(_ string, t *config.FilterDataMapByTopic) bool {
		if f, ok := t.Get(group); ok && !f.Dead() {
			f.DeadTime = now
		}
		return true
	})
}

// ErrNotFilter: Build was asked for a TAG expression.
var ErrNotFilter = errors.New("consumerfilter: a TAG expression has no filter")

// Build compiles a subscription a pull carries itself (Java
// ConsumerFilterManager.build), without registering it.
func (m *Manager) Build(expressionType, expression string) (Matcher, error) {
	if body.IsTagType(body.Str(expressionType)) {
		return nil, ErrNotFilter
	}
	return m.opt.Compile(expressionType, expression)
}
