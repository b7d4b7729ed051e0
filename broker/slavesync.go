package broker

// Master/slave bookkeeping. A SLAVE copies its master's tables, 3 s after
// start and then every 10 s:
//
//	GET_ALL_TOPIC_CONFIG (21)              topics.json, when the data version differs
//	GET_ALL_CONSUMER_OFFSET (43)           consumerOffset.json, the master's keys put over ours
//	GET_ALL_DELAY_OFFSET (45)              delayOffset.json, as the master sent it
//	GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201) subscriptionGroup.json, when the data version differs
//
// from the master the name server names in its answer to the slave's
// registration, which also gives the master's HA address when the slave
// has no haMasterAddress. A master logs how far its slaves are behind
// every 60 s.
//
// Java 4.9.8 mirror: SlaveSynchronize; BrokerOuterAPI.getAllTopicConfig,
// getAllConsumerOffset, getAllDelayOffset, getAllSubscriptionGroupConfig;
// BrokerController.initialize (haMasterAddress), handleSlaveSynchronize,
// doRegisterBrokerAll and printMasterAndSlaveDiff.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf16"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
)

// Java's schedules (BrokerController) and BrokerOuterAPI's timeout.
const (
	slaveSyncDelay   = 3 * time.Second  // handleSlaveSynchronize: first syncAll
	slaveSyncPeriod  = 10 * time.Second // then at this fixed rate
	slaveSyncTimeout = 3 * time.Second  // getAll*'s invokeSync timeout
	fallBehindDelay  = 10 * time.Second // printMasterAndSlaveDiff: first report
	fallBehindPeriod = 60 * time.Second // then at this fixed rate

	// minHAMasterAddrLen: a shorter haMasterAddress counts as unset
	// (BrokerController.initialize: length() >= 6).
	minHAMasterAddrLen = 6
)

// errNoWrapper: the master answered SUCCESS without a body, or with JSON
// null; Java's decode then gives null and the sync step fails.
var errNoWrapper = errors.New("broker: the master's answer has no body")

// slaveSync copies the master's tables onto a slave (Java
// SlaveSynchronize).
type slaveSync struct {
	client          *remoting.Client
	topics          *topics.Manager
	groups          *groups.Manager
	offsets         *offsets.Manager
	delayOffsetPath string        // config.DelayOffsetPath(storePathRootDir)
	self            func() string // this broker's address
	// topicAddr is where the topic table is asked for: Java asks the
	// master's VIP channel (brokerVIPChannel(true, addr): port - 2).
	topicAddr func(master string) (string, error)
	log       *logrus.Entry

	master atomic.Pointer[string] // from the last registration; nil or "" is none
}

// newSlaveSync builds the broker's slave sync.
func (b *Broker) newSlaveSync() *slaveSync {
	return &slaveSync{client: b.client, topics: b.topics, groups: b.groups, offsets: b.offsets,
		delayOffsetPath: config.DelayOffsetPath(b.cfg.Store.StorePathRootDir), self: b.Addr,
		topicAddr: brokerVIPChannel, log: b.log.WithField("component", "slave-sync")}
}

// setMaster is setMasterAddr: "" is none.
func (s *slaveSync) setMaster(addr string) { s.master.Store(&addr) }

// masterAddr is the master to copy from, "" when there is none or it is
// this broker.
func (s *slaveSync) masterAddr() string {
	p := s.master.Load()
	if p == nil || *p == s.self() {
		return ""
	}
	return *p
}

// syncAll runs every step; a failed step is logged and the next one runs
// (Java catches each). Each step reads the master address anew.
func (s *slaveSync) syncAll(ctx context.Context) {
	steps := []struct {
		name string
		run  func(ctx context.Context, master string) error
	}{
		{"SyncTopicConfig", s.syncTopicConfig},
		{"SyncConsumerOffset", s.syncConsumerOffset},
		{"SyncDelayOffset", s.syncDelayOffset},
		{"SyncSubscriptionGroup", s.syncSubscriptionGroupConfig},
	}
	for _, step := range steps {
		master := s.masterAddr()
		if master == "" {
			continue
		}
		if err := step.run(ctx, master); err != nil {
			s.log.WithError(err).WithField("master", master).Error(step.name + " failed")
		}
	}
}

