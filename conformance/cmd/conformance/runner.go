package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/report"
	"github.com/sputnikmq/sputnik/conformance/scenario"
)

type runner struct {
	opts     *options
	launcher *cluster.Launcher
	java     *javaclient.Driver
}

func newRunner(ctx context.Context, o *options) (*runner, error) {
	l, err := cluster.NewLocalLauncher(ctx, cluster.LocalOptions{Bin: o.bin, Classpath: o.classpathSh, NeedJava: true,
		RunDir: o.runDir, TempPrefix: "sputnik-conformance-" + time.Now().Format("20060102-150405") + "-"})
	if err != nil {
		return nil, err
	}
	l.Java.NamesrvHeap, l.Java.BrokerHeap, l.BrokerConf = o.namesrvHeap, o.brokerHeap, o.brokerConf
	o.bin, o.runDir = l.SputnikBin, l.RunDir
	cp := l.Java.Classpath
	driverDir := filepath.Join(o.runDir, "java-client")
	home := filepath.Join(driverDir, "home")
	if err := cluster.WriteRocketMQHome(home, filepath.Join(driverDir, "logs"), "WARN"); err != nil {
		return nil, err
	}
	scenario.SetupGoClientLogging(filepath.Join(o.runDir, "client-go.log"))
	r := &runner{
		opts:     o,
		launcher: l,
		java: javaclient.New(javaclient.Config{
			Classpath: cp, Home: home, Dir: driverDir, LogFile: filepath.Join(driverDir, "logs", "driver.log"),
			ClientClasspathScript: clientClasspathScript(),
		}),
	}
	if err := r.java.Ping(ctx); err != nil {
		return nil, fmt.Errorf("java client driver: %w", err)
	}
	return r, nil
}

func (r *runner) close() { r.java.Close() }

// clientClasspathScript is conformance/java/client-classpath.sh of the
// repository, for the scenarios that run other Java client versions
// (empty when the repository is not found: they fail saying so).
func clientClasspathScript() string {
	script, err := cluster.ClientClasspathScript()
	if err != nil {
		return ""
	}
	return script
}

// shapeFor resolves the cluster a scenario needs for impl. The java column
// is the reference: every node is Java. In the sputnik column the name
// server is Sputnik and the brokers follow -broker-impl, unless the
// scenario pins either to Java.
func (r *runner) shapeFor(s *scenario.Scenario, impl cluster.Impl) cluster.Shape {
	sh := cluster.Shape{Namesrv: impl, Broker: impl, Brokers: s.Needs.Brokers, Slave: s.Needs.Slave,
		SyncMaster: s.Needs.SyncMaster, ACL: s.Needs.ACL, Serialize: s.Needs.Serialize}
	if impl == cluster.Java {
		return sh
	}
	switch r.opts.brokerImpl {
	case "java":
		sh.Broker = cluster.Java
	case "sputnik":
		sh.Broker = cluster.Sputnik
	}
	if s.Needs.NamesrvJava {
		sh.Namesrv = cluster.Java
	}
	if s.Needs.BrokerJava {
		sh.Broker = cluster.Java
	}
	if s.Needs.SlaveJava && sh.Broker != cluster.Java {
		sh.SlaveBroker = cluster.Java
	}
	if s.Needs.MasterJava && sh.Broker != cluster.Java {
		sh.SlaveBroker, sh.Broker = sh.Broker, cluster.Java
	}
	return sh
}

