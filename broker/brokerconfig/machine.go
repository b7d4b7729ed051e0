package brokerconfig

import (
	"net"
	"net/netip"
	"os"
	"runtime"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// Machine is everything about the host and the process that 4.9.8's
// BrokerConfig, NettyClientConfig and BrokerStartup read while building
// their defaults. Making it a value keeps DefaultBrokerConfig and Load
// deterministic in tests; LocalMachine fills it in from the real host.
type Machine struct {
	// UserHome is Java's user.home (store and log paths).
	UserHome string
	// Env is the process environment; ROCKETMQ_HOME and NAMESRV_ADDR are
	// read (present-but-empty counts as set, as System.getenv does).
	Env map[string]string
	// SystemProps stands for the JVM's -D system properties (a Java
	// launcher's JAVA_OPT); nil means none. Read: rocketmq.home.dir,
	// rocketmq.namesrv.addr, tls.enable, tls.server.mode,
	// rocketmq.namesrv.domain, rocketmq.namesrv.domain.subgroup and
	// NettySystemConfig's com.rocketmq.remoting.* keys.
	SystemProps map[string]string
	// HostName is BrokerConfig.localHostName(), the default brokerName:
	// the host name, or "DEFAULT_BROKER" when it does not resolve.
	HostName string
	// LocalAddress is RemotingUtil.getLocalAddress(), the default
	// brokerIP1 and brokerIP2 ("" where Java would have null).
	LocalAddress string
	// Processors is Runtime.availableProcessors() (thread-pool sizes).
	Processors int
}

// defaultBrokerName is localHostName's answer when the host name does not
// resolve (UnknownHostException).
const defaultBrokerName = "DEFAULT_BROKER"

// LocalMachine describes this host for a process with environment env and
// home directory userHome. It never fails: what cannot be found falls back
// as Java does.
func LocalMachine(env map[string]string, userHome string) Machine {
	return Machine{
		UserHome:     userHome,
		Env:          env,
		HostName:     localHostName(),
		LocalAddress: localAddress(),
		Processors:   runtime.NumCPU(),
	}
}

// EnvMap turns os.Environ-style "K=V" entries into the map Load takes.
func EnvMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

func (m Machine) sysProp(key string) (string, bool) {
	v, ok := m.SystemProps[key]
	return v, ok
}

// propOrEnv is System.getProperty(prop, System.getenv(env)): nil when
// neither is set.
func (m Machine) propOrEnv(prop, env string) *string {
	if v, ok := m.sysProp(prop); ok {
		return &v
	}
	if v, ok := m.Env[env]; ok {
		return &v
	}
	return nil
}

// localHostName is InetAddress.getLocalHost().getHostName(): the kernel's
// host name if it resolves, else DEFAULT_BROKER.
func localHostName() string {
	name, err := os.Hostname()
	if err != nil || name == "" {
		return defaultBrokerName
	}
	if _, err := net.LookupHost(name); err != nil {
		return defaultBrokerName
	}
	return name
}

// localAddress is RemotingUtil.getLocalAddress: over the interfaces that
// are not Linux bridges, the first non-loopback IPv4 address not starting
// "127.0" or "192.168", else the last non-loopback IPv4 address, else the
// first non-loopback IPv6 address in brackets; "" when there is none.
// Interfaces are visited in index order (Java's enumeration order may
// differ on hosts with several qualifying interfaces).
func localAddress() string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return ""
	}
	var v4, v6 []string
	for _, ifc := range ifaces {
		if isBridge(ifc.Name) {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.IsLoopback() {
				continue
			}
			if ip4 := ipn.IP.To4(); ip4 != nil {
				v4 = append(v4, ip4.String())
			} else {
				v6 = append(v6, javaIPv6(ipn.IP, ifc.Name))
			}
		}
	}
	return pickAddress(v4, v6)
}

// pickAddress is getLocalAddress's preference among the candidates.
func pickAddress(v4, v6 []string) string {
	for _, ip := range v4 {
		if !strings.HasPrefix(ip, "127.0") && !strings.HasPrefix(ip, "192.168") {
			return ip
		}
	}
	if len(v4) > 0 {
		return v4[len(v4)-1]
	}
	if len(v6) > 0 {
		return v6[0]
	}
	return ""
}

func isBridge(name string) bool {
	if runtime.GOOS != "linux" {
		return false
	}
	_, err := os.Stat("/sys/class/net/" + name + "/bridge")
	return err == nil
}

// javaIPv6 is RemotingUtil.normalizeHostAddress of an Inet6Address:
// "[" + getHostAddress() + "]"; a link-local address carries its
// interface as scope ("%eth0").
func javaIPv6(ip net.IP, iface string) string {
	a, _ := netip.AddrFromSlice(ip.To16())
	if ip.IsLinkLocalUnicast() && iface != "" {
		a = a.WithZone(iface)
	}
	return "[" + javalang.HostAddress(a) + "]"
}
