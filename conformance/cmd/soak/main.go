// Command soak runs official client-go (v2.1.2) producers and push
// consumers against one broker for a long time and watches what the
// servers keep: it finds leaks and the races that only show after
// thousands of clients have come and gone.
//
// Each cycle is a client process of its own. It sends -msgs messages to
// its slot's topic, consumes them with a push consumer of one of ten
// groups per slot (each group has at most one member at a time, so the
// consumer must receive every message it sent) and then either shuts
// down cleanly (even cycles) or exits without a word (odd cycles, as a
// killed client leaves its connections). -slots cycles run at once.
// Cycles take the -kinds in turn: plain sends, orderly ones by sharding
// key, delayed, retried by the consumer, transactional, and filtered by
// tag and by SQL92, each with the
// promise its consumer checks (kinds.go), and the official Java client's
// sync, orderly and lite-pull cycles, of 4.9.8 or of the -java-clients
// versions in turn (clients.go).
//
// Every -every the name server's and the broker's resident memory, its
// anonymous part, threads and open files are printed. At the end, once
// every client has gone, no consumer group may still list a member: a
// member left behind is one the broker's close event missed, and its
// group's rebalance would hand it queues nobody consumes.
//
// With -n the servers are already running (give -broker for the final
// check and -pid for the samples); otherwise soak starts a name server and
// a broker of -impl (sputnik from -bin, or Java 4.9.8 from the
// conformance/java classpath) under -rundir. Then -restart-every restarts
// the broker under the load, twice by SIGKILL, twice by SIGTERM, and so on, and
// -switch makes every restart an in-place migration to the other
// implementation on the same store. Clients retry their sends while the
// broker is away; every message a send was acknowledged for must still
// reach its consumer. -slave gives the broker a slave (-slave-impl,
// -master-role); -restart-which says whether the restarts hit the master,
// the slave or both in turn, and at the end the slave's commit log must be
// its master's, byte for byte (ha.go).
//
// Exit status: 0 when every cycle received its messages and no member was
// left behind, 1 otherwise, 2 on setup errors.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

type options struct {
	namesrv, broker string
	pids            func() []int
	impl            cluster.Impl
	bin, classpath  string
	// javaCP is the Java client's classpath, for the j kinds' cycles;
	// javaClients and clientCP replace it with other versions (clients.go).
	javaCP          string
	javaClients     []string
	clientCP        map[string]string
	runDir          string
	duration, every time.Duration
	cycleTimeout    time.Duration
	slots, msgs     int
	kinds           []string
	worker          string
	// restartEvery and switchImpl: see the package doc; brokerNode is the
	// broker soak started (nil with -n).
	restartEvery time.Duration
	switchImpl   bool
	brokerNode   *cluster.Node
	// slave, slaveImpl, masterRole and restartWhich: see ha.go; slaveNode
	// is the slave soak started.
	slave        bool
	slaveImpl    cluster.Impl
	masterRole   string
	restartWhich string
	slaveNode    *cluster.Node
}

func main() { os.Exit(run()) }

func run() int {
	o, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 2
	}
	brokerbench.QuietClientGo()
	if o.worker != "" {
		return runWorker(o)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer cluster.KillAll()
	if o.namesrv == "" {
		if err := startServers(ctx, &o); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			return 2
		}
	} else if anyJava(o.kinds) && len(o.javaClients) == 0 {
		if err := javaClasspath(ctx, &o); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			return 2
		}
	}
	if err := resolveClients(ctx, &o); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 2
	}
	return drive(ctx, o)
}

