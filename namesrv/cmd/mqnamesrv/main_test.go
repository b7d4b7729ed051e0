package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// What 4.9.8's NamesrvStartup (commons-cli 1.2 PosixParser) did with each
// command line, observed by running it: "help" = usage on stdout; "boot" =
// the name server started; "open X" = FileNotFoundException for X (exit 255).
func TestCommandLineLikeJava(t *testing.T) {
	tests := []struct {
		args string
		want string
		code int
	}{
		{"-h", "help", 0},
		{"--help", "help", 0},
		{"--hel", "help", 1},
		{"-ph", "help", 0},
		{"-hp", "help", 0},
		{"extra -h", "help", 0},
		{"--namesrvAddr=1 -h", "help", 0},
		{"--conf /nonexist", "help", 1},
		{"-n", "help", 1},
		{"-n a -n", "help", 1},
		{"-p -x", "help", 1},
		{"-x -h", "help", 1},
		{"---", "help", 1},
		{"-c/nonexist", "open /nonexist", 255},
		{"--configFile=/nonexist", "open /nonexist", 255},
		{"-configFile /nonexist", "open /nonexist", 255},
		{"--c /nonexist", "open /nonexist", 255},
		{"-pc/nonexist", "open /nonexist", 255},
		{"-cp", "open p", 255},
		{`-c "/nonexist"`, "open /nonexist", 255},
		{"-c -x", "open -x", 255},
		{"-c /a -c /b", "open /a", 255},
		{"-", "boot", 0},
		{"-- -h", "boot", 0},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := strings.Fields(tt.args)
			booted := false
			code := run(args, testEnv(t), &stdout, &stderr, func(*namesrv.Server) int { booted = true; return 0 })
			if code != tt.code {
				t.Errorf("exit %d, want %d (stdout %q stderr %q)", code, tt.code, stdout.String(), stderr.String())
			}
			switch {
			case tt.want == "help":
				if stdout.String() != helpText {
					t.Errorf("stdout %q", stdout.String())
				}
			case tt.want == "boot":
				if !booted || !strings.HasSuffix(stdout.String(), "The Name Server boot success. serializeType=JSON\n") {
					t.Errorf("did not boot: %q %q", stdout.String(), stderr.String())
				}
			default:
				file := strings.TrimPrefix(tt.want, "open ")
				if got := stderr.String(); got != "java.io.FileNotFoundException: "+file+" (No such file or directory)\n" {
					t.Errorf("stderr %q", got)
				}
			}
		})
	}
}

// testEnv is a process environment rooted in a temp dir, listening on a
// random port (the default 9876 may be taken).
func testEnv(t *testing.T) env {
	home := t.TempDir()
	rh := home
	return env{userHome: home, rocketmqHome: &rh, portOverride: "127.0.0.1:0"}
}

const helpHead = "usage: mqnamesrv [-c <arg>] [-h] [-n <arg>] [-p]\n"

func TestHelpText(t *testing.T) {
	// Captured from Java 4.9.8 (HelpFormatter width 110).
	if !strings.HasPrefix(helpText, helpHead) || strings.Count(helpText, "\n") != 5 {
		t.Fatal(helpText)
	}
}

