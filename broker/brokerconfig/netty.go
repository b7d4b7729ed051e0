package brokerconfig

import (
	"fmt"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// NettyServerConfig mirrors org.apache.rocketmq.remoting.netty.
// NettyServerConfig of 4.9.8 (every key, Java order, defaults from
// DefaultNettyServerConfig). It is shared by both servers: the broker sets
// ListenPort to 10911 and the name server to 9876 before reading their -c
// file. Sputnik's server uses ListenPort, ServerWorkerThreads,
// ServerChannelMaxIdleTimeSeconds and the semaphore values; the Netty
// tuning knobs are accepted, printed and reported only.
type NettyServerConfig struct {
	ListenPort                         int32 `prop:"listenPort"`
	ServerWorkerThreads                int32 `prop:"serverWorkerThreads"`
	ServerCallbackExecutorThreads      int32 `prop:"serverCallbackExecutorThreads"`
	ServerSelectorThreads              int32 `prop:"serverSelectorThreads"`
	ServerOnewaySemaphoreValue         int32 `prop:"serverOnewaySemaphoreValue"`
	ServerAsyncSemaphoreValue          int32 `prop:"serverAsyncSemaphoreValue"`
	ServerChannelMaxIdleTimeSeconds    int32 `prop:"serverChannelMaxIdleTimeSeconds"`
	ServerSocketSndBufSize             int32 `prop:"serverSocketSndBufSize"`
	ServerSocketRcvBufSize             int32 `prop:"serverSocketRcvBufSize"`
	WriteBufferHighWaterMark           int32 `prop:"writeBufferHighWaterMark"`
	WriteBufferLowWaterMark            int32 `prop:"writeBufferLowWaterMark"`
	ServerSocketBacklog                int32 `prop:"serverSocketBacklog"`
	ServerPooledByteBufAllocatorEnable bool  `prop:"serverPooledByteBufAllocatorEnable"`
	UseEpollNativeSelector             bool  `prop:"useEpollNativeSelector"`
}

// NettyClientConfig mirrors org.apache.rocketmq.remoting.netty.
// NettyClientConfig of 4.9.8: the broker's outgoing connections (to name
// servers, and a slave's to its master's remoting port).
type NettyClientConfig struct {
	ClientWorkerThreads                int32 `prop:"clientWorkerThreads"`
	ClientCallbackExecutorThreads      int32 `prop:"clientCallbackExecutorThreads"`
	ClientOnewaySemaphoreValue         int32 `prop:"clientOnewaySemaphoreValue"`
	ClientAsyncSemaphoreValue          int32 `prop:"clientAsyncSemaphoreValue"`
	ConnectTimeoutMillis               int32 `prop:"connectTimeoutMillis"`
	ChannelNotActiveInterval           int64 `prop:"channelNotActiveInterval"`
	ClientChannelMaxIdleTimeSeconds    int32 `prop:"clientChannelMaxIdleTimeSeconds"`
	ClientSocketSndBufSize             int32 `prop:"clientSocketSndBufSize"`
	ClientSocketRcvBufSize             int32 `prop:"clientSocketRcvBufSize"`
	ClientPooledByteBufAllocatorEnable bool  `prop:"clientPooledByteBufAllocatorEnable"`
	ClientCloseSocketIfTimeout         bool  `prop:"clientCloseSocketIfTimeout"`
	UseTLS                             bool  `prop:"useTLS"`
	WriteBufferHighWaterMark           int32 `prop:"writeBufferHighWaterMark"`
	WriteBufferLowWaterMark            int32 `prop:"writeBufferLowWaterMark"`
}

// nettySystem is NettySystemConfig: process-wide defaults read once from
// system properties (Java's static initializer).
type nettySystem struct {
	clientAsyncSemaphore, clientOnewaySemaphore int32
	sndBuf, rcvBuf, backlog                     int32
	clientWorkers, connectTimeout, clientIdle   int32
	clientCloseSocketIfTimeout                  bool
	highWater, lowWater                         int32
}

// intProp is one of NettySystemConfig's int properties: its key, default
// and where it lands.
type intProp struct {
	key, def string
	dst      *int32
}

func (n *nettySystem) ints() []intProp {
	return []intProp{
		{"com.rocketmq.remoting.clientAsyncSemaphoreValue", "65535", &n.clientAsyncSemaphore},
		{"com.rocketmq.remoting.clientOnewaySemaphoreValue", "65535", &n.clientOnewaySemaphore},
		{"com.rocketmq.remoting.socket.sndbuf.size", "0", &n.sndBuf},
		{"com.rocketmq.remoting.socket.rcvbuf.size", "0", &n.rcvBuf},
		{"com.rocketmq.remoting.socket.backlog", "1024", &n.backlog},
		{"com.rocketmq.remoting.client.worker.size", "4", &n.clientWorkers},
		{"com.rocketmq.remoting.client.connect.timeout", "3000", &n.connectTimeout},
		{"com.rocketmq.remoting.client.channel.maxIdleTimeSeconds", "120", &n.clientIdle},
		{"com.rocketmq.remoting.write.buffer.high.water.mark", "0", &n.highWater},
		{"com.rocketmq.remoting.write.buffer.low.water.mark", "0", &n.lowWater},
	}
}

// loadNettySystem reads NettySystemConfig's properties from m. A value
// Integer.parseInt rejects makes Java's class initialisation fail, which
// BrokerStartup reports as an exception (exit -1): ErrSystemProperty.
func loadNettySystem(m Machine) (nettySystem, error) {
	var n nettySystem
	for _, p := range n.ints() {
		s := p.def
		if v, ok := m.sysProp(p.key); ok {
			s = v
		}
		v, err := javalang.ParseInt(s)
		if err != nil {
			return n, fmt.Errorf("%w: -D%s=%q: %v", ErrSystemProperty, p.key, s, err)
		}
		*p.dst = v
	}
	n.clientCloseSocketIfTimeout = true
	if v, ok := m.sysProp("com.rocketmq.remoting.client.closeSocketIfTimeout"); ok {
		n.clientCloseSocketIfTimeout = javalang.ParseBool(v)
	}
	return n, nil
}

// DefaultNettyServerConfig returns `new NettyServerConfig()` on machine m
// (listenPort 8888, the class default; Load applies the broker's 10911).
func DefaultNettyServerConfig(m Machine) (NettyServerConfig, error) {
	n, err := loadNettySystem(m)
	if err != nil {
		return NettyServerConfig{}, err
	}
	return NettyServerConfig{
		ListenPort:                         8888,
		ServerWorkerThreads:                8,
		ServerSelectorThreads:              3,
		ServerOnewaySemaphoreValue:         256,
		ServerAsyncSemaphoreValue:          64,
		ServerChannelMaxIdleTimeSeconds:    120,
		ServerSocketSndBufSize:             n.sndBuf,
		ServerSocketRcvBufSize:             n.rcvBuf,
		WriteBufferHighWaterMark:           n.highWater,
		WriteBufferLowWaterMark:            n.lowWater,
		ServerSocketBacklog:                n.backlog,
		ServerPooledByteBufAllocatorEnable: true,
	}, nil
}

// DefaultNettyClientConfig returns `new NettyClientConfig()` on machine m
// (useTLS false, the class default; Load applies tls.enable).
func DefaultNettyClientConfig(m Machine) (NettyClientConfig, error) {
	n, err := loadNettySystem(m)
	if err != nil {
		return NettyClientConfig{}, err
	}
	return NettyClientConfig{
		ClientWorkerThreads:             n.clientWorkers,
		ClientCallbackExecutorThreads:   int32(m.Processors),
		ClientOnewaySemaphoreValue:      n.clientOnewaySemaphore,
		ClientAsyncSemaphoreValue:       n.clientAsyncSemaphore,
		ConnectTimeoutMillis:            n.connectTimeout,
		ChannelNotActiveInterval:        1000 * 60,
		ClientChannelMaxIdleTimeSeconds: n.clientIdle,
		ClientSocketSndBufSize:          n.sndBuf,
		ClientSocketRcvBufSize:          n.rcvBuf,
		ClientCloseSocketIfTimeout:      n.clientCloseSocketIfTimeout,
		WriteBufferHighWaterMark:        n.highWater,
		WriteBufferLowWaterMark:         n.lowWater,
	}, nil
}

// brokerUseTLS is BrokerStartup's
// parseBoolean(System.getProperty("tls.enable", tlsMode == ENFORCING)),
// where tlsMode is TlsMode.parse(tls.server.mode, default "permissive").
func brokerUseTLS(m Machine) bool {
	if v, ok := m.sysProp("tls.enable"); ok {
		return javalang.ParseBool(v)
	}
	mode, _ := m.sysProp("tls.server.mode")
	return mode == "enforcing"
}
