// Package cluster launches name servers and brokers of either
// implementation on loopback for the conformance harness: Sputnik's
// bin/mqnamesrv and bin/mqbroker, or the reference Apache RocketMQ servers
// (NamesrvStartup, BrokerStartup) from the conformance/java classpath. Both
// get the same Java-style properties file (-c) and, for brokers, -n.
//
// Every node has its own directory under the run directory, its own ports
// (see Ports) and captured output; handles can Stop (SIGTERM), Kill
// (SIGKILL), Start and Restart their process. KillAll ends every process the
// package started.
package cluster

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Impl names an implementation.
type Impl string

// The implementations.
const (
	Java    Impl = "java"
	Sputnik Impl = "sputnik"
)

// ParseImpl accepts "java" and "sputnik".
func ParseImpl(s string) (Impl, error) {
	switch Impl(s) {
	case Java, Sputnik:
		return Impl(s), nil
	}
	return "", fmt.Errorf("cluster: unknown implementation %q (want java or sputnik)", s)
}

// Other is the other implementation.
func (i Impl) Other() Impl {
	if i == Java {
		return Sputnik
	}
	return Java
}

// Program names the executable of a role, for messages.
func (i Impl) Program(r Role) string {
	switch {
	case i == Java && r == RoleNamesrv:
		return "java NamesrvStartup"
	case i == Java:
		return "java BrokerStartup"
	case r == RoleNamesrv:
		return "mqnamesrv"
	}
	return "mqbroker"
}

// Launcher starts nodes into one run directory.
type Launcher struct {
	// RunDir holds one directory per node.
	RunDir string
	// SputnikBin is the directory with mqnamesrv and mqbroker.
	SputnikBin string
	// Java runs the reference servers.
	Java JavaRuntime
	// Ports allocates listen ports.
	Ports *Ports
	// ReadyTimeout bounds each start (boot line + TCP accept); 0 = 90 s.
	ReadyTimeout time.Duration
	// BrokerConf is added to every broker's config file, under the
	// broker's own BrokerOptions.Extra.
	BrokerConf map[string]string
}

// nodeDir makes a fresh directory for a node; names repeat across clusters
// of one run, so a counter suffix keeps them apart.
func (l *Launcher) nodeDir(name string) (string, error) {
	for i := 0; ; i++ {
		dir := filepath.Join(l.RunDir, name)
		if i > 0 {
			dir = fmt.Sprintf("%s.%d", dir, i)
		}
		if err := os.Mkdir(dir, 0o755); err == nil {
			return dir, nil
		} else if !os.IsExist(err) {
			return "", err
		}
	}
}

// SerializeEnv is the variable both implementations read their server's
// serialize type from (Java's RemotingCommand falls back to it when the
// rocketmq.serialize.type property is unset).
const SerializeEnv = "ROCKETMQ_SERIALIZE_TYPE"

// env is a node's environment: ours without the variables a node gets
// its own of, then ROCKETMQ_HOME, HOME and, unless serialize is "", the
// serialize type.
func (l *Launcher) env(dir, home, serialize string) []string {
	env := make([]string, 0, len(os.Environ())+3)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "ROCKETMQ_HOME", "NAMESRV_ADDR", "HOME", SerializeEnv:
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "ROCKETMQ_HOME="+home, "HOME="+dir)
	if serialize != "" {
		env = append(env, SerializeEnv+"="+serialize)
	}
	return env
}

// StartNamesrv starts a name server and waits until it is ready.
func (l *Launcher) StartNamesrv(ctx context.Context, impl Impl, o NamesrvOptions) (*Node, error) {
	if o.Name == "" {
		o.Name = "namesrv"
	}
	if o.Port == 0 {
		p, err := l.Ports.Namesrv()
		if err != nil {
			return nil, err
		}
		o.Port = p
	}
	dir, err := l.nodeDir(o.Name + "-" + string(impl))
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, NamesrvConfigFile)
	if err := namesrvProperties(dir, o.Port, o.Extra).WriteFile(cfg); err != nil {
		return nil, err
	}
	n := &Node{Role: RoleNamesrv, Impl: impl, base: impl, Name: o.Name, Dir: dir, Config: cfg, Port: o.Port,
		boot: namesrvBoot, readyTimeout: l.ReadyTimeout, serialize: o.Serialize}
	if n.newCmd, err = l.commandFor(n, impl, nil, l.Java.NamesrvHeap); err != nil {
		return nil, err
	}
	return n, n.start(ctx)
}