// syncTopicConfig takes the master's topic table when its data version
// differs from ours.
func (s *slaveSync) syncTopicConfig(ctx context.Context, master string) error {
	addr, err := s.topicAddr(master)
	if err != nil {
		return err
	}
	body, err := s.fetch(ctx, addr, protocol.ReqGetAllTopicConfig)
	if err != nil {
		return err
	}
	wrapper, err := decodeWrapper(protocol.ReqGetAllTopicConfig, body, config.DecodeTopics)
	if err != nil {
		return err
	}
	if wrapper.DataVersion == s.topics.DataVersion() {
		return nil
	}
	if err := s.topics.ReplaceAll(wrapper); err != nil {
		return err
	}
	s.log.Info("Update slave topic config from master, " + master)
	return nil
}

// syncConsumerOffset puts the master's consumer offsets over ours.
func (s *slaveSync) syncConsumerOffset(ctx context.Context, master string) error {
	body, err := s.fetch(ctx, master, protocol.ReqGetAllConsumerOffset)
	if err != nil {
		return err
	}
	table, err := decodeWrapper(protocol.ReqGetAllConsumerOffset, body, config.DecodeConsumerOffsets)
	if err != nil {
		return err
	}
	s.offsets.PutAll(table)
	if err := s.offsets.Persist(); err != nil {
		return err
	}
	s.log.Info("Update slave consumer offset from master, " + master)
	return nil
}

// syncDelayOffset writes the master's delay offsets to delayOffset.json
// as they came (MixAll.string2File).
func (s *slaveSync) syncDelayOffset(ctx context.Context, master string) error {
	body, err := s.fetch(ctx, master, protocol.ReqGetAllDelayOffset)
	if err != nil {
		return err
	}
	if len(body) == 0 {
		return fmt.Errorf("%s: %w", protocol.ReqGetAllDelayOffset, errNoWrapper)
	}
	if err := config.Save(s.delayOffsetPath, body); err != nil {
		return err
	}
	s.log.Info("Update slave delay offset from master, " + master)
	return nil
}

// syncSubscriptionGroupConfig takes the master's subscription groups when
// their data version differs from ours.
func (s *slaveSync) syncSubscriptionGroupConfig(ctx context.Context, master string) error {
	body, err := s.fetch(ctx, master, protocol.ReqGetAllSubscriptiongroupConfig)
	if err != nil {
		return err
	}
	wrapper, err := decodeWrapper(protocol.ReqGetAllSubscriptiongroupConfig, body, config.DecodeSubscriptionGroups)
	if err != nil {
		return err
	}
	if wrapper.DataVersion == s.groups.DataVersion() {
		return nil
	}
	if err := s.groups.ReplaceAll(wrapper); err != nil {
		return err
	}
	s.log.Info("Update slave Subscription Group from master, " + master)
	return nil
}

// fetch sends a header-less request and returns the SUCCESS answer's body
// (Java: any other code is an MQBrokerException).
func (s *slaveSync) fetch(ctx context.Context, addr string, code protocol.RequestCode) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, slaveSyncTimeout)
	defer cancel()
	resp, err := s.client.InvokeSync(ctx, addr, wire.NewRequest(int32(code)))
	if err != nil {
		return nil, fmt.Errorf("broker: %s to %s: %w", code, addr, err)
	}
	defer resp.Release()
	if resp.Code != int32(protocol.RespSuccess) {
		return nil, fmt.Errorf("broker: %s to %s: %w", code, addr,
			&protocol.Error{Code: protocol.ResponseCode(resp.Code), Remark: resp.Remark})
	}
	return bytes.Clone(resp.Body), nil
}

