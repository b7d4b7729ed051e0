// Package broker is Sputnik's RocketMQ 4.9.8 broker: it wires the message
// store, the topic, subscription-group and consumer-offset managers, the
// client bookkeeping and the request handlers onto a remoting server, and
// registers with the name servers (Java BrokerController, without the god
// object: each handler group takes only what it uses).
package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/ants/v2"
	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/acl"
	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/consumerfilter"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/longpoll"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// Options are the broker's surroundings.
type Options struct {
	Log *logrus.Entry
	// ListenAddr overrides ":listenPort" (tests: "127.0.0.1:0").
	ListenAddr string
	// Serialize is the server's serialize type (rocketmq.serialize.type).
	Serialize wire.SerializeType
}

// Broker is one running broker.
type Broker struct {
	cfg *brokerconfig.Startup
	// addrServer polls the address server for the name server list
	// (fetchNamesrvAddrByAddressServer without namesrvAddr); else nil.
	addrServer *addrServer
	opt        Options
	log        *logrus.Entry

	store     *store.Store
	topics    *topics.Manager
	groups    *groups.Manager
	offsets   *offsets.Manager
	filters   *consumerfilter.Manager
	producers *clients.ProducerManager
	consumers *clients.ConsumerManager
	locks     *clients.RebalanceLockManager
	hold      *longpoll.Holder
	stats     *stats.Manager
	daily     *dailyRecorder
	acl       *acl.Manager // nil without aclEnable
	server    *remoting.Server
	vip       *remoting.Server // listenPort-2 (Java's fastRemotingServer)
	client    *remoting.Client
	reg       *registrar
	slaveSync *slaveSync // a slave's copy of its master's tables (slavesync.go)
	pullPool  *ants.Pool

	perm   atomic.Int32 // brokerPermission, changed by UPDATE_BROKER_CONFIG
	bootMs int64        // when the broker started (ms)

	stop     chan struct{}
	services sync.WaitGroup
	cancel   context.CancelFunc
	closed   sync.Once
}

// New builds the broker from its configuration and opens the store
// (recovering it); nothing listens until Start.
//
// With aclEnable=true it loads the ACL files (acl_check.go); one that
// cannot be read or parsed stops the start. A configuration with
// enableDLegerCommitLog=true is refused (ErrDLedgerUnsupported), and so
// is a messageStorePlugIn (ErrStorePluginUnsupported).
func New(cfg *brokerconfig.Startup, opt Options) (*Broker, error) {
	if opt.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		opt.Log = logrus.NewEntry(l)
	}
	if cfg.Store.EnableDLegerCommitLog {
		return nil, ErrDLedgerUnsupported
	}
	if p := strings.TrimSpace(cfg.Broker.MessageStorePlugIn); p != "" {
		return nil, fmt.Errorf("%w: messageStorePlugIn=%s", ErrStorePluginUnsupported, p)
	}
	b := &Broker{cfg: cfg, opt: opt, log: opt.Log, stop: make(chan struct{})}
	if err := b.openACL(); err != nil {
		return nil, err
	}
	if err := b.openManagers(); err != nil {
		return nil, err
	}
	if err := b.openStore(); err != nil {
		return nil, err
	}
	if addr, ok := configuredHAMaster(&cfg.Store); ok {
		b.store.SetHAMasterAddress(addr)
	}
	return b, nil
}

// ErrDLedgerUnsupported: the configuration stores the commit log through
// DLedger (a different file format and Raft replication), which Sputnik
// does not implement.
var ErrDLedgerUnsupported = errors.New("enableDLegerCommitLog=true: this Sputnik build does not implement the DLedger commit log; " +
	"refusing to start rather than ignore the DLedger store. Use master/slave replication (brokerRole) or keep a Java broker")

// ErrStorePluginUnsupported: the configuration wraps the message store in
// Java plugin classes (MessageStoreFactory), which a Go broker cannot load;
// Java cannot start either without them on its class path.
var ErrStorePluginUnsupported = errors.New("this Sputnik build cannot load Java message store plugins; " +
	"refusing to start rather than run without them. Remove messageStorePlugIn, or keep a Java broker")

