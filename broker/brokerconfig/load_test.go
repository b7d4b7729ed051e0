package brokerconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/store"
)

func writeConf(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "broker.conf")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

var home = map[string]string{"ROCKETMQ_HOME": "/opt/rmq"}

type loadRule struct {
	name  string
	env   map[string]string
	file  string // "" for no -c
	args  []string
	exit  *Exit
	check func(t *testing.T, s *Startup)
}

// loadRules pin BrokerStartup.createBrokerController's precedence and
// exits (Java 4.9.8).
var loadRules = []loadRule{
	{name: "no home", exit: &Exit{Code: ExitNoHome, Stdout: msgNoHome}},
	{name: "no home, -p still exits -2", args: []string{"-p"}, exit: &Exit{Code: ExitNoHome, Stdout: msgNoHome}},
	{name: "home from file", file: "rocketmqHome=/f\n", check: func(t *testing.T, s *Startup) {
		require.Equal(t, "/f", *s.Broker.RocketmqHome)
	}},
	{name: "empty home counts", env: map[string]string{"ROCKETMQ_HOME": ""}},
	{name: "-n beats file and env", env: map[string]string{"ROCKETMQ_HOME": "/h", "NAMESRV_ADDR": "e:1"},
		file: "namesrvAddr=f:2\n", args: []string{"-n", "c:3"}, check: func(t *testing.T, s *Startup) {
			require.Equal(t, "c:3", *s.Broker.NamesrvAddr)
		}},
	{name: "file beats env", env: map[string]string{"ROCKETMQ_HOME": "/h", "NAMESRV_ADDR": "e:1"},
		file: "namesrvAddr=f:2\n", check: func(t *testing.T, s *Startup) {
			require.Equal(t, "f:2", *s.Broker.NamesrvAddr)
		}},
	{name: "bad namesrv", env: home, args: []string{"-n", "nohostport"},
		exit: &Exit{Code: ExitBadSettings, Stdout: "The Name Server Address[nohostport] illegal, please set it as follows, \"127.0.0.1:9876;192.168.0.1:9876\"\n"}},
	{name: "port out of range", env: home, args: []string{"-n", "a:1;b:65536"}, exit: &Exit{Code: ExitBadSettings,
		Stdout: "The Name Server Address[a:1;b:65536] illegal, please set it as follows, \"127.0.0.1:9876;192.168.0.1:9876\"\n"}},
	{name: "trailing separators fine", env: home, args: []string{"-n", "a:1;;"}},
	{name: "only separator fine", env: home, args: []string{"-n", ";"}},
	{name: "empty part", env: home, args: []string{"-n", "a:1;;b:2"}, exit: &Exit{Code: ExitBadSettings,
		Stdout: "The Name Server Address[a:1;;b:2] illegal, please set it as follows, \"127.0.0.1:9876;192.168.0.1:9876\"\n"}},
	{name: "master forced to 0", env: home, file: "brokerId=5\nbrokerRole=SYNC_MASTER\n", check: func(t *testing.T, s *Startup) {
		require.Zero(t, s.Broker.BrokerID)
	}},
	{name: "slave needs id", env: home, file: "brokerRole=SLAVE\n", exit: &Exit{Code: ExitBadSettings, Stdout: msgSlaveBrokerID}},
	{name: "slave keeps id and ratio", env: home, file: "brokerRole=SLAVE\nbrokerId=2\n", check: func(t *testing.T, s *Startup) {
		require.EqualValues(t, 2, s.Broker.BrokerID)
		require.EqualValues(t, 40, s.Store.AccessMessageInMemoryMaxRatio) // Java adjusts before the file
	}},
	{name: "ha port follows listen port", env: home, file: "listenPort=20911\nhaListenPort=1\n", check: func(t *testing.T, s *Startup) {
		require.EqualValues(t, 20911, s.NettyServer.ListenPort)
		require.EqualValues(t, 20912, s.Store.HaListenPort)
	}},
	{name: "ha port wraps", env: home, file: "listenPort=2147483647\n", check: func(t *testing.T, s *Startup) {
		require.EqualValues(t, -2147483648, s.Store.HaListenPort)
	}},
	{name: "default listen port", env: home, check: func(t *testing.T, s *Startup) {
		require.EqualValues(t, DefaultListenPort, s.NettyServer.ListenPort)
		require.EqualValues(t, DefaultListenPort+1, s.Store.HaListenPort)
		require.Equal(t, "/HOME/store/config/broker.properties", s.BrokerConfigPath)
		require.Equal(t, "http://jmenv.tbsite.net:8080/rocketmq/nsaddr", s.WSAddr())
		require.Equal(t, PrintNone, s.Print)
	}},
	{name: "dledger", env: home, file: "enableDLegerCommitLog=true\nisolateLogEnable=true\nbrokerName=b\n", check: func(t *testing.T, s *Startup) {
		require.EqualValues(t, -1, s.Broker.BrokerID)
		require.Equal(t, "b_null", s.BrokerLogDir)
	}},
	{name: "isolated logs", env: home, file: "isolateLogEnable=true\nbrokerName=b\nbrokerRole=SLAVE\nbrokerId=3\n", check: func(t *testing.T, s *Startup) {
		require.Equal(t, "b_3", s.BrokerLogDir)
	}},
	{name: "address server and warnings", env: home,
		file: "rmqAddressServerDomain=as:80\nrmqAddressServerSubGroup=g\nbogus=1\nbrokerId=x\nflushDiskType=nope\n",
		args: []string{"-m"}, check: func(t *testing.T, s *Startup) {
			require.Equal(t, "http://as:80/rocketmq/g", s.WSAddr())
			require.Equal(t, []string{"bogus"}, s.Unknown)
			require.Len(t, s.Warnings(), 3)
			require.Equal(t, PrintImportant, s.Print)
			require.Equal(t, store.AsyncFlush, s.Store.FlushDiskType)
		}},
	{name: "-p wins over -m", env: home, args: []string{"-m", "-p"}, check: func(t *testing.T, s *Startup) {
		require.Equal(t, PrintAll, s.Print)
	}},
}