func parseFlags() (options, error) {
	var o options
	var pids, impl, kinds, slaveImpl, javaClients string
	flag.StringVar(&o.namesrv, "n", "", "name server of running servers (empty: start them)")
	flag.StringVar(&o.broker, "broker", "", "the broker's address, with -n, for the final check")
	flag.StringVar(&pids, "pid", "", "processes to sample, with -n (comma-separated)")
	flag.StringVar(&impl, "impl", "sputnik", "servers to start without -n: sputnik or java")
	flag.StringVar(&o.bin, "bin", "", "directory with Sputnik's mqnamesrv and mqbroker (default <repo>/bin)")
	flag.StringVar(&o.classpath, "java-classpath", "", "conformance/java/classpath.sh or a file holding a classpath (-impl java, -switch, the j kinds)")
	flag.StringVar(&o.runDir, "rundir", "", "directory for the servers' files (default a new temp dir)")
	flag.DurationVar(&o.duration, "d", 10*time.Minute, "how long to start new cycles")
	flag.DurationVar(&o.every, "every", 30*time.Second, "sample interval")
	flag.DurationVar(&o.cycleTimeout, "cycle-timeout", time.Minute, "how long a cycle's consumer may take")
	flag.IntVar(&o.slots, "slots", 2, "client processes at once")
	flag.IntVar(&o.msgs, "msgs", 100, "messages each cycle sends and consumes")
	flag.StringVar(&kinds, "kinds", strings.Join(allKinds, ","), "the cycles' kinds, taken in turn: "+strings.Join(allKinds, ","))
	flag.StringVar(&javaClients, "java-clients", "", "versions of the official Java client (Maven Central) the j kinds' cycles take in turn, e.g. 4.3.2,4.7.1,5.3.1 (default: the harness's 4.9.8)")
	flag.StringVar(&o.worker, "worker", "", "internal: run one cycle, slot,cycle")
	flag.DurationVar(&o.restartEvery, "restart-every", 0, "restart the broker this often, by SIGKILL twice, SIGTERM twice, ... (0: never; not with -n)")
	flag.BoolVar(&o.switchImpl, "switch", false, "each restart switches the broker to the other implementation on the same store")
	flag.BoolVar(&o.slave, "slave", false, "give the broker a slave (brokerId 1); at the end its commit log must be the master's (not with -n)")
	flag.StringVar(&slaveImpl, "slave-impl", "", "the slave's implementation (default -impl's)")
	flag.StringVar(&o.masterRole, "master-role", "ASYNC_MASTER", "the master's brokerRole with -slave: ASYNC_MASTER or SYNC_MASTER")
	flag.StringVar(&o.restartWhich, "restart-which", "master", "what -restart-every restarts with -slave: master, slave or both (in turn)")
	flag.Parse()
	var err error
	if o.impl, err = cluster.ParseImpl(impl); err != nil {
		return o, err
	}
	if o.kinds, err = parseKinds(kinds); err != nil {
		return o, err
	}
	if o.javaClients, err = parseVersions(javaClients); err != nil {
		return o, err
	}
	if err := checkClients(o.javaClients, o.kinds); err != nil {
		return o, err
	}
	o.slaveImpl = o.impl
	if slaveImpl != "" {
		if o.slaveImpl, err = cluster.ParseImpl(slaveImpl); err != nil {
			return o, err
		}
	}
	switch {
	case o.restartWhich != "master" && o.restartWhich != "slave" && o.restartWhich != "both":
		return o, fmt.Errorf("-restart-which %q: master, slave or both", o.restartWhich)
	case o.masterRole != "ASYNC_MASTER" && o.masterRole != "SYNC_MASTER":
		return o, fmt.Errorf("-master-role %q: ASYNC_MASTER or SYNC_MASTER", o.masterRole)
	case o.namesrv != "" && o.slave:
		return o, fmt.Errorf("-slave needs servers soak starts (no -n)")
	}
	if o.namesrv != "" && (o.restartEvery > 0 || o.switchImpl) {
		return o, fmt.Errorf("-restart-every and -switch need servers soak starts (no -n)")
	}
	var list []int
	for _, p := range strings.Split(pids, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return o, fmt.Errorf("-pid %q: %w", p, err)
		}
		list = append(list, n)
	}
	o.pids = func() []int { return list }
	return o, nil
}

// startServers starts a name server and a broker of o.impl and points o
// at them.
func startServers(ctx context.Context, o *options) error {
	l, err := newLauncher(ctx, *o)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "soak: %s servers under %s\n", o.impl, l.RunDir)
	ns, err := l.StartNamesrv(ctx, o.impl, cluster.NamesrvOptions{})
	if err != nil {
		return fmt.Errorf("name server: %w", err)
	}
	role := ""
	if o.slave {
		role = o.masterRole
	}
	b, err := l.StartBroker(ctx, o.impl, cluster.BrokerOptions{Name: "broker-soak", Cluster: "SoakCluster", Namesrv: ns.Addr(),
		Role: role, Extra: brokerConf})
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	o.namesrv, o.broker, o.brokerNode, o.javaCP = ns.Addr(), b.Addr(), b, l.Java.Classpath
	o.pids = func() []int { return []int{ns.Pid(), b.Pid()} }
	if !o.slave {
		return nil
	}
	s, err := l.StartBroker(ctx, o.slaveImpl, cluster.BrokerOptions{Name: "broker-soak", Cluster: "SoakCluster", Namesrv: ns.Addr(),
		ID: 1, Role: "SLAVE", Extra: brokerConf})
	if err != nil {
		return fmt.Errorf("slave: %w", err)
	}
	o.slaveNode = s
	o.pids = func() []int { return []int{ns.Pid(), b.Pid(), s.Pid()} }
	return nil
}

// javaClasspath resolves -java-classpath (default conformance/java's
// classpath.sh) for the j kinds when soak starts no servers.
func javaClasspath(ctx context.Context, o *options) error {
	path := o.classpath
	if path == "" {
		root, err := cluster.RepoRoot()
		if err != nil {
			return err
		}
		path = filepath.Join(root, "conformance", "java", "classpath.sh")
	}
	cp, err := cluster.JavaClasspath(ctx, path)
	o.javaCP = cp
	return err
}

// brokerConf is what the broker soak starts has beyond the launcher's
// defaults: the transaction check every 5 s rather than 60 s, so that the
// tx cycles' unknown messages are resolved within a cycle, and SQL92
// subscriptions for the sql kind.
var brokerConf = map[string]string{"transactionCheckInterval": "5000", "enablePropertyFilter": "true"}

func newLauncher(ctx context.Context, o options) (*cluster.Launcher, error) {
	return cluster.NewLocalLauncher(ctx, cluster.LocalOptions{Bin: o.bin, Classpath: o.classpath,
		NeedJava: o.impl == cluster.Java || o.slave && o.slaveImpl == cluster.Java || o.switchImpl || anyJava(o.kinds), RunDir: o.runDir, TempPrefix: "sputnik-soak-"})
}