// openACL loads the ACL files when aclEnable is set.
func (b *Broker) openACL() error {
	if !b.cfg.Broker.ACLEnable {
		return nil
	}
	m, err := acl.Open(acl.Options{Home: b.cfg.ACLHome, PlainFile: b.cfg.ACLPlainFile, Log: b.log.WithField("component", "acl")})
	if err != nil {
		return fmt.Errorf("broker: aclEnable=true: %w", err)
	}
	b.acl = m
	return nil
}

// beforeRequest is the servers' request hook: the ACL check, or none.
func (b *Broker) beforeRequest() func(*remoting.Conn, *wire.Command) error {
	if b.acl == nil {
		return nil
	}
	return aclGuard{b.acl}.before
}

func (b *Broker) openManagers() error {
	bc, root := &b.cfg.Broker, b.cfg.Store.StorePathRootDir
	var err error
	b.topics, err = topics.New(topics.Options{
		StorePathRootDir: root, BrokerName: bc.BrokerName, ClusterName: bc.BrokerClusterName,
		DefaultTopicQueueNums: bc.DefaultTopicQueueNums, AutoCreateTopicEnable: bc.AutoCreateTopicEnable,
		ClusterTopicEnable: bc.ClusterTopicEnable, BrokerTopicEnable: bc.BrokerTopicEnable,
		TraceTopicEnable: bc.TraceTopicEnable, MsgTraceTopicName: bc.MsgTraceTopicName,
		EnableLmq: b.cfg.Store.EnableLmq, Log: b.log.WithField("component", "topics"),
		Register: func() { go b.registerAll() },
	})
	if err != nil {
		return err
	}
	b.groups, err = groups.New(groups.Options{StorePathRootDir: root, AutoCreateSubscriptionGroup: bc.AutoCreateSubscriptionGroup,
		EnableLmq: b.cfg.Store.EnableLmq, Log: b.log.WithField("component", "groups")})
	if err != nil {
		return err
	}
	b.offsets, err = offsets.New(offsets.Options{
		StorePathRootDir: root, FlushInterval: time.Duration(bc.FlushConsumerOffsetInterval) * time.Millisecond,
		Lmq:        b.cfg.Store.EnableLmq,
		MinOffset:  func(topic string, q int32) int64 { return b.store.MinOffsetInQueue(topic, q) },
		Subscribed: func(group, topic string) bool { _, ok := b.consumers.FindSubscription(group, topic); return ok },
		Log:        b.log.WithField("component", "offsets"),
	})
	if err != nil {
		return err
	}
	if b.filters, err = b.newConsumerFilters(); err != nil {
		return err
	}
	for name, load := range map[string]func() (config.LoadResult, error){"topics": b.topics.Load, "groups": b.groups.Load,
		"offsets": b.offsets.Load, "consumer filters": b.filters.Load} {
		if _, err := load(); err != nil {
			return fmt.Errorf("broker: load %s: %w", name, err)
		}
	}
	return nil
}

// ephemeralPort reports that the system picks the listen port (port 0 in
// the config or in Options.ListenAddr: tests).
func (b *Broker) ephemeralPort() bool {
	if b.opt.ListenAddr != "" {
		_, port, err := net.SplitHostPort(b.opt.ListenAddr)
		return err == nil && port == "0"
	}
	return b.cfg.NettyServer.ListenPort == 0
}

func (b *Broker) openStore() error {
	b.stats = stats.New(b.cfg.Broker.BrokerClusterName, nil)
	if b.cfg.Store.EnableLmq {
		b.stats.FoldLmq()
	}
	b.daily = &dailyRecorder{}
	b.hold = longpoll.NewHolder(func(topic string, q int32) int64 { return b.store.MaxOffsetInQueue(topic, q) })
	sc := b.cfg.Store
	if b.ephemeralPort() {
		sc.HaListenPort = 0 // the system picks the listen port, so it picks this one too
	}
	var err error
	b.store, err = store.Open(sc, store.Options{
		Log:    b.log.WithField("component", "store"),
		Master: b.cfg.Broker.BrokerID == brokerconfig.MasterID,
		HA:     true,
		OnArrival: func(a store.Arrival) {
			if b.cfg.Broker.LongPollingEnable {
				b.hold.Arrived(a.Topic, a.QueueID, a.NextOffset, a.TagsCode, true, a.Properties)
			}
		},
		FilterBitMap: b.filterBitMap,
		OnScheduleDelivered: func(topic string, wroteBytes int) {
			b.stats.ScheduleDelivered(store.ScheduleTopic, groups.ScheduleConsumerGroup, topic, wroteBytes)
		},
	})
	return err
}

