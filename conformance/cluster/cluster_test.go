package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a fake server: with CONFORMANCE_FAKE set it
// reads listenPort from the -c file, listens, prints the boot line of its
// role and waits for SIGTERM. CONFORMANCE_FAKE=fail prints a message and
// exits 1 the way the unimplemented Sputnik binaries do.
func TestMain(m *testing.M) {
	if role := os.Getenv("CONFORMANCE_FAKE"); role != "" {
		os.Exit(fakeServer(role))
	}
	os.Exit(m.Run())
}

func fakeServer(role string) int {
	if role == "fail" {
		fmt.Fprintln(os.Stderr, "fake: not implemented yet")
		return 1
	}
	var cfg string
	for i, a := range os.Args {
		if a == "-c" && i+1 < len(os.Args) {
			cfg = os.Args[i+1]
		}
	}
	if args := os.Getenv("CONFORMANCE_FAKE_ARGS"); args != "" {
		os.WriteFile(args, []byte(strings.Join(os.Args[1:], " ")), 0o644)
	}
	port := ""
	f, err := os.Open(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "listenPort="); ok {
			port = v
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	// The serialize type from the environment, as both servers read it;
	// "namesrv-json" ignores it.
	st := os.Getenv(SerializeEnv)
	if st == "" || role == "namesrv-json" {
		st = "JSON"
	}
	if strings.HasPrefix(role, "namesrv") {
		fmt.Println("The Name Server boot success. serializeType=" + st)
	} else {
		fmt.Printf("The broker[broker-a, 127.0.0.1:%s] boot success. serializeType=%s and name server is x\n", port, st)
	}
	<-sig
	fmt.Println("fake: stopping")
	return 0
}

// fakeLauncher returns a launcher whose "sputnik" binaries are scripts
// running this test binary as a fake server of the given kinds.
func fakeLauncher(t *testing.T, namesrvKind, brokerKind string) *Launcher {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	for name, kind := range map[string]string{"mqnamesrv": namesrvKind, "mqbroker": brokerKind} {
		script := fmt.Sprintf("#!/bin/sh\nCONFORMANCE_FAKE=%s exec %q \"$@\"\n", kind, exe)
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &Launcher{RunDir: t.TempDir(), SputnikBin: bin, Ports: DefaultPorts(), ReadyTimeout: 20 * time.Second}
}

func TestNodeLifecycle(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	ctx := context.Background()
	ns, err := l.StartNamesrv(ctx, Sputnik, NamesrvOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Kill()
	if !ns.Running() || ns.Pid() == 0 {
		t.Fatal("namesrv not running after start")
	}
	if launched, booted := ns.Launched(); launched.IsZero() || booted.Before(launched) {
		t.Errorf("launched %v, boot line read %v: want both, in that order", launched, booted)
	}
	if c, err := net.Dial("tcp", ns.Addr()); err != nil {
		t.Fatalf("dial %s: %v", ns.Addr(), err)
	} else {
		c.Close()
	}
	if err := ns.Kill(); err != nil {
		t.Fatal(err)
	}
	if ns.Running() {
		t.Fatal("running after Kill")
	}
	if err := ns.Start(ctx); err != nil {
		t.Fatalf("start after kill: %v", err)
	}
	if err := ns.Restart(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if err := ns.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(ns.StdoutPath())
	if got := strings.Count(string(out), "=== start #"); got != 3 {
		t.Errorf("stdout.log has %d start banners, want 3:\n%s", got, out)
	}
	if !strings.Contains(string(out), "fake: stopping") {
		t.Errorf("SIGTERM did not reach the server:\n%s", out)
	}
}

func TestBrokerCommandLine(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	argsFile := filepath.Join(t.TempDir(), "args")
	t.Setenv("CONFORMANCE_FAKE_ARGS", argsFile)
	b, err := l.StartBroker(context.Background(), Sputnik, BrokerOptions{Name: "broker-a", Cluster: "C", Namesrv: "127.0.0.1:9876"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	args, _ := os.ReadFile(argsFile)
	if want := "-c " + b.Config + " -n 127.0.0.1:9876"; string(args) != want {
		t.Errorf("broker args %q, want %q", args, want)
	}
	props, _ := os.ReadFile(b.Config)
	for _, want := range []string{"brokerName=broker-a\n", "brokerClusterName=C\n", "brokerIP1=127.0.0.1\n",
		fmt.Sprintf("listenPort=%d\n", b.Port), "namesrvAddr=127.0.0.1\\:9876\n"} {
		if !strings.Contains(string(props), want) {
			t.Errorf("broker.properties lacks %q:\n%s", want, props)
		}
	}
	if _, err := os.Stat(filepath.Join(b.Dir, "home", "conf", "logback_broker.xml")); err != nil {
		t.Errorf("ROCKETMQ_HOME not written: %v", err)
	}
}

func TestServerSerialize(t *testing.T) {
	t.Setenv(SerializeEnv, "ROCKETMQ") // ours is not passed on: each node gets its own
	ctx := context.Background()
	l := fakeLauncher(t, "namesrv", "broker")
	ns, err := l.StartNamesrv(ctx, Sputnik, NamesrvOptions{Serialize: "ROCKETMQ"})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Kill()
	b, err := l.StartBroker(ctx, Sputnik, BrokerOptions{Name: "broker-a", Cluster: "C", Namesrv: ns.Addr(), Serialize: "ROCKETMQ"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	plain, err := l.StartNamesrv(ctx, Sputnik, NamesrvOptions{Name: "plain"})
	if err != nil {
		t.Fatalf("a node without Serialize gets none (the fake prints JSON then): %v", err)
	}
	defer plain.Kill()

	_, err = fakeLauncher(t, "namesrv-json", "broker").StartNamesrv(ctx, Sputnik, NamesrvOptions{Serialize: "ROCKETMQ"})
	if err == nil || !strings.Contains(err.Error(), "want serializeType=ROCKETMQ") {
		t.Fatalf("a server that ignores %s started: %v", SerializeEnv, err)
	}
}

func TestExitBeforeBoot(t *testing.T) {
	l := fakeLauncher(t, "fail", "fail")
	_, err := l.StartNamesrv(context.Background(), Sputnik, NamesrvOptions{})
	if !errors.Is(err, ErrExited) {
		t.Fatalf("want ErrExited, got %v", err)
	}
	for _, want := range []string{"mqnamesrv", "exit status 1", "fake: not implemented yet"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestMissingSputnikBinary(t *testing.T) {
	l := &Launcher{RunDir: t.TempDir(), SputnikBin: t.TempDir(), Ports: DefaultPorts()}
	if _, err := l.StartNamesrv(context.Background(), Sputnik, NamesrvOptions{}); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Fatalf("want a hint to run make build, got %v", err)
	}
}

func TestKillAll(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	ns, err := l.StartNamesrv(context.Background(), Sputnik, NamesrvOptions{Name: "killall"})
	if err != nil {
		t.Fatal(err)
	}
	KillAll()
	if ns.Running() {
		t.Fatal("KillAll left the node running")
	}
}

func TestParseImpl(t *testing.T) {
	for _, s := range []string{"java", "sputnik"} {
		if _, err := ParseImpl(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseImpl("go"); err == nil {
		t.Error("ParseImpl(go) succeeded")
	}
}

func TestSlaveBroker(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	b, err := l.StartBroker(context.Background(), Sputnik, BrokerOptions{
		Name: "broker-a", Cluster: "C", Namesrv: "127.0.0.1:9876", ID: 1, Role: "SLAVE"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	if b.Name != "broker-a" || b.BrokerID != 1 || filepath.Base(b.Dir) != "broker-a-s1-sputnik" {
		t.Errorf("slave node %s in %s", b, b.Dir)
	}
	if !strings.HasPrefix(b.String(), "broker-a#1 (sputnik, ") {
		t.Errorf("String() = %q", b)
	}
	props, _ := os.ReadFile(b.Config)
	for _, want := range []string{"brokerName=broker-a\n", "brokerId=1\n", "brokerRole=SLAVE\n"} {
		if !strings.Contains(string(props), want) {
			t.Errorf("broker.properties lacks %q:\n%s", want, props)
		}
	}
}

func TestACLBroker(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	const yml = "accounts:\n- accessKey: RocketMQ\n  secretKey: \"12345678\"\n"
	b, err := l.StartBroker(context.Background(), Sputnik, BrokerOptions{
		Name: "broker-a", Cluster: "C", Namesrv: "127.0.0.1:9876", ACL: yml})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	props, _ := os.ReadFile(b.Config)
	if !strings.Contains(string(props), "aclEnable=true\n") {
		t.Errorf("broker.properties lacks aclEnable=true:\n%s", props)
	}
	if got, err := os.ReadFile(filepath.Join(b.Dir, "home", "conf", "plain_acl.yml")); err != nil || string(got) != yml {
		t.Errorf("plain_acl.yml = %q, %v; want %q", got, err, yml)
	}
	if err := WriteACL(b.Home(), "accounts: []\n"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(ACLFile(b.Home())); string(got) != "accounts: []\n" {
		t.Errorf("after WriteACL: %q", got)
	}
	if _, err := os.Stat(ACLFile(b.Home()) + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
}

func TestShapeString(t *testing.T) {
	for _, c := range []struct {
		s     Shape
		want  string
		nodes int
	}{
		{Shape{Namesrv: Sputnik, Broker: Java, Brokers: 1}, "ns=sputnik broker=java x1", 1},
		{Shape{Namesrv: Java, Broker: Java, Brokers: 2}, "ns=java broker=java x2", 2},
		{Shape{Namesrv: Java, Broker: Java, Brokers: 1, Slave: true}, "ns=java broker=java x1+slave", 2},
		{Shape{Namesrv: Java, Broker: Java, Brokers: 1, ACL: "accounts: []\n"}, "ns=java broker=java x1 acl=d4812a3e", 1},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
		if got := c.s.BrokerNodes(); got != c.nodes {
			t.Errorf("%s: BrokerNodes() = %d, want %d", c.s, got, c.nodes)
		}
	}
}

func TestMinHeap(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"1g", "512m", "512m"},
		{"256m", "512m", "256m"},
		{"512m", "512m", "512m"},
		{"", "512m", "512m"},
		{"lots", "512m", "512m"},
		{"2048k", "512m", "2048k"},
		{"1G", "2g", "1G"},
	} {
		if got := minHeap(c.a, c.b); got != c.want {
			t.Errorf("minHeap(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// A broker switches to the other implementation on the same directory,
// configuration and port while stopped, and back; a name server and a
// running broker refuse; Heal leaves unswitched nodes alone.
func TestSwitchImpl(t *testing.T) {
	l := fakeLauncher(t, "namesrv", "broker")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	java := filepath.Join(t.TempDir(), "java")
	script := fmt.Sprintf("#!/bin/sh\nCONFORMANCE_FAKE=broker exec %q \"$@\"\n", exe)
	if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	l.Java = JavaRuntime{Bin: java, Classpath: "fake.jar"}
	ctx := context.Background()
	ns, err := l.StartNamesrv(ctx, Sputnik, NamesrvOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Kill()
	b, err := l.StartBroker(ctx, Sputnik, BrokerOptions{Name: "broker-a", Cluster: "c", Namesrv: ns.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	nsPid := ns.Pid()
	if err := (&Cluster{Namesrv: ns, Brokers: []*Node{b}}).Heal(ctx); err != nil || ns.Pid() != nsPid {
		t.Fatalf("Heal of a healthy cluster: %v, name server pid %d → %d", err, nsPid, ns.Pid())
	}
	if err := b.SwitchImpl(); err == nil {
		t.Fatal("switched a running broker")
	}
	if err := ns.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := ns.SwitchImpl(); err == nil {
		t.Fatal("switched a name server")
	}
	cmdline := func() string {
		raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", b.Pid()))
		return strings.ReplaceAll(string(raw), "\x00", " ")
	}
	for _, want := range []Impl{Java, Sputnik} {
		if err := b.Stop(10 * time.Second); err != nil {
			t.Fatal(err)
		}
		if err := b.SwitchImpl(); err != nil {
			t.Fatal(err)
		}
		if b.Impl != want || b.Switched() != (want == Java) {
			t.Fatalf("after switching: impl %s switched %v, want %s", b.Impl, b.Switched(), want)
		}
		if err := b.Start(ctx); err != nil {
			t.Fatal(err)
		}
		isJava := strings.Contains(cmdline(), BrokerMain)
		if isJava != (want == Java) || !strings.Contains(cmdline(), "-c "+b.Config) {
			t.Fatalf("running as %s: command line %q", want, cmdline())
		}
	}
}