// decodeWrapper decodes a GET_ALL_* body with the file decoder of the same
// JSON (the wrappers are what the config files hold). A missing body or
// JSON null is errNoWrapper: the file decoders take it for an empty
// table, which would wipe ours.
func decodeWrapper[T any](code protocol.RequestCode, body []byte, decode func([]byte) (T, error)) (T, error) {
	var zero T
	if v, err := fastjson.Parse(body); len(bytes.TrimSpace(body)) == 0 || err == nil && v.IsNull() {
		return zero, fmt.Errorf("%s: %w", code, errNoWrapper)
	}
	w, err := decode(body)
	if err != nil {
		return zero, fmt.Errorf("broker: decode the %s answer: %w", code, err)
	}
	return w, nil
}

// brokerVIPChannel is MixAll.brokerVIPChannel(true, addr): the port less 2
// (int arithmetic, as Java's).
func brokerVIPChannel(addr string) (string, error) {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return "", fmt.Errorf("broker: master address %q has no port", addr)
	}
	port, err := javalang.ParseInt(addr[i+1:])
	if err != nil {
		return "", fmt.Errorf("broker: master address %q: %w", addr, err)
	}
	return addr[:i+1] + strconv.Itoa(int(port-vipPortBelow)), nil
}

// runEvery calls f after first and then every period (Java's
// scheduleAtFixedRate) until ctx is done.
func runEvery(ctx context.Context, first, period time.Duration, f func()) {
	t := time.NewTimer(first)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return
	case <-t.C:
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// startRoleServices starts a slave's copy of its master's tables, or a
// master's report of its slaves' lag (Java handleSlaveSynchronize and
// printMasterAndSlaveDiff).
func (b *Broker) startRoleServices(ctx context.Context) {
	if b.isSlave() {
		b.goService(func() { runEvery(ctx, slaveSyncDelay, slaveSyncPeriod, func() { b.slaveSync.syncAll(ctx) }) })
		return
	}
	log := b.log.WithField("component", "ha")
	b.goService(func() {
		runEvery(ctx, fallBehindDelay, fallBehindPeriod, func() {
			log.Infof("Slave fall behind master: %d bytes", b.store.SlaveFallBehind())
		})
	})
}

func (b *Broker) isSlave() bool { return b.cfg.Store.BrokerRole == store.Slave }

// configuredHAMaster is the haMasterAddress a slave follows from the
// start; with one, the name servers' answers do not move it (Java
// updateMasterHAServerAddrPeriodically is false).
func configuredHAMaster(sc *store.Config) (string, bool) {
	if sc.BrokerRole != store.Slave || sc.HaMasterAddress == nil {
		return "", false
	}
	addr := *sc.HaMasterAddress
	return addr, len(utf16.Encode([]rune(addr))) >= minHAMasterAddrLen // Java String.length
}

// onRegistered applies a name server's answer to the registration (Java
// doRegisterBrokerAll): a slave without a configured haMasterAddress
// follows the master's HA address, the slave sync follows the master's
// address (also when there is none), and the name server's order-topic
// config sets the topics' order flags (checkOrderConfig=true).
func (b *Broker) onRegistered(resp *wire.Command) {
	var hdr protocol.RegisterBrokerResponseHeader
	if err := hdr.DecodeFrom(resp); err != nil {
		b.log.WithError(err).Warn("decode the name server's answer to the registration")
	} else {
		if _, fixed := configuredHAMaster(&b.cfg.Store); b.isSlave() && !fixed && hdr.HaServerAddr != "" {
			b.store.SetHAMasterAddress(hdr.HaServerAddr)
		}
		b.slaveSync.setMaster(hdr.MasterAddr)
	}
	if err := b.topics.UpdateOrderTopics(orderTopicsOf(resp.Body)); err != nil {
		b.log.WithError(err).Warn("update order topic config")
	}
}