// Addr is the broker's address as registered: brokerIP1:listenPort.
func (b *Broker) Addr() string {
	return net.JoinHostPort(b.cfg.Broker.BrokerIP1, strconv.Itoa(b.listenPort()))
}

func (b *Broker) listenPort() int {
	if b.server != nil {
		if a, ok := b.server.Addr().(*net.TCPAddr); ok {
			return a.Port
		}
	}
	return int(b.cfg.NettyServer.ListenPort)
}

// haPort is the port slaves replicate from: haListenPort, which the
// broker sets to listenPort + 1 as Java's BrokerStartup does, or the port
// the store took when that was left to the system (listenPort 0, tests).
func (b *Broker) haPort() int {
	if a, ok := b.store.HAAddr().(*net.TCPAddr); ok {
		return a.Port
	}
	return b.listenPort() + 1
}

// Start starts the store, the server and the background services and
// registers with the name servers (Java BrokerController.start).
// The phase durations go to the log in one line: a slow start (seen after
// another broker's store was deleted, see the README) then shows where its
// time went.
func (b *Broker) Start() error {
	t0 := time.Now()
	b.bootMs = t0.UnixMilli()
	b.perm.Store(b.cfg.Broker.BrokerPermission)
	if err := b.store.Start(); err != nil {
		return err
	}
	t1 := time.Now()
	if err := b.startServer(); err != nil {
		return err
	}
	t2 := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.startRegistrar()
	b.registerAll()
	b.log.WithFields(logrus.Fields{"store": t1.Sub(t0).String(), "server": t2.Sub(t1).String(),
		"register": time.Since(t2).String()}).Info("broker started")
	b.goService(func() { b.reg.run(b.stop, b.registerPeriod()) })
	b.goService(func() { _ = b.offsets.Run(ctx) })
	if b.acl != nil {
		b.goService(func() { b.acl.Run(ctx) })
	}
	b.goService(func() {
		runEvery(ctx, consumerFilterPersistPeriod, consumerFilterPersistPeriod, func() {
			if err := b.filters.Persist(); err != nil {
				b.log.WithError(err).Error("persist consumerFilter.json")
			}
		})
	})
	b.goService(func() { runEvery(ctx, protectPeriod, protectPeriod, b.protectBroker) })
	if b.addrServer != nil {
		b.goService(func() { runEvery(ctx, addrServerDelay, addrServerPeriod, func() { b.addrServer.refresh(ctx) }) })
	}
	b.goService(func() { b.hold.Run(b.stop, b.checkInterval()) })
	b.goService(func() { b.stats.Run(b.stop) })
	b.goService(func() { b.daily.run(b.stop, b.store) })
	hk := &clients.Housekeeping{Producers: b.producers, Consumers: b.consumers}
	b.goService(func() { hk.Run(ctx) })
	ff := &fastFailure{cfg: &b.cfg.Broker, pageCacheBusy: b.store.OSPageCacheBusy, servers: []queueCutter{b.server},
		log: b.log.WithField("component", "fastfailure")}
	if b.vip != nil {
		ff.servers = append(ff.servers, b.vip)
	}
	b.goService(func() { ff.run(ctx) })
	b.startRoleServices(ctx)
	if b.cfg.Store.BrokerRole != store.Slave {
		tx := b.txChecker()
		b.goService(func() {
			tx.run(b.stop, func() time.Duration { return time.Duration(b.cfg.Broker.TransactionCheckInterval) * time.Millisecond })
		})
	}
	return nil
}