func (r *runner) runAll(ctx context.Context, selected []*scenario.Scenario) *report.Report {
	t0 := time.Now()
	rep := &report.Report{
		Started:    t0,
		BrokerImpl: r.opts.brokerImpl,
		RunDir:     r.opts.runDir,
		Versions: map[string]string{
			"client-go":   clientGoVersion(),
			"java-client": "4.9.8",
			"java-namesrv/broker": "4.9.7 namesrv/broker/filter jars on 4.9.8 common/remoting/store " +
				"(no 4.9.8 build of them on Maven Central)",
		},
	}
	for _, impl := range r.opts.impls {
		rep.Impls = append(rep.Impls, string(impl))
	}
	for _, impl := range r.opts.impls {
		// Group by shape, keeping the scenarios' order within a group.
		var shapes []cluster.Shape
		groups := map[cluster.Shape][]*scenario.Scenario{}
		for _, s := range selected {
			sh := r.shapeFor(s, impl)
			if _, ok := groups[sh]; !ok {
				shapes = append(shapes, sh)
			}
			groups[sh] = append(groups[sh], s)
		}
		for _, sh := range shapes {
			r.runShape(ctx, rep, impl, sh, groups[sh])
		}
	}
	rep.Seconds = time.Since(t0).Seconds()
	return rep
}

func (r *runner) runShape(ctx context.Context, rep *report.Report, impl cluster.Impl, sh cluster.Shape, ss []*scenario.Scenario) {
	fmt.Printf("[%s] starting cluster %s\n", impl, sh)
	t0 := time.Now()
	c, err := r.launcher.StartCluster(ctx, sh)
	boot := report.Boot{Impl: string(impl), Shape: sh.String(), Seconds: time.Since(t0).Seconds()}
	if err != nil {
		boot.Error = err.Error()
		fmt.Printf("[%s] cluster %s failed to start after %.1fs: %v\n", impl, sh, boot.Seconds, err)
	} else {
		fmt.Printf("[%s] cluster %s up in %.1fs (namesrv %s)\n", impl, sh, boot.Seconds, c.Namesrv.Addr())
	}
	rep.Boots = append(rep.Boots, boot)
	defer func() {
		if c != nil {
			if err := c.Stop(); err != nil {
				fmt.Printf("[%s] stopping cluster: %v\n", impl, err)
			}
		}
	}()
	clusterErr := err
	for _, s := range ss {
		res := &report.Result{Scenario: s.Name, Impl: string(impl), Shape: sh.String()}
		switch {
		case ctx.Err() != nil:
			res.Status, res.Reason = report.Skip, "run interrupted"
		case clusterErr != nil:
			res.Status, res.Reason = report.Fail, "cluster did not start: "+clusterErr.Error()
		default:
			if err := c.Heal(ctx); err != nil {
				// Start over with a fresh cluster once; if that fails too,
				// every remaining scenario fails with the reason.
				c.Stop()
				fmt.Printf("[%s] cluster broken (%v); starting a new one\n", impl, err)
				c, clusterErr = r.launcher.StartCluster(ctx, sh)
				if clusterErr != nil {
					res.Status, res.Reason = report.Fail, "cluster could not be restarted: "+clusterErr.Error()
					break
				}
			}
			r.runScenario(ctx, impl, c, s, res)
		}
		fmt.Printf("[%s] %-45s %s (%.1fs) %s\n", impl, s.Name, res.Status, res.Seconds, truncateReason(res.Reason))
		rep.Add(res, s.Tags)
	}
}

func truncateReason(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:159] + "…"
	}
	return s
}