// Java 4.9.8: BrokerStartup.createBrokerController's precedence and exits.
func TestLoadRules(t *testing.T) {
	for _, tc := range loadRules {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-c", writeConf(t, tc.file)}, args...)
			}
			s, err := pinned(tc.env).Load(args)
			require.NoError(t, err)
			require.Equal(t, tc.exit, s.Exit)
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	_, err := pinned(home).Load([]string{"-c", filepath.Join(t.TempDir(), "missing")})
	require.ErrorIs(t, err, ErrConfigFile)
	require.Contains(t, err.Error(), "java.io.FileNotFoundException:")
	_, err = pinned(home).Load([]string{"-c", t.TempDir()})
	require.ErrorIs(t, err, ErrConfigFile)
	require.Contains(t, err.Error(), "(Is a directory)")
	_, err = pinned(home).Load([]string{"-c", writeConf(t, `brokerName=\u12`)})
	require.ErrorIs(t, err, ErrConfigFile)
	require.ErrorIs(t, err, javaprops.ErrMalformedEscape)
	m := pinned(home)
	m.SystemProps = map[string]string{"com.rocketmq.remoting.client.worker.size": ""}
	_, err = m.Load(nil)
	require.ErrorIs(t, err, ErrSystemProperty)
}

// The 4.9.8 distribution's sample files (testdata/conf) load with every
// key landing in a config object.
func TestDistributionSamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conf", "*", "*.properties"))
	require.NoError(t, err)
	files = append(files, filepath.Join("testdata", "conf", "broker.conf"))
	require.Len(t, files, 12)
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			s, err := pinned(home).Load([]string{"-c", file})
			require.NoError(t, err)
			require.Nil(t, s.Exit)
			require.Empty(t, s.Unknown)
			require.NoError(t, s.Invalid)
			require.Equal(t, file, s.BrokerConfigPath)
			all := map[string]string{}
			for _, obj := range s.configs() {
				p, err := javaprops.ToProperties(obj)
				require.NoError(t, err)
				for _, k := range p.Keys() {
					all[k], _ = p.Get(k)
				}
			}
			require.NotZero(t, s.FileProps.Len())
			for _, k := range s.FileProps.Keys() {
				v, _ := s.FileProps.Get(k)
				require.Equal(t, v, all[k], "key %s", k)
			}
		})
	}
}