// txChecker is the master's transaction check (txcheck.go).
func (b *Broker) txChecker() *txChecker {
	bc := &b.cfg.Broker
	return &txChecker{store: b.store, topics: b.topics, offsets: b.offsets, producers: b.producers, clients: connCaller{},
		storeHost:    b.storeHost(),
		timeout:      func() time.Duration { return time.Duration(bc.TransactionTimeOut) * time.Millisecond },
		checkMax:     func() int32 { return bc.TransactionCheckMax },
		reservedTime: func() time.Duration { return time.Duration(b.cfg.Store.FileReservedTime) * time.Hour },
		now:          time.Now, log: b.log.WithField("component", "transaction-check")}
}

func (b *Broker) goService(f func()) {
	b.services.Add(1)
	go func() {
		defer b.services.Done()
		f()
	}()
}

func (b *Broker) registerPeriod() time.Duration {
	ms := max(10000, min(int64(b.cfg.Broker.RegisterNameServerPeriod), 60000))
	return time.Duration(ms) * time.Millisecond
}

func (b *Broker) checkInterval() time.Duration {
	if b.cfg.Broker.LongPollingEnable {
		return 5 * time.Second
	}
	return time.Duration(max(b.cfg.Broker.ShortPollingTimeMills, 1)) * time.Millisecond
}

func (b *Broker) storeHost() message.Host {
	a, err := netip.ParseAddr(b.cfg.Broker.BrokerIP1)
	if err != nil {
		a = netip.MustParseAddr("127.0.0.1")
	}
	return message.Host{Addr: a.Unmap(), Port: int32(b.listenPort())}
}

// startServer listens and registers the handler groups, each on its own
// pool as Java gives each processor its executor.
func (b *Broker) startServer() error {
	addr := b.opt.ListenAddr
	if addr == "" {
		addr = ":" + strconv.Itoa(int(b.cfg.NettyServer.ListenPort))
	}
	notify := clients.NotifyListener(func() bool { return b.cfg.Broker.NotifyConsumerIdsChangedEnable },
		func(ch clients.Channel, req *wire.Command) {
			if err := (connCaller{}).Oneway(ch, req); err != nil {
				b.log.WithError(err).Debug("notifyConsumerIdsChanged")
			}
		}, b.filters)
	b.consumers = clients.NewConsumerManager(time.Now, b.log.WithField("component", "consumers"), notify)
	b.producers = clients.NewProducerManager(time.Now, b.log.WithField("component", "producers"))
	b.locks = clients.NewRebalanceLockManager(time.Now, b.log.WithField("component", "locks"), 0)
	b.server = remoting.NewServer(remoting.ServerConfig{
		ListenAddr: addr, Log: b.log.WithField("component", "remoting"), DefaultSerialize: b.opt.Serialize,
		IdleTimeout: time.Duration(b.cfg.NettyServer.ServerChannelMaxIdleTimeSeconds) * time.Second,
		Hooks:       remoting.ConnHooks{OnClose: b.connClosed}, BeforeRequest: b.beforeRequest(),
		SocketSndBuf: int(b.cfg.NettyServer.ServerSocketSndBufSize), SocketRcvBuf: int(b.cfg.NettyServer.ServerSocketRcvBufSize),
	})
	if err := b.server.Listen(); err != nil {
		return fmt.Errorf("broker: listen %s: %w", addr, err)
	}
	b.vip = remoting.NewServer(remoting.ServerConfig{
		ListenAddr: vipAddr(addr, b.listenPort()), Log: b.log.WithField("component", "remoting-vip"), DefaultSerialize: b.opt.Serialize,
		IdleTimeout: time.Duration(b.cfg.NettyServer.ServerChannelMaxIdleTimeSeconds) * time.Second,
		Hooks:       remoting.ConnHooks{OnClose: b.connClosed}, BeforeRequest: b.beforeRequest(),
		SocketSndBuf: int(b.cfg.NettyServer.ServerSocketSndBufSize), SocketRcvBuf: int(b.cfg.NettyServer.ServerSocketRcvBufSize),
	})
	if err := b.vip.Listen(); err != nil {
		return fmt.Errorf("broker: listen on the VIP port: %w", err)
	}
	pool, err := ants.NewPool(max(int(b.cfg.Broker.PullMessageThreadPoolNums), 4))
	if err != nil {
		return err
	}
	b.pullPool = pool
	b.registerHandlers()
	return nil
}