func TestPrintConfigItems(t *testing.T) {
	e := testEnv(t)
	conf := filepath.Join(e.userHome, "ns.conf")
	if err := os.WriteFile(conf, []byte("listenPort=19999\norderMessageEnable = true\nbogus=1\nserverWorkerThreads=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-c", conf, "-p"}, e, &stdout, &stderr, nil); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if lines[0] != "load config properties file OK, "+conf {
		t.Errorf("first line %q", lines[0])
	}
	// logback's default layout, as Java prints -p before loading its own.
	prefix := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d\d\d \[main\] INFO RocketmqNamesrvConsole - `)
	var items []string
	for _, l := range lines[1:] {
		if !prefix.MatchString(l) {
			t.Fatalf("line %q", l)
		}
		items = append(items, prefix.ReplaceAllString(l, ""))
	}
	want := []string{
		"rocketmqHome=" + e.userHome, "kvConfigPath=" + filepath.Join(e.userHome, "namesrv", "kvConfig.json"),
		"configStorePath=" + conf, "productEnvName=center", "clusterTest=false", "orderMessageEnable=true",
		"configBlackList=configBlackList;configStorePath;kvConfigPath",
		"listenPort=19999", "serverWorkerThreads=8", "serverCallbackExecutorThreads=0", "serverSelectorThreads=3",
		"serverOnewaySemaphoreValue=256", "serverAsyncSemaphoreValue=64", "serverChannelMaxIdleTimeSeconds=120",
		"serverSocketSndBufSize=0", "serverSocketRcvBufSize=0", "writeBufferHighWaterMark=0", "writeBufferLowWaterMark=0",
		"serverSocketBacklog=1024", "serverPooledByteBufAllocatorEnable=true", "useEpollNativeSelector=false",
	}
	if strings.Join(items, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(items, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(stderr.String(), `unknown config key "bogus"`) || !strings.Contains(stderr.String(), "serverWorkerThreads") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestRocketmqHomeRequired(t *testing.T) {
	e := testEnv(t)
	e.rocketmqHome = nil
	var stdout, stderr bytes.Buffer
	if code := run(nil, e, &stdout, &stderr, nil); code != 254 {
		t.Fatalf("exit %d", code)
	}
	if stdout.String() != "Please set the ROCKETMQ_HOME variable in your environment to match the location of the RocketMQ installation\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	// rocketmqHome in the -c file is enough, as in Java.
	conf := filepath.Join(e.userHome, "ns.conf")
	_ = os.WriteFile(conf, []byte("rocketmqHome="+e.userHome+"\n"), 0o644)
	stdout.Reset()
	if code := run([]string{"-c", conf}, e, &stdout, &stderr, func(*namesrv.Server) int { return 0 }); code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
}

func TestSerializeTypeFromEnv(t *testing.T) {
	e := testEnv(t)
	e.serialize = "ROCKETMQ"
	var stdout, stderr bytes.Buffer
	run(nil, e, &stdout, &stderr, func(*namesrv.Server) int { return 0 })
	if stdout.String() != "The Name Server boot success. serializeType=ROCKETMQ\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	e.serialize = "XML"
	stdout.Reset()
	if code := run(nil, e, &stdout, &stderr, nil); code != 255 || !strings.Contains(stderr.String(), "parser specified protocol error. protocol=XML") {
		t.Errorf("exit %d stderr %q", code, stderr.String())
	}
}

func TestServesAndShutsDown(t *testing.T) {
	e := testEnv(t)
	var stdout, stderr bytes.Buffer
	code := run(nil, e, &stdout, &stderr, func(s *namesrv.Server) int {
		c := namesrvtest.Dial(t, s.Addr().String())
		req := wire.NewRequest(100) // PUT_KV_CONFIG
		req.AddExt("namespace", "NS")
		req.AddExt("key", "k")
		req.AddExt("value", "v")
		if resp := c.Call(req); resp.Code != 0 {
			t.Errorf("PUT_KV_CONFIG answered %d", resp.Code)
		}
		return 143
	})
	if code != 143 {
		t.Errorf("exit %d", code)
	}
	if data, err := os.ReadFile(filepath.Join(e.userHome, "namesrv", "kvConfig.json")); err != nil || string(data) != `{"configTable":{"NS":{"k":"v"}}}` {
		t.Errorf("kvConfig.json %q %v", data, err)
	}
	log, err := os.ReadFile(filepath.Join(e.userHome, "logs", "rocketmqlogs", "namesrv.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{" INFO main - listenPort=9876\n", "The Name Server boot success. serializeType=JSON", "shutdown hook over"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestPortInUseFails(t *testing.T) {
	e := testEnv(t)
	other := namesrvtest.StartTestNamesrv(t)
	e.portOverride = other.Addr().String()
	var stdout, stderr bytes.Buffer
	if code := run(nil, e, &stdout, &stderr, nil); code != 255 || stdout.Len() != 0 {
		t.Errorf("exit %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestSetProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct{ cpus, want int }{{1, 1}, {2, 1}, {3, 1}, {8, 4}} {
		if got := setProcs("", c.cpus); got != c.want || runtime.GOMAXPROCS(0) != c.want {
			t.Errorf("%d CPUs: set %d, GOMAXPROCS %d, want %d", c.cpus, got, runtime.GOMAXPROCS(0), c.want)
		}
	}
	runtime.GOMAXPROCS(3)
	if got := setProcs("3", 8); got != 3 || runtime.GOMAXPROCS(0) != 3 {
		t.Errorf("with GOMAXPROCS set: %d, runtime %d, want 3 untouched", got, runtime.GOMAXPROCS(0))
	}
}
