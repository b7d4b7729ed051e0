// Package namesrv is Sputnik's name server: the drop-in replacement for
// Apache RocketMQ 4.9.8's NamesrvController. It wires the route table
// (routeinfo), the KV configuration (kvconfig) and the configuration
// objects to a remoting server, and runs the background services.
//
// Java 4.9.8 mirror: NamesrvController, DefaultRequestProcessor,
// ClusterTestRequestProcessor, BrokerHousekeepingService.
package namesrv

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/namesrv/kvconfig"
	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Options configure a Server. Config and Netty are required (start from
// DefaultConfig and DefaultNettyConfig); zero values of the rest take the
// defaults noted.
type Options struct {
	Config Config
	Netty  NettyConfig
	// FileProps are the -c file's properties, remembered (unknown keys
	// included) for GET_NAMESRV_CONFIG and persistence, as Java's
	// Configuration.registerConfig(properties) does. May be nil.
	FileProps *javaprops.Properties
	// ListenAddr overrides ":<Netty.ListenPort>" (tests: "127.0.0.1:0").
	ListenAddr string
	// Serialize is the serialize type the remoting layer answers in on its
	// own (ROCKETMQ_SERIALIZE_TYPE).
	Serialize wire.SerializeType
	// Log receives the name server's log lines; nil discards them.
	Log *logrus.Entry
	// Now is the clock of broker liveness (time.Now).
	Now func() time.Time
	// ScanDelay and ScanInterval schedule the expired-broker scan (5 s,
	// then every 10 s).
	ScanDelay, ScanInterval time.Duration
	// PrintDelay and PrintInterval schedule the KV table dump to the log
	// (1 min, then every 10 min).
	PrintDelay, PrintInterval time.Duration
	// ProductNamesrvAddr lists, ';'-separated, the product environment's
	// name servers asked in clusterTest mode (Java: NAMESRV_ADDR).
	ProductNamesrvAddr string
}

// Server is a running name server.
type Server struct {
	opts   Options
	log    *logrus.Entry
	routes *routeinfo.Table
	kv     *kvconfig.Store
	conf   *configuration
	rs     *remoting.Server
	fetch  *productRoutes // clusterTest only

	cancel   context.CancelFunc
	services sync.WaitGroup
	stopOnce sync.Once
	stopErr  error
}

// New loads the KV configuration and builds the server; Start listens.
func New(opts Options) (*Server, error) {
	opts.fill()
	s := &Server{opts: opts, log: opts.Log}
	s.routes = routeinfo.New(routeinfo.Options{Log: opts.Log, Now: opts.Now})
	kv, err := kvconfig.Open(opts.Config.KvConfigPath, opts.Log)
	if err != nil {
		return nil, err
	}
	s.kv = kv
	s.conf = newConfiguration(opts.Config, opts.Netty, opts.FileProps, opts.Log)
	s.rs = remoting.NewServer(remoting.ServerConfig{
		ListenAddr:       opts.listenAddr(),
		IdleTimeout:      idleTimeout(opts.Netty.ServerChannelMaxIdleTimeSeconds),
		DefaultSerialize: opts.Serialize,
		Log:              opts.Log,
		Hooks:            housekeeping(s.routes),
		AsyncLimit:       int(opts.Netty.ServerAsyncSemaphoreValue),
		SocketSndBuf:     int(opts.Netty.ServerSocketSndBufSize),
		SocketRcvBuf:     int(opts.Netty.ServerSocketRcvBufSize),
	})
	t := handlerTable{}
	s.handlers(t)
	s.rs.SetDefaultProcessor(s.processor(dispatch(t, opts.Log)))
	return s, nil
}

// processor runs every handler inline on its connection's read loop: they
// only read or update in-memory tables, and serving a request where it was
// read saves two goroutine hand-offs. In clusterTest mode a route lookup
// may ask the product environment's name servers, so the handlers run on
// a pool of ServerWorkerThreads instead.
func (s *Server) processor(h remoting.Handler) remoting.Processor {
	if s.fetch == nil {
		return remoting.Processor{Handler: h, Inline: true}
	}
	return remoting.Processor{
		Handler:       h,
		Workers:       max(1, int(s.opts.Netty.ServerWorkerThreads)),
		QueueCapacity: workQueue,
	}
}

// idleTimeout maps serverChannelMaxIdleTimeSeconds: 0 or less turns Netty's
// IdleStateHandler off.
func idleTimeout(seconds int32) time.Duration {
	if seconds <= 0 {
		return -1
	}
	return time.Duration(seconds) * time.Second
}

// workQueue lets requests wait for a worker; Java's remotingExecutor has
// an unbounded queue.
const workQueue = 1 << 16

func (o *Options) fill() {
	if o.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		o.Log = logrus.NewEntry(l)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	setDefault(&o.ScanDelay, 5*time.Second)
	setDefault(&o.ScanInterval, 10*time.Second)
	setDefault(&o.PrintDelay, time.Minute)
	setDefault(&o.PrintInterval, 10*time.Minute)
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

func (o *Options) listenAddr() string {
	if o.ListenAddr != "" {
		return o.ListenAddr
	}
	return ":" + strconv.Itoa(int(o.Netty.ListenPort))
}

// handlers registers every code the name server answers
// (DefaultRequestProcessor.processRequest).
func (s *Server) handlers(t handlerTable) {
	(&brokerHandlers{routes: s.routes, kv: s.kv, now: s.opts.Now, log: s.log}).register(t)
	rh := &routeHandlers{routes: s.routes, kv: s.kv, orderMessageEnable: s.conf.orderMessageEnable}
	if s.opts.Config.ClusterTest {
		s.fetch = newProductRoutes(s.opts.ProductNamesrvAddr, s.opts.Config.ProductEnvName, s.log)
		rh.clusterTest = s.fetch
	}
	rh.register(t)
	(&topicHandlers{routes: s.routes, log: s.log}).register(t)
	(&kvHandlers{kv: s.kv}).register(t)
	(&configHandlers{conf: s.conf, log: s.log}).register(t)
}

// Start listens and starts the background services.
func (s *Server) Start() error {
	if err := s.rs.Listen(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.goService(func() { s.scanLoop(ctx) })
	s.goService(func() { s.printLoop(ctx) })
	return nil
}

func (s *Server) goService(f func()) {
	s.services.Add(1)
	go func() {
		defer s.services.Done()
		f()
	}()
}

// Addr is the listening address, nil before Start.
func (s *Server) Addr() net.Addr { return s.rs.Addr() }

// Routes is the route table (for tests and tools).
func (s *Server) Routes() *routeinfo.Table { return s.routes }

// KV is the KV configuration store.
func (s *Server) KV() *kvconfig.Store { return s.kv }

// Shutdown stops accepting, lets requests in flight finish (until ctx
// ends), stops the background services and persists the KV store.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() {
		err := s.rs.Shutdown(ctx)
		if s.cancel != nil {
			s.cancel()
		}
		s.services.Wait()
		if s.fetch != nil {
			s.fetch.close()
		}
		s.stopErr = errors.Join(err, s.kv.Flush())
	})
	return s.stopErr
}

// scanLoop drops expired brokers (scanNotActiveBroker, first after
// ScanDelay, then every ScanInterval).
func (s *Server) scanLoop(ctx context.Context) {
	runEvery(ctx, s.opts.ScanDelay, s.opts.ScanInterval, func() { s.routes.ScanNotActiveBrokers() })
}

// printLoop logs the KV table (KVConfigManager.printAllPeriodically).
func (s *Server) printLoop(ctx context.Context) {
	runEvery(ctx, s.opts.PrintDelay, s.opts.PrintInterval, func() {
		entries := s.kv.Entries()
		s.log.Info("--------------------------------------------------------")
		s.log.Infof("configTable SIZE: %d", len(entries))
		for _, e := range entries {
			s.log.Infof("configTable NS: %s Key: %s Value: %s", e[0], e[1], e[2])
		}
	})
}

// runEvery calls f after delay, then every interval, until ctx ends.
func runEvery(ctx context.Context, delay, interval time.Duration, f func()) {
	timer := time.NewTimer(delay)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return
	case <-timer.C:
	}
	f()
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			f()
		}
	}
}