func (b *Broker) connClosed(c *remoting.Conn) {
	b.producers.ChannelClosed(c)
	b.consumers.ChannelClosed(c)
}

// consumersAdapter serves the pull path's subscription lookups.
type consumersAdapter struct{ m *clients.ConsumerManager }

func (a consumersAdapter) Subscription(group, topic string) (Subscription, bool, bool) {
	model, ok := a.m.MessageModel(group)
	if !ok {
		return Subscription{}, false, false
	}
	broadcast := model == body.Broadcasting
	sd, found := a.m.FindSubscription(group, topic)
	if !found {
		return Subscription{}, true, broadcast
	}
	return Subscription{Found: true, SubString: sd.SubString.S, ExpressionType: sd.ExpressionType.S, SubVersion: sd.SubVersion}, true, broadcast
}

func (b *Broker) registerHandlers() {
	bc := &b.cfg.Broker
	groupsF := b.groups
	send := &sendHandlers{
		store: b.store, topics: b.topics, groups: groupsF, storeHost: b.storeHost(), stats: b.stats, log: b.log.WithField("component", "send"),
		set: sendSettings{BrokerIP1: bc.BrokerIP1, ClusterName: bc.BrokerClusterName, RegionID: bc.RegionID, TraceOn: bc.TraceOn,
			BrokerPermission: b.perm.Load, RejectTransactionMessage: bc.RejectTransactionMessage,
			StartAcceptSendRequestsAt: bc.StartAcceptSendRequestTimeStamp},
	}
	pull := &pullHandlers{
		store: b.store, topics: b.topics, groups: groupsF, consumers: consumersAdapter{b.consumers}, offsets: b.offsets,
		hold: b.hold, storeHost: b.storeHost(), stats: b.stats, filters: b.filters, log: b.log.WithField("component", "pull"),
		run: func(f func()) {
			if err := b.pullPool.Submit(f); err != nil {
				go f()
			}
		},
		set: pullSettings{BrokerIP1: bc.BrokerIP1, BrokerName: bc.BrokerName, BrokerAddr: b.Addr(),
			BrokerPermission: b.perm.Load, LongPollingEnable: bc.LongPollingEnable,
			ShortPollingTime: time.Duration(bc.ShortPollingTimeMills) * time.Millisecond, SlaveReadEnable: bc.SlaveReadEnable,
			EnablePropertyFilter: bc.EnablePropertyFilter, FilterSupportRetry: bc.FilterSupportRetry,
			Slave:              b.cfg.Store.BrokerRole == store.Slave,
			OffsetCheckInSlave: b.cfg.Store.OffsetCheckInSlave, TransferMsgByHeap: bc.TransferMsgByHeap,
			Serialize: b.opt.Serialize},
	}
	cl := &clients.Handlers{
		Producers: b.producers, Consumers: b.consumers, Locks: b.locks, Groups: groupsF,
		CreateRetryTopic: func(topic string, n, perm, sys int32) {
			_, _, _ = b.topics.CreateInSendMessageBack(topic, n, perm, sys)
		},
		EnablePropertyFilter: func() bool { return bc.EnablePropertyFilter },
		CompileFilter: func(typ, expr string) error {
			_, err := compileFilter(typ, expr)
			return err
		},
		Now: time.Now,
		Log: b.log.WithField("component", "clients"),
	}
	b.addProcessor(workers(bc.SendMessageThreadPoolNums), bc.SendThreadPoolQueueCapacity, send.register,
		rejectWhen(b.store.OSPageCacheBusy))
	b.addProcessor(workers(bc.ProcessReplyMessageThreadPoolNums), bc.ReplyThreadPoolQueueCapacity, (&replyHandlers{send: send,
		producers: b.producers, clients: connCaller{}, storeReply: func() bool { return bc.StoreReplyMessageEnable },
		log: b.log.WithField("component", "reply")}).register)
	b.addProcessor(workers(bc.PullMessageThreadPoolNums), bc.PullThreadPoolQueueCapacity, pull.register,
		inlineWhen(pull.servedFromMemory))
	b.addProcessor(workers(bc.ConsumerManageThreadPoolNums), bc.ConsumerManagerThreadPoolQueueCapacity,
		(&offsetHandlers{store: b.store, offsets: b.offsets}).register)
	b.addProcessor(workers(bc.HeartbeatThreadPoolNums), bc.HeartbeatThreadPoolQueueCapacity, func(t handlerTable) {
		t.Add(protocol.ReqHeartBeat, wrapClientHandler(cl.HeartBeat))
	})
	b.addProcessor(workers(bc.ClientManageThreadPoolNums), bc.ClientManagerThreadPoolQueueCapacity, clientRegistrations(cl))
	admin := &topicAdmin{store: b.store, topics: b.topics, slave: b.cfg.Store.BrokerRole == store.Slave,
		registerTopic: func(tc config.TopicConfig) {
			if b.reg != nil {
				b.reg.registerTopic(context.Background(), tc)
			}
		}, topicsDeleted: b.statsTopicsDeleted}
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, admin.register)
	b.registerAdminHandlers(groupsF)
	unknown := remoting.Processor{Handler: notSupported, Workers: workers(bc.AdminBrokerThreadPoolNums), QueueCapacity: adminQueue}
	b.server.SetDefaultProcessor(unknown)
	b.vip.SetDefaultProcessor(unknown)
}

