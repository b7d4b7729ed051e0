// Command mqnamesrv is Sputnik's drop-in replacement for Apache RocketMQ
// 4.9.8's name server (NamesrvStartup): same options, same properties
// file keys, same console output and exit codes.
//
//	mqnamesrv [-c <file>] [-p] [-n <addr>] [-h]
//
// Java 4.9.8 mirror: NamesrvStartup.main0 / createNamesrvController /
// start, ServerUtil.parseCmdLine, ShutdownHookThread.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javacli"
	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Exit codes of the Java process.
const (
	exitBadCommandLine = 1   // ServerUtil.parseCmdLine: System.exit(1)
	exitStartFailed    = 255 // main0's catch: System.exit(-1)
	exitNoHome         = 254 // System.exit(-2)
)

// shutdownTimeout bounds the graceful shutdown on SIGTERM/SIGINT.
const shutdownTimeout = 30 * time.Second

func main() {
	setProcs(os.Getenv("GOMAXPROCS"), runtime.NumCPU())
	os.Exit(run(os.Args[1:], readEnv(), os.Stdout, os.Stderr, waitForSignal))
}

// setProcs gives the name server half the CPUs (at least one) unless the
// GOMAXPROCS environment variable says otherwise. A name server's work is
// mostly system calls on many small requests; more Ps than that add
// wakeups between threads and little else (on 2 CPUs, one P took 8 µs of
// CPU per route lookup instead of 12 and halved the p99), and the other
// half stays free for the broker that usually runs beside it.
func setProcs(env string, cpus int) int {
	if env != "" {
		return runtime.GOMAXPROCS(0)
	}
	n := max(cpus/2, 1)
	runtime.GOMAXPROCS(n)
	return n
}

// env is what the process reads from its environment.
type env struct {
	userHome     string
	rocketmqHome *string
	serialize    string // ROCKETMQ_SERIALIZE_TYPE
	namesrvAddr  string // NAMESRV_ADDR (clusterTest's product name servers)
	portOverride string // tests: listen here instead of :listenPort
}

func readEnv() env {
	e := env{userHome: javacli.UserHome(), rocketmqHome: namesrv.EnvRocketmqHome()}
	e.serialize = os.Getenv("ROCKETMQ_SERIALIZE_TYPE")
	e.namesrvAddr = os.Getenv("NAMESRV_ADDR")
	return e
}

// run is the whole program; wait blocks, once the server is up, until the
// process should stop, and returns its exit code.
func run(args []string, e env, stdout, stderr io.Writer, wait func(*namesrv.Server) int) int {
	serialize, err := wire.ConfiguredSerializeType(e.serialize)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitStartFailed
	}
	cl, err := parseCommandLine(args)
	if err != nil {
		fmt.Fprint(stdout, helpText)
		return exitBadCommandLine
	}
	if cl.Has("h") {
		fmt.Fprint(stdout, helpText)
		return 0
	}
	opts, code, ok := configure(cl, e, stdout, stderr)
	if !ok {
		return code
	}
	opts.Serialize = serialize
	opts.ListenAddr = e.portOverride
	return serve(opts, e, stdout, stderr, wait)
}

// configure builds the options from the defaults, the -c file and the
// environment; it handles -p and the ROCKETMQ_HOME check.
func configure(cl *commandLine, e env, stdout, stderr io.Writer) (namesrv.Options, int, bool) {
	o := namesrv.Options{
		Config:             namesrv.DefaultConfig(e.userHome, e.rocketmqHome),
		Netty:              namesrv.DefaultNettyConfig(),
		ProductNamesrvAddr: e.namesrvAddr,
	}
	if file, ok := cl.Value("c"); ok {
		props, unknown, bad, err := namesrv.LoadConfigFile(file, &o.Config, &o.Netty)
		if err != nil {
			fmt.Fprintln(stderr, javaFileError(file, err))
			return o, exitStartFailed, false
		}
		for _, k := range unknown {
			fmt.Fprintf(stderr, "mqnamesrv: warning: %s: unknown config key %q ignored\n", file, k)
		}
		if bad != nil {
			fmt.Fprintf(stderr, "mqnamesrv: warning: %s: %v\n", file, bad)
		}
		o.FileProps = props
		fmt.Fprintf(stdout, "load config properties file OK, %s\n", file)
	}
	if cl.Has("p") {
		printConfig(stdout, &o.Config, &o.Netty)
		return o, 0, false
	}
	if o.Config.RocketmqHome == nil {
		fmt.Fprintln(stdout, "Please set the ROCKETMQ_HOME variable in your environment to match the location of the RocketMQ installation")
		return o, exitNoHome, false
	}
	return o, 0, true
}

// javaFileError renders a -c file failure like the exception Java prints.
func javaFileError(file string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "java.io.FileNotFoundException: " + file + " (No such file or directory)"
	case errors.Is(err, fs.ErrPermission):
		return "java.io.FileNotFoundException: " + file + " (Permission denied)"
	}
	return "mqnamesrv: " + err.Error()
}

// printConfig is `-p`: MixAll.printObjectProperties of both config objects
// through the RocketmqNamesrvConsole logger, which at that point still has
// logback's default console layout.
func printConfig(w io.Writer, objs ...any) {
	for _, obj := range objs {
		lines, err := javaprops.Lines(obj, false)
		if err != nil {
			panic(err) // fixed struct tags
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%s [main] INFO RocketmqNamesrvConsole - %s\n", time.Now().Format("15:04:05.000"), l)
		}
	}
}

// serve runs the name server until wait returns.
func serve(o namesrv.Options, e env, stdout, stderr io.Writer, wait func(*namesrv.Server) int) int {
	logger, closeLog := openLog(e.userHome, stderr)
	defer closeLog()
	o.Log = logrus.NewEntry(logger)
	logConfig(o.Log, &o.Config, &o.Netty)
	s, err := namesrv.New(o)
	if err == nil {
		err = s.Start()
	}
	if err != nil {
		fmt.Fprintln(stderr, "mqnamesrv:", err)
		o.Log.WithError(err).Error("name server start failed")
		if s != nil {
			_ = s.Shutdown(context.Background())
		}
		return exitStartFailed
	}
	tip := "The Name Server boot success. serializeType=" + o.Serialize.String()
	o.Log.Info(tip)
	fmt.Fprintln(stdout, tip)
	code := wait(s)
	return shutdown(s, o.Log, code)
}

// shutdown is the JVM shutdown hook (ShutdownHookThread).
func shutdown(s *namesrv.Server, log *logrus.Entry, code int) int {
	start := time.Now()
	log.Info("shutdown hook was invoked, 1")
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		log.WithError(err).Warn("shutdown incomplete")
	}
	log.Infof("shutdown hook over, the elapsed time(ms): %d", time.Since(start).Milliseconds())
	return code
}

// logConfig logs every config item at start, as NamesrvStartup does.
func logConfig(log *logrus.Entry, objs ...any) {
	for _, obj := range objs {
		lines, _ := javaprops.Lines(obj, false)
		for _, l := range lines {
			log.Info(l)
		}
	}
}

// waitForSignal blocks until SIGTERM or SIGINT (the JVM's exit code).
func waitForSignal(*namesrv.Server) int { return javacli.WaitForSignal() }
