package acl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAdminOperations(t *testing.T) {
	home := newHome(t, map[string]string{
		"conf/plain_acl.yml": sample(t) + "dataVersion:\n  - counter: 4\n    timestamp: 1\n",
		"conf/acl/other.yml": "globalWhiteRemoteAddresses: [127.0.0.9]\naccounts:\n  - accessKey: other123\n    secretKey: '0012345678'\n",
	})
	m := open(t, home)
	plain := filepath.Join(home, "conf", "plain_acl.yml")

	// Config: files in load order, conf/acl first.
	c := m.Config()
	require.Equal(t, []string{"127.0.0.9", "10.10.103.*", "192.168.0.*"}, c.GlobalWhiteAddrs)
	require.Len(t, c.PlainAccessConfigs, 3)
	require.Equal(t, "0012345678", c.PlainAccessConfigs[0].SecretKey)
	js, err := json.Marshal(c.PlainAccessConfigs[2])
	require.NoError(t, err)
	require.JSONEq(t, `{"accessKey":"rocketmq2","admin":true,"secretKey":"12345678","whiteRemoteAddress":"192.168.1.*"}`, string(js))

	// Add a new account: it goes to the plain file.
	require.NoError(t, m.UpdateAccount(Account{AccessKey: "newuser1", SecretKey: "01234567", DefaultTopicPerm: "PUB",
		TopicPerms: []string{"t1=SUB"}}))
	require.Equal(t, int64(5), m.DataVersion().Counter)
	require.Equal(t, "01234567", m.snap.Load().accounts["newuser1"].SecretKey) // quoted on write
	require.NoError(t, m.Validate(signed(11, "1.1.1.1", "newuser1", "01234567", map[string]Perm{"t1": Sub, "x": Pub})))

	// Update one in conf/acl: the other fields are kept.
	require.NoError(t, m.UpdateAccount(Account{AccessKey: "other123", SecretKey: "newsecret", Admin: true}))
	a := m.snap.Load().accounts["other123"]
	require.Equal(t, filepath.Join(home, "conf", "acl", "other.yml"), a.file)
	require.Equal(t, "newsecret", a.SecretKey)
	require.True(t, a.Admin)
	require.Equal(t, int64(1), m.DataVersions()[a.file].Counter)

	// Java's validation messages.
	require.EqualError(t, m.UpdateAccount(Account{AccessKey: "short", SecretKey: "12345678"}),
		"The accessKey=short and secretKey=12345678 cannot be null and length should longer than 6")
	require.ErrorContains(t, m.UpdateAccount(Account{AccessKey: "newuser1", SecretKey: "12345678", TopicPerms: []string{"t=ALL"}}),
		"Parse resource permission error for t=ALL.")

	// Delete.
	ok, err := m.DeleteAccount("newuser1")
	require.NoError(t, err)
	require.True(t, ok)
	require.Nil(t, m.snap.Load().accounts["newuser1"])
	ok, err = m.DeleteAccount("newuser1")
	require.NoError(t, err)
	require.False(t, ok)

	// Global white addresses; the rest of the file is kept.
	ok, err = m.UpdateGlobalWhiteAddrs([]string{"172.16.*.*"}, "")
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, m.Validate(&Request{RemoteAddr: "172.16.3.4"}))
	require.Equal(t, []string{"127.0.0.9", "172.16.*.*"}, m.Config().GlobalWhiteAddrs)
	require.NotNil(t, m.snap.Load().accounts["RocketMQ"])
	ok, err = m.UpdateGlobalWhiteAddrs(nil, "")
	require.NoError(t, err)
	require.False(t, ok)
	ok, _ = m.UpdateGlobalWhiteAddrs([]string{"1.1.1.1"}, filepath.Join(t.TempDir(), "x.yml"))
	require.False(t, ok)
	_, err = m.UpdateGlobalWhiteAddrs([]string{"300.1.1.1"}, plain)
	require.Error(t, err)

	// No temporary files left behind.
	entries, err := os.ReadDir(filepath.Join(home, "conf"))
	require.NoError(t, err)
	for _, e := range entries {
		require.NotContains(t, e.Name(), ".tmp")
	}
}
