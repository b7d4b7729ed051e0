package namesrv

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sputnikmq/sputnik/compat/javaprops"
)

// Config mirrors org.apache.rocketmq.common.namesrv.NamesrvConfig of 4.9.8:
// same keys (the prop tags) and defaults, fields in Java's declaration
// order (which is the order `mqnamesrv -p` prints them in).
type Config struct {
	// RocketmqHome is nil when neither ROCKETMQ_HOME nor rocketmqHome is
	// set (Java null).
	RocketmqHome       *string `prop:"rocketmqHome"`
	KvConfigPath       string  `prop:"kvConfigPath"`
	ConfigStorePath    string  `prop:"configStorePath"`
	ProductEnvName     string  `prop:"productEnvName"`
	ClusterTest        bool    `prop:"clusterTest"`
	OrderMessageEnable bool    `prop:"orderMessageEnable"`
	// ConfigBlackList lists, ';'-separated, the keys UPDATE_NAMESRV_CONFIG
	// may not change (besides the four always refused).
	ConfigBlackList string `prop:"configBlackList"`
}

// NettyConfig mirrors org.apache.rocketmq.remoting.netty.NettyServerConfig:
// every key of 4.9.8 is accepted and printed. Sputnik's server uses
// ListenPort, ServerWorkerThreads, ServerChannelMaxIdleTimeSeconds and
// ServerAsyncSemaphoreValue; the Netty tuning knobs are kept for
// compatibility (and for GET_NAMESRV_CONFIG) only.
type NettyConfig struct {
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

// DefaultListenPort is the name server's port (NamesrvStartup sets it
// before reading the config file).
const DefaultListenPort = 9876

// DefaultConfig returns NamesrvConfig's defaults for a process whose home
// directory is userHome and whose ROCKETMQ_HOME is rocketmqHome (nil when
// unset).
func DefaultConfig(userHome string, rocketmqHome *string) Config {
	return Config{
		RocketmqHome:    rocketmqHome,
		KvConfigPath:    filepath.Join(userHome, "namesrv", "kvConfig.json"),
		ConfigStorePath: filepath.Join(userHome, "namesrv", "namesrv.properties"),
		ProductEnvName:  "center",
		ConfigBlackList: "configBlackList;configStorePath;kvConfigPath",
	}
}

// DefaultNettyConfig returns NettyServerConfig's defaults with the name
// server's port.
func DefaultNettyConfig() NettyConfig {
	return NettyConfig{
		ListenPort:                         DefaultListenPort,
		ServerWorkerThreads:                8,
		ServerSelectorThreads:              3,
		ServerOnewaySemaphoreValue:         256,
		ServerAsyncSemaphoreValue:          64,
		ServerChannelMaxIdleTimeSeconds:    120,
		ServerSocketBacklog:                1024,
		ServerPooledByteBufAllocatorEnable: true,
	}
}

// EnvRocketmqHome reads ROCKETMQ_HOME as NamesrvConfig's initializer does
// (the rocketmq.home.dir system property has no Go equivalent).
func EnvRocketmqHome() *string {
	if v, ok := os.LookupEnv("ROCKETMQ_HOME"); ok {
		return &v
	}
	return nil
}

// LoadConfigFile applies a `-c` properties file as NamesrvStartup does:
// every key of NamesrvConfig and NettyServerConfig is bound with Java's
// parsing, configStorePath becomes the file itself (so
// UPDATE_NAMESRV_CONFIG rewrites it), and the properties are returned to
// be remembered by the server (Options.FileProps). unknown lists the keys
// neither config has (Java ignores them silently); bad reports values Java
// would have rejected (the field keeps its value).
func LoadConfigFile(path string, cfg *Config, netty *NettyConfig) (props *javaprops.Properties, unknown []string, bad error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	props, err = javaprops.Parse(f)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	unknown, bad = javaprops.Bind(props, cfg, netty)
	cfg.ConfigStorePath = path
	return props, unknown, bad, nil
}