// logbackXML is a minimal conf/logback_broker.xml with 4.9.8's STDOUT
// appender and RocketmqConsole logger (the pattern as the distribution
// writes it).
const logbackXML = `<?xml version="1.0" encoding="UTF-8"?>
<configuration>
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <append>true</append>
    <encoder>
      <pattern>%d{yyy-MM-dd HH\:mm\:ss,GMT+8} %p %t - %m%n</pattern>
      <charset class="java.nio.charset.Charset">UTF-8</charset>
    </encoder>
  </appender>
  <logger name="RocketmqConsole" additivity="false">
    <level value="INFO"/>
    <appender-ref ref="STDOUT"/>
  </logger>
  <root><level value="OFF"/></root>
</configuration>
`

var javaStamp = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d\\:\d\d\\:\d\d `)

// Java 4.9.8 (BrokerStartup of the 4.9.7 broker jar, unchanged in 4.9.8,
// on the 4.9.8 common/remoting/store jars): stdout and exit status of
// `mqbroker` for -p, -m and the start-up checks equal Load + Print.
func TestStartupMatchesJava(t *testing.T) {
	rmqHome := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(rmqHome, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(rmqHome, "conf", "logback_broker.xml"), []byte(logbackXML), 0o644))
	env := map[string]string{"ROCKETMQ_HOME": rmqHome}
	slave := writeConf(t, "brokerRole=SLAVE\nbrokerId=1\nlistenPort=30911\nbrokerName=s\nnamesrvAddr=x:1\n")
	cases := []struct {
		args []string
		sys  map[string]string // -D properties
	}{
		{args: []string{"-p"}},
		{args: []string{"-m", "-n", "h1:9876;h2:9877"}},
		{args: []string{"-p", "-c", filepath.Join("testdata", "tricky.properties")}},
		{args: []string{"-pc", filepath.Join("testdata", "conf", "2m-2s-sync", "broker-b-s.properties")}},
		{args: []string{"-m", "-c", slave, "-n", "bad"}},
		{args: []string{"-p", "-c", writeConf(t, "brokerRole=SLAVE\n")}},
		{args: []string{"-p", "-c", writeConf(t, "enableDLegerCommitLog=true\nbrokerId=4\n")}},
		{args: []string{"-p"}, sys: map[string]string{"tls.server.mode": "enforcing", "rocketmq.namesrv.addr": "d:1",
			"com.rocketmq.remoting.socket.backlog": "5"}},
		{args: []string{"-p"}, sys: map[string]string{"tls.server.mode": "enforcing", "tls.enable": "no"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			jvm := []string{"-Duser.home=/HOME"}
			for k, v := range tc.sys {
				jvm = append(jvm, "-D"+k+"="+v)
			}
			want, code := javaRun(t, env, jvm, "org.apache.rocketmq.broker.BrokerStartup", tc.args...)
			m := pinned(env)
			m.SystemProps = tc.sys
			m.HostName, m.LocalAddress = javaHost(t)
			s, err := m.Load(tc.args)
			require.NoError(t, err)
			var got bytes.Buffer
			status := ExitOK
			if s.Exit != nil {
				got.WriteString(s.Exit.Stdout)
				status = s.Exit.Status()
			} else {
				require.NotEqual(t, PrintNone, s.Print)
				require.NoError(t, PrintAt(&got, s, s.Print == PrintImportant, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
			}
			require.Equal(t, code, status)
			require.Equal(t, javaStamp.ReplaceAllString(want, "TS "), javaStamp.ReplaceAllString(got.String(), "TS "))
			if s.Exit == nil {
				require.True(t, strings.HasPrefix(got.String(), `2026-01-02 11\:04\:05 INFO main - `), got.String()[:40])
			}
		})
	}
}