// notSupported serves the codes no processor serves, as Java's default
// processor (AdminBrokerProcessor, getUnknownCmdResponse) does on both
// ports: REQUEST_CODE_NOT_SUPPORTED through the request's callback, so
// after the RPC hooks (ACL), in the request's serialize type, and not at
// all for a oneway request. A PULL_MESSAGE on the VIP port is one.
func notSupported(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	return wire.NewResponse(req, int32(protocol.RespRequestCodeNotSupported), remoting.NotSupportedRemark(req.Code)), nil
}

// registerAdminHandlers adds retries, queries, stats, subscription groups
// and broker config.
func (b *Broker) registerAdminHandlers(groupsF *groups.Manager) {
	bc := &b.cfg.Broker
	b.addProcessor(workers(bc.SendMessageThreadPoolNums), bc.SendThreadPoolQueueCapacity, (&sendBackHandlers{store: b.store, topics: b.topics, groups: groupsF,
		brokerIP1: bc.BrokerIP1, brokerPermission: b.perm.Load, stats: b.stats, log: b.log.WithField("component", "sendback")}).register,
		rejectWhen(b.store.OSPageCacheBusy))
	b.addProcessor(workers(bc.QueryMessageThreadPoolNums), bc.QueryThreadPoolQueueCapacity, (&queryHandlers{store: b.store, serialize: b.opt.Serialize}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&statsAdmin{store: b.store, topics: b.topics, offsets: b.offsets, consumers: b.consumers, filters: b.filters,
		groups: b.groups.Groups, brokerName: bc.BrokerName, brokerAddr: b.Addr, stats: b.stats, runtime: runtimeInfo{BootTime: b.bootMs, Broker: bc, Daily: b.daily, QueueLen: b.queueLen,
			QueueHeadWait: b.queueHeadWait}}).register)
	b.addProcessor(workers(bc.EndTransactionThreadPoolNums), bc.EndTransactionPoolQueueCapacity, (&txHandlers{store: b.store,
		slave: b.cfg.Store.BrokerRole == store.Slave, storeHost: b.storeHost(), maxBodySize: b.cfg.Store.MaxMessageSize,
		log: b.log.WithField("component", "transaction")}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&halfAdmin{store: b.store,
		log: b.log.WithField("component", "transaction")}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&aclAdmin{m: b.acl, brokerName: bc.BrokerName,
		clusterName: bc.BrokerClusterName, brokerAddr: b.Addr}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&maintAdmin{store: b.store, topics: b.topics,
		log: b.log.WithField("component", "admin"), topicsDeleted: b.statsTopicsDeleted}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&consumerAdmin{store: b.store, topics: b.topics, offsets: b.offsets,
		consumers: b.consumers, brokerName: bc.BrokerName, clients: connCaller{}, log: b.log.WithField("component", "admin")}).register)
	b.addProcessor(workers(bc.AdminBrokerThreadPoolNums), adminQueue, (&groupAdmin{groups: b.groups, offsets: b.offsets, allOffsets: b.offsets.Encode,
		slave: b.cfg.Store.BrokerRole == store.Slave, log: b.log.WithField("component", "admin"),
		groupDeleted: b.statsGroupDeleted}).register)
	b.addProcessor(1, adminQueue, (&configAdmin{conf: newBrokerConfiguration(b.cfg, b.log.WithField("component", "config"), nil),
		blackList: blackList(bc.ConfigBlackList), log: b.log.WithField("component", "config"),
		permissionChanged: func() {
			b.perm.Store(bc.BrokerPermission)
			b.topics.NextDataVersion()
			go b.registerAll()
		}}).register)
}