func (r *runner) runScenario(ctx context.Context, impl cluster.Impl, c *cluster.Cluster, s *scenario.Scenario, res *report.Result) {
	dir := filepath.Join(r.opts.runDir, string(impl), strings.ReplaceAll(s.Name, "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Status, res.Reason = report.Fail, err.Error()
		return
	}
	logPath := filepath.Join(dir, "scenario.log")
	lf, err := os.Create(logPath)
	if err != nil {
		res.Status, res.Reason = report.Fail, err.Error()
		return
	}
	defer lf.Close()
	res.Log = logPath
	env := &scenario.Env{
		Namesrv: c.Namesrv.Addr(),
		Cluster: cluster.ClusterName,
		Java:    r.java,
		Nodes:   control{c},
		Log:     log.New(lf, "", log.Ltime|log.Lmicroseconds),
		Dir:     dir,
	}
	for _, b := range c.Brokers {
		env.Brokers = append(env.Brokers, scenario.Broker{Name: b.Name, Addr: b.Addr()})
	}
	for _, b := range c.Slaves {
		env.Slaves = append(env.Slaves, scenario.Broker{Name: b.Name, Addr: b.Addr()})
	}
	timeout := s.Timeout
	if r.opts.timeout > 0 {
		timeout = r.opts.timeout
	} else if timeout == 0 {
		timeout = 90 * time.Second
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	env.Log.Printf("scenario %s against %s (%s); namesrv %s", s.Name, impl, c.Shape, env.Namesrv)
	t0 := time.Now()
	err = runProtected(sctx, s, env)
	res.Seconds = time.Since(t0).Seconds()
	for _, o := range env.Observations() {
		res.Observations = append(res.Observations, report.Observation{Name: o.Name, Text: o.Text})
	}
	switch {
	case err == nil:
		res.Status = report.Pass
	case scenario.IsSkip(err):
		res.Status, res.Reason = report.Skip, err.Error()
	default:
		res.Status, res.Reason = report.Fail, err.Error()
		if errors.Is(err, context.DeadlineExceeded) && sctx.Err() != nil {
			res.Reason = fmt.Sprintf("timed out after %s: %v", timeout, err)
		}
	}
	env.Log.Printf("result %s %s", res.Status, res.Reason)
}

// runProtected runs the scenario, turning a panic into a failure.
func runProtected(ctx context.Context, s *scenario.Scenario, env *scenario.Env) (err error) {
	defer func() {
		if p := recover(); p != nil {
			env.Log.Printf("panic: %v\n%s", p, debug.Stack())
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return s.Run(ctx, env)
}

// control gives scenarios the cluster's process controls.
type control struct{ c *cluster.Cluster }

func (k control) broker(i int) (*cluster.Node, error) {
	if i < 0 || i >= len(k.c.Brokers) {
		return nil, fmt.Errorf("no broker %d", i)
	}
	return k.c.Brokers[i], nil
}

func (k control) KillBroker(i int) error {
	b, err := k.broker(i)
	if err != nil {
		return err
	}
	return b.Kill()
}

func (k control) StopBroker(i int) error {
	b, err := k.broker(i)
	if err != nil {
		return err
	}
	return b.Stop(30 * time.Second)
}

func (k control) StartBroker(ctx context.Context, i int) error {
	b, err := k.broker(i)
	if err != nil {
		return err
	}
	return b.Start(ctx)
}

func (k control) SwitchBroker(i int) error {
	b, err := k.broker(i)
	if err != nil {
		return err
	}
	return b.SwitchImpl()
}

func (k control) slave(i int) (*cluster.Node, error) {
	if i < 0 || i >= len(k.c.Slaves) {
		return nil, fmt.Errorf("no slave %d", i)
	}
	return k.c.Slaves[i], nil
}

func (k control) KillSlave(i int) error {
	s, err := k.slave(i)
	if err != nil {
		return err
	}
	return s.Kill()
}

func (k control) StopSlave(i int) error {
	s, err := k.slave(i)
	if err != nil {
		return err
	}
	return s.Stop(30 * time.Second)
}

func (k control) SwitchSlave(i int) error {
	s, err := k.slave(i)
	if err != nil {
		return err
	}
	return s.SwitchImpl()
}

func (k control) StartSlave(ctx context.Context, i int) error {
	s, err := k.slave(i)
	if err != nil {
		return err
	}
	return s.Start(ctx)
}

func (k control) WriteBrokerACL(i int, text string) error {
	b, err := k.broker(i)
	if err != nil {
		return err
	}
	if k.c.Shape.ACL == "" {
		return fmt.Errorf("broker %d runs without ACL (scenario.Needs.ACL unset)", i)
	}
	return cluster.WriteACL(b.Home(), text)
}

func (k control) KillNamesrv() error { return k.c.Namesrv.Kill() }

func (k control) StartNamesrv(ctx context.Context) error { return k.c.Namesrv.Start(ctx) }
