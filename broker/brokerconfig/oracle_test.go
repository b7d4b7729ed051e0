package brokerconfig

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/compat/oracle"
)

// javaProcessors pins Runtime.availableProcessors() in every JVM the tests
// start (-XX:ActiveProcessorCount) and Machine.Processors on the Go side.
const javaProcessors = 3

// javaRun runs main class cls of the oracle classpath with the
// environment's ROCKETMQ_HOME and NAMESRV_ADDR replaced by env (absent keys
// unset) and returns stdout and the exit status.
func javaRun(t *testing.T, env map[string]string, jvmProps []string, cls string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{"-cp", oracle.Classpath(t), "-XX:ActiveProcessorCount=" + strconv.Itoa(javaProcessors)}, jvmProps...)
	full = append(full, cls)
	cmd := exec.CommandContext(ctx, "java", append(full, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROCKETMQ_HOME=") && !strings.HasPrefix(kv, "NAMESRV_ADDR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "JAVA_TOOL_OPTIONS=")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("java %s %v: %v\n%s", cls, args, err, stderr.String())
	}
	return stdout.String(), cmd.ProcessState.ExitCode()
}

// marked renders obj as ConfigPrint does: "name=value" per field, with
// " important" after @ImportantField fields.
func marked(t *testing.T, obj any) string {
	t.Helper()
	all, err := javaprops.Lines(obj, false)
	require.NoError(t, err)
	important, err := javaprops.Lines(obj, true)
	require.NoError(t, err)
	isImportant := map[string]bool{}
	for _, l := range important {
		isImportant[l] = true
	}
	var b strings.Builder
	for _, l := range all {
		b.WriteString(l)
		if isImportant[l] {
			b.WriteString(" important")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// pinned is a machine whose host-dependent answers are placeholders; the
// tests replace Java's real values by the same placeholders.
func pinned(env map[string]string) Machine {
	return Machine{UserHome: "/HOME", Env: env, HostName: "HOST", LocalAddress: "IP", Processors: javaProcessors}
}

var (
	javaHostOnce           sync.Once
	javaHostName, javaAddr string
)

// javaHost returns Java's BrokerConfig defaults for brokerName and
// brokerIP1 on this host.
func javaHost(t *testing.T) (name, addr string) {
	t.Helper()
	javaHostOnce.Do(func() {
		out, code := javaRun(t, nil, nil, "io.sputnikmq.compat.ConfigPrint", "org.apache.rocketmq.common.BrokerConfig")
		require.Zero(t, code)
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimSuffix(l, " important")
			if v, ok := strings.CutPrefix(l, "brokerName="); ok {
				javaHostName = v
			}
			if v, ok := strings.CutPrefix(l, "brokerIP1="); ok {
				javaAddr = v
			}
		}
	})
	return javaHostName, javaAddr
}

// unhost replaces Java's host-derived BrokerConfig defaults (brokerIP1,
// brokerIP2, brokerName; lines keeping this host's values) by pinned()'s
// placeholders.
func unhost(t *testing.T, s string) string {
	name, addr := javaHost(t)
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		k, v, _ := strings.Cut(l, "=")
		v = strings.TrimSuffix(strings.TrimSuffix(v, "\n"), " important")
		switch {
		case k == "brokerName" && v == name:
			lines[i] = strings.Replace(l, "="+name, "=HOST", 1)
		case (k == "brokerIP1" || k == "brokerIP2") && v == addr:
			lines[i] = strings.Replace(l, "="+addr, "=IP", 1)
		}
	}
	return strings.Join(lines, "")
}

// Java 4.9.8: BrokerConfig's fields, defaults and @ImportantField marks
// in declaration order, with and without ROCKETMQ_HOME / NAMESRV_ADDR and
// their system-property overrides.
func TestBrokerConfigMatchesJava(t *testing.T) {
	cases := []struct {
		name  string
		env   map[string]string
		props map[string]string
	}{
		{"bare", nil, nil},
		{"env", map[string]string{"ROCKETMQ_HOME": "/opt/rmq", "NAMESRV_ADDR": "n1:9876;n2:9876"}, nil},
		{"empty env", map[string]string{"ROCKETMQ_HOME": "", "NAMESRV_ADDR": ""}, nil},
		{"props win", map[string]string{"ROCKETMQ_HOME": "/opt/rmq"},
			map[string]string{"rocketmq.home.dir": "/d/home", "rocketmq.namesrv.addr": "p:1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var jvm []string
			for k, v := range tc.props {
				jvm = append(jvm, "-D"+k+"="+v)
			}
			want, code := javaRun(t, tc.env, jvm, "io.sputnikmq.compat.ConfigPrint", "org.apache.rocketmq.common.BrokerConfig")
			require.Zero(t, code)
			m := pinned(tc.env)
			m.SystemProps = tc.props
			cfg := DefaultBrokerConfig(m)
			require.Equal(t, unhost(t, want), marked(t, &cfg))
		})
	}
}

// Java 4.9.8: NettyServerConfig and NettyClientConfig defaults, plain and
// with NettySystemConfig's system properties set.
func TestNettyConfigsMatchJava(t *testing.T) {
	sys := map[string]string{
		"com.rocketmq.remoting.socket.sndbuf.size":                "65536",
		"com.rocketmq.remoting.socket.rcvbuf.size":                "131072",
		"com.rocketmq.remoting.socket.backlog":                    "77",
		"com.rocketmq.remoting.client.worker.size":                "9",
		"com.rocketmq.remoting.client.connect.timeout":            "+1234",
		"com.rocketmq.remoting.client.channel.maxIdleTimeSeconds": "5",
		"com.rocketmq.remoting.client.closeSocketIfTimeout":       "TRUE1",
		"com.rocketmq.remoting.clientAsyncSemaphoreValue":         "11",
		"com.rocketmq.remoting.clientOnewaySemaphoreValue":        "12",
		"com.rocketmq.remoting.write.buffer.high.water.mark":      "4096",
		"com.rocketmq.remoting.write.buffer.low.water.mark":       "1024",
	}
	for _, props := range []map[string]string{nil, sys} {
		var jvm []string
		for k, v := range props {
			jvm = append(jvm, "-D"+k+"="+v)
		}
		m := pinned(nil)
		m.SystemProps = props
		server, err := DefaultNettyServerConfig(m)
		require.NoError(t, err)
		client, err := DefaultNettyClientConfig(m)
		require.NoError(t, err)
		want, code := javaRun(t, nil, jvm, "io.sputnikmq.compat.ConfigPrint", "org.apache.rocketmq.remoting.netty.NettyServerConfig")
		require.Zero(t, code)
		require.Equal(t, want, marked(t, &server))
		want, code = javaRun(t, nil, jvm, "io.sputnikmq.compat.ConfigPrint", "org.apache.rocketmq.remoting.netty.NettyClientConfig")
		require.Zero(t, code)
		require.Equal(t, want, marked(t, &client))
	}
	m := pinned(nil)
	m.SystemProps = map[string]string{"com.rocketmq.remoting.socket.backlog": "x"}
	_, err := DefaultNettyServerConfig(m)
	require.ErrorIs(t, err, ErrSystemProperty)
}

// Java 4.9.8: BrokerConfig.localHostName() and RemotingUtil.getLocalAddress()
// on this host are what LocalMachine finds.
func TestLocalMachineMatchesJava(t *testing.T) {
	out, code := javaRun(t, nil, nil, "io.sputnikmq.compat.ConfigPrint", "org.apache.rocketmq.common.BrokerConfig")
	require.Zero(t, code)
	m := LocalMachine(nil, "/HOME")
	require.Contains(t, out, "\nbrokerIP1="+m.LocalAddress+" important\n")
	require.Contains(t, out, "\nbrokerName="+m.HostName+" important\n")
}

// loadFileJava runs BrokerConfigLoad on file and splits its output by
// class.
func loadFileJava(t *testing.T, file string) map[string]string {
	t.Helper()
	out, code := javaRun(t, nil, []string{"-Duser.home=/HOME"}, "io.sputnikmq.compat.BrokerConfigLoad", file)
	require.Zero(t, code, out)
	blocks := map[string]string{}
	var cur string
	for _, l := range strings.SplitAfter(out, "\n") {
		if name, ok := strings.CutPrefix(l, "# "); ok {
			cur = strings.TrimSpace(name)
			continue
		}
		blocks[cur] += l
	}
	return blocks
}

// Java 4.9.8: BrokerStartup's Properties.load + properties2Object of one
// file into the four config objects gives what Load's binding gives,
// including values Java rejects (kept defaults), untrimmed numbers,
// keys shared by two classes and non-ASCII bytes.
func TestBindMatchesJava(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conf", "*", "*.properties"))
	require.NoError(t, err)
	files = append(files, filepath.Join("testdata", "conf", "broker.conf"), filepath.Join("testdata", "tricky.properties"))
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			s, err := pinned(nil).defaults()
			require.NoError(t, err)
			require.NoError(t, s.loadFile(file))
			want := loadFileJava(t, file)
			require.Equal(t, unhost(t, want["BrokerConfig"]), marked(t, &s.Broker))
			require.Equal(t, want["NettyServerConfig"], marked(t, &s.NettyServer))
			require.Equal(t, want["NettyClientConfig"], marked(t, &s.NettyClient))
			require.Equal(t, want["MessageStoreConfig"], marked(t, &s.Store))
		})
	}
}