// queueLen is how many requests of code wait for a worker on the main
// and the VIP port.
func (b *Broker) queueLen(code protocol.RequestCode) int {
	n := b.server.QueueLen(code)
	if b.vip != nil {
		n += b.vip.QueueLen(code)
	}
	return n
}

// queueHeadWait is the longest wait for a worker of code's processor on
// either port.
func (b *Broker) queueHeadWait(code protocol.RequestCode) time.Duration {
	d := b.server.QueueHeadWait(code)
	if b.vip != nil {
		d = max(d, b.vip.QueueHeadWait(code))
	}
	return d
}

// adminQueue bounds the admin pools' queues (Java's adminBrokerExecutor
// has an unbounded queue; admin traffic is light).
const adminQueue = 10000

func workers(n int32) int { return max(int(n), 4) }

// addProcessor registers a handler group on the main port and, unless it
// is the pull group, on the VIP port (Java registers every processor but
// PullMessageProcessor on its fastRemotingServer).
//
// Like Java's executors, each pool has a bounded queue (the
// *ThreadPoolQueueCapacity settings): a request waits for a worker rather
// than being refused while the queue has room (SYSTEM_BUSY only beyond it).
func (b *Broker) addProcessor(n int, queue int32, register func(handlerTable), opts ...procOption) {
	t := handlerTable{}
	register(t)
	proc := remoting.Processor{Handler: t.Handle, Workers: n, QueueCapacity: int(max(queue, 1))}
	for _, o := range opts {
		o(&proc)
	}
	b.server.RegisterProcessor(t.Codes(), proc)
	if _, pull := t[protocol.ReqPullMessage]; !pull {
		b.vip.RegisterProcessor(t.Codes(), proc)
	}
}

// procOption adjusts a processor.
type procOption func(*remoting.Processor)

// inlineWhen picks the requests served on the read loop instead of the
// pool (remoting.Processor.InlineWhen).
func inlineWhen(f func(*wire.Command) bool) procOption {
	return func(p *remoting.Processor) { p.InlineWhen = f }
}

// rejectWhen answers SYSTEM_BUSY "[REJECTREQUEST]…" before queueing while
// busy reports true (Java NettyRequestProcessor.rejectRequest; the send
// processor's is isOSPageCacheBusy).
func rejectWhen(busy func() bool) procOption {
	return func(p *remoting.Processor) { p.RejectRequest = busy }
}

// vipAddr is the VIP port's address: listenPort-2 on the same host, or an
// ephemeral port when the main port is (tests).
func vipAddr(mainAddr string, port int) string {
	host, p, err := net.SplitHostPort(mainAddr)
	if err != nil || p == "0" {
		return net.JoinHostPort(host, "0")
	}
	return net.JoinHostPort(host, strconv.Itoa(port-vipPortBelow))
}

// vipPortBelow is how far below listenPort the VIP channel listens
// (BrokerController's fastRemotingServer, MixAll.brokerVIPChannel).
const vipPortBelow = 2