// StartBroker starts a broker and waits until it is ready (boot line and
// TCP accept; registration with the name server is the caller's to check).
func (l *Launcher) StartBroker(ctx context.Context, impl Impl, o BrokerOptions) (*Node, error) {
	if o.Name == "" || o.Cluster == "" || o.Namesrv == "" {
		return nil, fmt.Errorf("cluster: broker needs Name, Cluster and Namesrv")
	}
	if o.Port == 0 {
		p, err := l.Ports.Broker()
		if err != nil {
			return nil, err
		}
		o.Port = p
	}
	dirName := o.Name
	if o.ID != 0 {
		dirName = fmt.Sprintf("%s-s%d", o.Name, o.ID) // a slave: broker-a-s1
	}
	dir, err := l.nodeDir(dirName + "-" + string(impl))
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, BrokerConfigFile)
	o.Extra = withDefaults(o.Extra, l.BrokerConf)
	if err := brokerProperties(dir, o).WriteFile(cfg); err != nil {
		return nil, err
	}
	n := &Node{Role: RoleBroker, Impl: impl, base: impl, Name: o.Name, BrokerID: o.ID, Dir: dir, Config: cfg,
		Port: o.Port, boot: brokerBoot, readyTimeout: l.ReadyTimeout, serialize: o.Serialize}
	heap := o.Heap
	if heap == "" {
		heap = l.Java.BrokerHeap
	}
	args := []string{"-n", o.Namesrv}
	if n.newCmd, err = l.commandFor(n, impl, args, heap); err != nil {
		return nil, err
	}
	n.other, n.otherErr = l.commandFor(n, impl.Other(), args, heap)
	if o.ACL != "" {
		if err := WriteACL(n.Home(), o.ACL); err != nil {
			return nil, err
		}
	}
	return n, n.start(ctx)
}

// commandFor returns the command factory of node n as implementation impl:
// the same arguments for both implementations, `-c <file> [-n addr]`; heap
// is the Java -Xms/-Xmx.
func (l *Launcher) commandFor(n *Node, impl Impl, extraArgs []string, heap string) (func() *exec.Cmd, error) {
	home := n.Home()
	if err := WriteRocketMQHome(home, filepath.Join(n.Dir, "logs"), "INFO"); err != nil {
		return nil, err
	}
	args := append([]string{"-c", n.Config}, extraArgs...)
	env := l.env(n.Dir, home, n.serialize)
	switch impl {
	case Java:
		if l.Java.Classpath == "" {
			return nil, fmt.Errorf("cluster: no Java classpath (run conformance/java/classpath.sh)")
		}
		main := NamesrvMain
		if n.Role == RoleBroker {
			main = BrokerMain
		}
		return func() *exec.Cmd {
			c := l.Java.command(n.Dir, heap, main, args...)
			c.Env = env
			return c
		}, nil
	case Sputnik:
		bin := filepath.Join(l.SputnikBin, "mqnamesrv")
		if n.Role == RoleBroker {
			bin = filepath.Join(l.SputnikBin, "mqbroker")
		}
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("cluster: %w (run `make build`)", err)
		}
		return func() *exec.Cmd {
			c := exec.Command(bin, args...)
			c.Env = env
			return c
		}, nil
	}
	return nil, fmt.Errorf("cluster: unknown implementation %q", impl)
}

// ACLFile is the plain ACL file of a ROCKETMQ_HOME: conf/plain_acl.yml
// (Java 4.9.8 PlainPermissionManager's default, the rocketmq.acl.plain.file
// property unset).
func ACLFile(home string) string { return filepath.Join(home, "conf", "plain_acl.yml") }

// WriteACL replaces home's plain ACL file with text in one rename, so that
// a running broker polling the file never reads half of it.
func WriteACL(home, text string) error {
	path := ACLFile(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// withDefaults is m with the entries of defaults it does not set.
func withDefaults(m, defaults map[string]string) map[string]string {
	if len(defaults) == 0 {
		return m
	}
	out := maps.Clone(defaults)
	maps.Copy(out, m)
	return out
}
