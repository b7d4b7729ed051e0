package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Properties is a Java .properties file kept in insertion order, so that
// the files the launcher writes read the same on every run.
type Properties struct {
	keys []string
	vals map[string]string
}

// Set sets key to value, keeping the position of an existing key.
func (p *Properties) Set(key, value string) {
	if p.vals == nil {
		p.vals = make(map[string]string)
	}
	if _, ok := p.vals[key]; !ok {
		p.keys = append(p.keys, key)
	}
	p.vals[key] = value
}

// Get returns the value of key.
func (p *Properties) Get(key string) (string, bool) {
	v, ok := p.vals[key]
	return v, ok
}

// Keys returns the keys in insertion order.
func (p *Properties) Keys() []string { return append([]string(nil), p.keys...) }

// Merge sets every entry of extra, in sorted key order.
func (p *Properties) Merge(extra map[string]string) {
	for _, k := range sortedKeys(extra) {
		p.Set(k, extra[k])
	}
}

// String renders the file: a comment line, then key=value lines, escaped
// the way java.util.Properties.store escapes them.
func (p *Properties) String() string {
	var b strings.Builder
	b.WriteString("# written by the Sputnik conformance launcher; read by both implementations\n")
	for _, k := range p.keys {
		b.WriteString(escapeProp(k, true))
		b.WriteByte('=')
		b.WriteString(escapeProp(p.vals[k], false))
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteFile writes the properties to path (creating its directory).
func (p *Properties) WriteFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(p.String()), 0o644)
}

// escapeProp escapes backslash, the separators, comment starters and
// non-printable characters; leading spaces of values and all spaces of keys
// are escaped as Properties.store does.
func escapeProp(s string, key bool) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == ' ' && (key || i == 0):
			b.WriteString(`\ `)
		case r == '=' || r == ':' || r == '#' || r == '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			if r > 0xFFFF {
				// Java strings are UTF-16: write the surrogate pair.
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04X\u%04X`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// NamesrvOptions configures one name server.
type NamesrvOptions struct {
	// Name names the node's directory under the run directory ("namesrv").
	Name string
	// Port is listenPort; 0 picks a free one.
	Port int
	// Extra entries are added to the properties file (and override ours).
	Extra map[string]string
	// Serialize is the server's serialize type (SerializeEnv), "" for
	// the default, JSON.
	Serialize string
}

// BrokerOptions configures one broker.
type BrokerOptions struct {
	// Name is brokerName (also the directory name), e.g. "broker-a".
	Name string
	// Cluster is brokerClusterName.
	Cluster string
	// ID is brokerId: 0 for a master.
	ID int
	// Role is brokerRole; "" means ASYNC_MASTER.
	Role string
	// Namesrv is the namesrvAddr ("ip:port;ip:port"), also passed with -n.
	Namesrv string
	// Port is listenPort; 0 picks a free base port p with p-2 (the VIP
	// channel) and p+1 (HA) free too.
	Port int
	// Extra entries are added to the properties file (and override ours).
	Extra map[string]string
	// Heap is the Java broker's -Xms/-Xmx; "" means the launcher's
	// JavaRuntime.BrokerHeap.
	Heap string
	// ACL, when set, turns the plain ACL on: aclEnable=true in the
	// properties file and ACL as $ROCKETMQ_HOME/conf/plain_acl.yml, the
	// file Java 4.9.8's PlainPermissionManager reads (and reloads when its
	// modification time changes).
	ACL string
	// Serialize is the server's serialize type (SerializeEnv), "" for
	// the default, JSON.
	Serialize string
}

// namesrvProperties is the properties file both name servers are started
// with (-c). Java 4.9.8 NamesrvStartup applies it to NamesrvConfig and
// NettyServerConfig, then sets configStorePath to the file itself.
func namesrvProperties(dir string, port int, extra map[string]string) *Properties {
	p := &Properties{}
	p.Set("listenPort", strconv.Itoa(port))
	p.Set("kvConfigPath", filepath.Join(dir, "kvConfig.json"))
	p.Set("configStorePath", filepath.Join(dir, NamesrvConfigFile))
	p.Merge(extra)
	return p
}

// brokerProperties is the properties file both brokers are started with
// (-c, plus -n). Sizes are small so that store directories stay small and
// files roll early; the same values go to both implementations so their
// store directories can be compared.
func brokerProperties(dir string, o BrokerOptions) *Properties {
	role := o.Role
	if role == "" {
		role = "ASYNC_MASTER"
	}
	p := &Properties{}
	p.Set("brokerClusterName", o.Cluster)
	p.Set("brokerName", o.Name)
	p.Set("brokerId", strconv.Itoa(o.ID))
	p.Set("brokerRole", role)
	p.Set("namesrvAddr", o.Namesrv)
	p.Set("listenPort", strconv.Itoa(o.Port))
	p.Set("brokerIP1", "127.0.0.1")
	p.Set("brokerIP2", "127.0.0.1")
	p.Set("storePathRootDir", filepath.Join(dir, "store"))
	p.Set("storePathCommitLog", filepath.Join(dir, "store", "commitlog"))
	p.Set("mappedFileSizeCommitLog", "104857600")
	p.Set("mappedFileSizeConsumeQueue", "600000")
	p.Set("maxHashSlotNum", "50000")
	p.Set("maxIndexNum", "200000")
	p.Set("flushDiskType", "ASYNC_FLUSH")
	p.Set("deleteWhen", "04")
	p.Set("fileReservedTime", "48")
	// The transaction check every second instead of every minute, so that
	// a scenario sees an unknown transaction resolved in seconds.
	p.Set("transactionCheckInterval", "1000")
	// SQL92 subscriptions (MessageSelector.bySql) need it; TAG ones are
	// not affected.
	p.Set("enablePropertyFilter", "true")
	if o.ACL != "" {
		p.Set("aclEnable", "true")
	}
	p.Merge(o.Extra)
	return p
}

// NamesrvConfigFile and BrokerConfigFile are the names of the properties
// files inside a node's directory.
const (
	NamesrvConfigFile = "namesrv.properties"
	BrokerConfigFile  = "broker.properties"
)

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