// clientRegistrations registers the client bookkeeping handlers.
func clientRegistrations(h *clients.Handlers) func(handlerTable) {
	wrap := wrapClientHandler
	return func(t handlerTable) {
		t.Add(protocol.ReqUnregisterClient, wrap(h.UnregisterClient))
		t.Add(protocol.ReqCheckClientConfig, wrap(h.CheckClientConfig))
		t.Add(protocol.ReqGetConsumerListByGroup, wrap(h.GetConsumerListByGroup))
		t.Add(protocol.ReqLockBatchMq, wrap(h.LockBatchMQ))
		t.Add(protocol.ReqUnlockBatchMq, wrap(h.UnlockBatchMQ))
		t.Add(protocol.ReqGetConsumerConnectionList, wrap(h.GetConsumerConnectionList))
		t.Add(protocol.ReqGetProducerConnectionList, wrap(h.GetProducerConnectionList))
		t.Add(protocol.ReqGetAllProducerInfo, wrap(h.GetAllProducerInfo))
	}
}

// wrapClientHandler serves a client manager's request as a remoting
// handler.
func wrapClientHandler(f func(clients.Channel, *wire.Command) (*wire.Command, error)) remoting.Handler {
	return func(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) { return f(c, req) }
}

func (b *Broker) startRegistrar() {
	bc := &b.cfg.Broker
	b.client = remoting.NewClient(remoting.ClientConfig{ConnectTimeout: time.Duration(max(b.cfg.NettyClient.ConnectTimeoutMillis, 1)) * time.Millisecond})
	if bc.NamesrvAddr == nil && bc.FetchNamesrvAddrByAddressServer {
		b.addrServer = newAddrServer(b.cfg.WSAddr(), b.log.WithField("component", "addressserver"))
	}
	b.slaveSync = b.newSlaveSync()
	haAddr := net.JoinHostPort(bc.BrokerIP2, strconv.Itoa(b.haPort()))
	b.reg = &registrar{
		client: b.client, topics: b.topics, log: b.log.WithField("component", "register"),
		timeout: time.Duration(max(bc.RegisterBrokerTimeoutMills, 1)) * time.Millisecond,
		namesrv: func() []string {
			if bc.NamesrvAddr == nil {
				return b.addrServer.namesrv()
			}
			return splitNamesrv(*bc.NamesrvAddr)
		},
		permission: b.perm.Load,
		force:      func() bool { return bc.ForceRegister },
		onResult:   b.onRegistered,
		header: protocol.RegisterBrokerRequestHeader{
			BrokerName: bc.BrokerName, BrokerAddr: b.Addr(), ClusterName: bc.BrokerClusterName,
			HaServerAddr: haAddr, BrokerId: bc.BrokerID, Compressed: bc.CompressedRegister,
		},
	}
}

func (b *Broker) registerAll() {
	if b.reg != nil {
		b.reg.registerAll(context.Background())
	}
}

// Shutdown stops the broker as Java's shutdown does: unregister, stop
// serving, answer suspended pulls, persist the tables and close the store
// cleanly.
func (b *Broker) Shutdown(ctx context.Context) error {
	var errs []error
	b.closed.Do(func() {
		close(b.stop)
		if b.cancel != nil {
			b.cancel()
		}
		if b.reg != nil {
			b.reg.unregisterAll(ctx)
		}
		b.hold.WakeAll()
		if b.server != nil {
			errs = append(errs, b.server.Shutdown(ctx))
		}
		if b.vip != nil {
			errs = append(errs, b.vip.Shutdown(ctx))
		}
		b.services.Wait()
		if b.pullPool != nil {
			b.pullPool.Release()
		}
		if b.client != nil {
			errs = append(errs, b.client.Close())
		}
		errs = append(errs, b.offsets.Persist(), b.topics.Persist(), b.groups.Persist(), b.filters.Persist())
		errs = append(errs, b.store.Close())
	})
	return errors.Join(errs...)
}

// statsGroupDeleted drops a deleted group's statistics when
// autoDeleteUnusedStats (read at each deletion: the setting is live).
func (b *Broker) statsGroupDeleted(group string) {
	if b.cfg.Broker.AutoDeleteUnusedStats {
		b.stats.OnGroupDeleted(group)
	}
}

// statsTopicsDeleted drops deleted topics' statistics when
// autoDeleteUnusedStats.
func (b *Broker) statsTopicsDeleted(topics ...string) {
	if !b.cfg.Broker.AutoDeleteUnusedStats {
		return
	}
	for _, t := range topics {
		b.stats.OnTopicDeleted(t)
	}
}
