package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store"
)

func configEnv(t *testing.T, file string) (*brokerconfig.Startup, *configAdmin, *int) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "broker.conf")
	require.NoError(t, os.WriteFile(path, []byte(file), 0o644))
	m := brokerconfig.Machine{UserHome: dir, Env: map[string]string{"ROCKETMQ_HOME": dir}, HostName: "host", LocalAddress: "127.0.0.1", Processors: 2}
	s, err := m.Load([]string{"-c", path})
	require.NoError(t, err)
	require.Nil(t, s.Exit)
	l := logrus.New()
	l.SetLevel(logrus.PanicLevel)
	log := logrus.NewEntry(l)
	now := time.UnixMilli(1_700_000_000_000)
	conf := newBrokerConfiguration(s, log, func() time.Time { now = now.Add(time.Second); return now })
	changed := 0
	h := &configAdmin{conf: conf, blackList: blackList(s.Broker.ConfigBlackList), log: log,
		permissionChanged: func() { changed++ }}
	return s, h, &changed
}

func lines(body []byte) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		k, v, _ := strings.Cut(l, "=")
		out[k] = v
	}
	return out
}

// TestBrokerConfigGetUpdate follows mqadmin getBrokerConfig and
// updateBrokerConfig (Java 4.9.8: AdminBrokerProcessor.getBrokerConfig,
// updateBrokerConfig; Configuration.update / getAllConfigsFormatString).
func TestBrokerConfigGetUpdate(t *testing.T) {
	s, h, changed := configEnv(t, "brokerName=b1\nmyCustomKey=abc\nbrokerPermission=6\n")
	ht := handlers(h.register)
	get := func() (map[string]string, string, []byte) {
		resp := call(t, ht[protocol.ReqGetBrokerConfig], request(protocol.ReqGetBrokerConfig, nil))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
		var rh protocol.GetBrokerConfigResponseHeader
		require.NoError(t, rh.DecodeFrom(resp))
		return lines(resp.Body), rh.Version, resp.Body
	}
	before, version, _ := get()
	require.Equal(t, "b1", before["brokerName"])
	require.Equal(t, "abc", before["myCustomKey"], "the -c file's unknown keys are part of the table")
	require.Equal(t, "6", before["brokerPermission"])
	require.Equal(t, "ASYNC_FLUSH", before["flushDiskType"])
	require.Equal(t, "10911", before["listenPort"])
	require.Equal(t, `{"counter":0,"timestamp":1700000001000}`, version)

	req := request(protocol.ReqUpdateBrokerConfig, nil)
	req.Body = []byte("brokerPermission=4\nflushDiskType=SYNC_FLUSH\nnotAConfigKey=1\n")
	resp := call(t, ht[protocol.ReqUpdateBrokerConfig], req)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, 1, *changed)
	require.Equal(t, int32(4), s.Broker.BrokerPermission)
	require.Equal(t, store.SyncFlush, s.Store.FlushDiskType)

	after, version, body := get()
	require.Equal(t, "4", after["brokerPermission"])
	require.Equal(t, "SYNC_FLUSH", after["flushDiskType"])
	require.NotContains(t, after, "notAConfigKey", "Configuration.mergeIfExist")
	require.Len(t, after, len(before))
	require.Equal(t, `{"counter":1,"timestamp":1700000002000}`, version)
	persisted, err := os.ReadFile(s.BrokerConfigPath)
	require.NoError(t, err)
	require.Equal(t, string(body), string(persisted))

	req = request(protocol.ReqUpdateBrokerConfig, nil)
	req.Body = []byte("deleteWhen=03\n")
	resp = call(t, ht[protocol.ReqUpdateBrokerConfig], req)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, 1, *changed, "only brokerPermission re-registers")
}

func TestBrokerConfigBlackList(t *testing.T) {
	_, h, _ := configEnv(t, "configBlackList=configBlackList;listenPort;\n")
	ht := handlers(h.register)
	for _, tc := range []struct {
		body string
		code protocol.ResponseCode
	}{
		{"brokerConfigPath=/x\n", protocol.RespNoPermission}, // always
		{"rocketmqHome=/x\n", protocol.RespNoPermission},     // always
		{"configBlackList=\n", protocol.RespNoPermission},    // always
		{"listenPort=1\n", protocol.RespNoPermission},        // from configBlackList
		{"deleteWhen=01\n", protocol.RespSuccess},
		{"", protocol.RespSuccess},
	} {
		req := request(protocol.ReqUpdateBrokerConfig, nil)
		req.Body = []byte(tc.body)
		resp := call(t, ht[protocol.ReqUpdateBrokerConfig], req)
		require.Equal(t, int32(tc.code), resp.Code, tc.body)
		if tc.code == protocol.RespNoPermission {
			require.Equal(t, "Can not update config in black list.", resp.Remark)
		}
	}
	require.Equal(t, `{"counter":1,"timestamp":1700000002000}`, h.conf.versionJSON(), "one update applied, the empty body ignored")
}

func TestJavaSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a;b", []string{"a", "b"}}, {"a;b;;", []string{"a", "b"}}, {"", []string{""}}, {";a", []string{"", "a"}},
	} {
		require.Equal(t, tc.want, javaSplit(tc.in, ";"), tc.in)
	}
}
