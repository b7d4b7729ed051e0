// Command mqbroker is Sputnik's drop-in replacement for Apache RocketMQ
// 4.9.8's broker (BrokerStartup): the same options, broker.conf keys,
// console output and exit codes.
//
//	mqbroker [-c <file>] [-h] [-m] [-n <addr>] [-p]
//
// Java 4.9.8 mirror: BrokerStartup.main / createBrokerController / start
// and its shutdown hook.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker"
	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/compat/javacli"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

const (
	exitStartFailed = 255 // System.exit(-1)
	shutdownTimeout = 30 * time.Second
)

// processInit is when the package was initialised, moments after exec:
// the boot line's log entry says how long the whole start took from here.
var processInit = time.Now()

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr, javacli.WaitForSignal))
}

// run is the whole program; wait blocks until the process should stop.
func run(args, environ []string, stdout, stderr io.Writer, wait func() int) int {
	env := brokerconfig.EnvMap(environ)
	serialize, err := wire.ConfiguredSerializeType(env["ROCKETMQ_SERIALIZE_TYPE"])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitStartFailed
	}
	st, err := brokerconfig.Load(args, env, javacli.UserHome())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitStartFailed
	}
	if st.Exit != nil {
		fmt.Fprint(stdout, st.Exit.Stdout)
		return st.Exit.Status()
	}
	for _, w := range st.Warnings() {
		fmt.Fprintln(stderr, "mqbroker: warning:", w)
	}
	if st.Print != brokerconfig.PrintNone {
		if err := brokerconfig.Print(stdout, st, st.Print == brokerconfig.PrintImportant); err != nil {
			fmt.Fprintln(stderr, err)
			return exitStartFailed
		}
		return 0
	}
	return serve(st, serialize, env["SPUTNIK_LISTEN_ADDR"], stdout, stderr, wait)
}

func serve(st *brokerconfig.Startup, serialize wire.SerializeType, listen string, stdout, stderr io.Writer, wait func() int) int {
	log, closeLog := openLog(javacli.UserHome(), stderr)
	defer closeLog()
	t0 := time.Now()
	b, err := broker.New(st, broker.Options{Log: log, Serialize: serialize, ListenAddr: listen})
	if err == nil {
		log.WithField("took", time.Since(t0).String()).Info("broker loaded (tables, store and recovery)")
		err = b.Start()
	}
	if err != nil {
		fmt.Fprintln(stderr, "mqbroker:", err)
		log.WithError(err).Error("broker start failed")
		if b != nil {
			_ = b.Shutdown(context.Background())
		}
		return exitStartFailed
	}
	tip := fmt.Sprintf("The broker[%s, %s] boot success. serializeType=%s", st.Broker.BrokerName, b.Addr(), serialize)
	if st.Broker.NamesrvAddr != nil {
		tip += " and name server is " + *st.Broker.NamesrvAddr
	}
	log.WithField("sinceInit", time.Since(processInit).String()).Info(tip)
	fmt.Fprintln(stdout, tip)
	code := wait()
	start := time.Now()
	log.Info("Shutdown hook was invoked, 1")
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := b.Shutdown(ctx); err != nil {
		log.WithError(err).Warn("shutdown incomplete")
	}
	log.Infof("Shutdown hook over, consuming total time(ms): %d", time.Since(start).Milliseconds())
	return code
}

// openLog writes the broker log where Java's logback_broker.xml puts it:
// ~/logs/rocketmqlogs/broker.log.
func openLog(home string, stderr io.Writer) (*logrus.Entry, func()) {
	l := logrus.New()
	l.SetLevel(logrus.InfoLevel)
	dir := filepath.Join(home, "logs", "rocketmqlogs")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if f, err := os.OpenFile(filepath.Join(dir, "broker.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
			l.SetOutput(f)
			return logrus.NewEntry(l), func() { _ = f.Close() }
		}
	}
	l.SetOutput(stderr)
	return logrus.NewEntry(l), func() {}
}
