package acl

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// newHome makes a ROCKETMQ_HOME with conf/ and the given files (paths
// relative to the home).
func newHome(t *testing.T, files map[string]string) string {
	t.Helper()
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "conf"), 0o755))
	for p, data := range files {
		writeFile(t, filepath.Join(home, p), data)
	}
	return home
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

func sample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/plain_acl.yml")
	require.NoError(t, err)
	return string(data)
}

func open(t *testing.T, home string) *Manager {
	t.Helper()
	m, err := Open(Options{Home: home})
	require.NoError(t, err)
	return m
}

// signed builds a request signed with secret.
func signed(code int32, addr, key, secret string, res map[string]Perm) *Request {
	content := Content(map[string]string{"AccessKey": key, "topic": "x"}, []byte("body"))
	r := &Request{Code: code, RemoteAddr: addr, HasAccessKey: true, AccessKey: key,
		Signature: Sign(content, secret), Content: content}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		r.Need(k, res[k])
	}
	return r
}

func TestLoadSample(t *testing.T) {
	home := newHome(t, map[string]string{"conf/plain_acl.yml": sample(t)})
	m := open(t, home)
	s := m.snap.Load()
	require.Len(t, s.globalWhite, 2)
	require.Len(t, s.accounts, 2)

	a := s.accounts["RocketMQ"]
	require.Equal(t, "12345678", a.SecretKey) // an int in YAML, a string to Java
	require.False(t, a.Admin)
	require.Equal(t, Deny, a.defaultTopicPerm)
	require.Equal(t, Sub, a.defaultGroupPerm)
	require.Equal(t, map[string]Perm{"topicA": Deny, "topicB": Pub | Sub, "topicC": Sub,
		"%RETRY%groupA": Deny, "%RETRY%groupB": Pub | Sub, "%RETRY%groupC": Sub}, a.perms)
	require.False(t, a.white("192.168.1.1"))

	b := s.accounts["rocketmq2"]
	require.True(t, b.Admin)
	require.Nil(t, b.perms)
	require.Equal(t, Deny, b.defaultTopicPerm) // absent: parsePermFromString(null)
	require.True(t, b.white("192.168.1.77"))
}

func TestOpenCreatesPlainFile(t *testing.T) {
	home := newHome(t, nil)
	m := open(t, home)
	_, err := os.Stat(filepath.Join(home, "conf", "plain_acl.yml"))
	require.NoError(t, err)
	require.Empty(t, m.snap.Load().accounts)

	// Without conf/ the file cannot be created: Java throws too.
	_, err = Open(Options{Home: t.TempDir()})
	require.Error(t, err)
}

func TestNoHome(t *testing.T) {
	m, err := Open(Options{})
	require.NoError(t, err)
	err = m.Validate(&Request{RemoteAddr: "127.0.0.1", HasAccessKey: true, AccessKey: "RocketMQ"})
	require.EqualError(t, err, "org.apache.rocketmq.acl.common.AclException: No acl config for RocketMQ, "+
		"org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:668)")
	require.NoError(t, m.Reload())
}

// Java 4.9.8: PlainPermissionManager.validate and checkPerm, every outcome.
func TestValidate(t *testing.T) {
	home := newHome(t, map[string]string{"conf/plain_acl.yml": sample(t) + `
  - accessKey: adminWithPerms
    secretKey: 87654321
    admin: true
    defaultTopicPerm: PUB
    topicPerms: [topicX=SUB]
`})
	m := open(t, home)
	const (
		pull   = 11
		create = 17
		v      = "org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:"
		c      = "org.apache.rocketmq.acl.plain.PlainPermissionManager.checkPerm(PlainPermissionManager.java:"
		ex     = "org.apache.rocketmq.acl.common.AclException: "
	)
	badSig := signed(pull, "127.0.0.1", "RocketMQ", "wrong-secret", nil)
	for _, tc := range []struct {
		name string
		r    *Request
		want string // "" = allowed
	}{
		{"global white skips everything", &Request{RemoteAddr: "10.10.103.7"}, ""},
		{"global white, bad signature", func() *Request { r := *badSig; r.RemoteAddr = "192.168.0.9"; return &r }(), ""},
		{"no access key", &Request{RemoteAddr: "127.0.0.1"}, ex + "No accessKey is configured, " + v + "664)"},
		{"empty access key", &Request{RemoteAddr: "127.0.0.1", HasAccessKey: true}, ex + "No acl config for , " + v + "668)"},
		{"unknown key", signed(pull, "127.0.0.1", "nobody12", "12345678", nil), ex + "No acl config for nobody12, " + v + "668)"},
		{"account white skips the signature", func() *Request {
			r := signed(create, "192.168.1.5", "rocketmq2", "wrong-secret", nil)
			return r
		}(), ""},
		{"bad signature", badSig, ex + "Check signature failed for accessKey=RocketMQ, " + v + "684)"},
		{"no signature", &Request{RemoteAddr: "127.0.0.1", HasAccessKey: true, AccessKey: "RocketMQ"}, ex + "Check signature failed for accessKey=RocketMQ, " + v + "684)"},
		{"trace topic PUB skips perms", signed(create, "127.0.0.1", "RocketMQ", "12345678",
			map[string]Perm{"RMQ_SYS_TRACE_TOPIC": Pub, "topicA": Pub}), ""},
		{"trace topic SUB is checked", signed(pull, "127.0.0.1", "RocketMQ", "12345678",
			map[string]Perm{"RMQ_SYS_TRACE_TOPIC": Sub}), ex + "No default permission for topic:RMQ_SYS_TRACE_TOPIC, " + c + "606)"},
		{"admin code, not admin", signed(create, "127.0.0.1", "RocketMQ", "12345678", nil),
			ex + "Need admin permission for request code=17, but accessKey=RocketMQ is not, " + c + "581)"},
		{"admin code, admin", signed(create, "127.0.0.1", "rocketmq2", "12345678", nil), ""},
		{"admin without perms passes all", signed(pull, "127.0.0.1", "rocketmq2", "12345678",
			map[string]Perm{"anything": Pub, "%RETRY%g": Sub}), ""},
		{"admin with perms uses them", signed(pull, "127.0.0.1", "adminWithPerms", "87654321",
			map[string]Perm{"topicX": Pub}), ex + "No default permission for topic:topicX, " + c + "611)"},
		{"admin with perms, default topic", signed(pull, "127.0.0.1", "adminWithPerms", "87654321",
			map[string]Perm{"other": Pub}), ""},
		{"admin with perms, default group DENY", signed(pull, "127.0.0.1", "adminWithPerms", "87654321",
			map[string]Perm{"%RETRY%g": Sub}), ex + "No default permission for group:g, " + c + "606)"},
		{"no resources", signed(pull, "127.0.0.1", "RocketMQ", "12345678", nil), ""},
		{"owned topic SUB", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"topicC": Sub}), ""},
		{"owned topic wrong perm", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"topicC": Pub}),
			ex + "No default permission for topic:topicC, " + c + "611)"},
		{"owned topic DENY", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"topicA": Sub}),
			ex + "No default permission for topic:topicA, " + c + "611)"},
		{"owned group", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"%RETRY%groupB": Sub}), ""},
		{"owned group DENY", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"%RETRY%groupA": Sub}),
			ex + "No default permission for group:groupA, " + c + "611)"},
		{"default topic DENY", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"topicZ": Sub}),
			ex + "No default permission for topic:topicZ, " + c + "606)"},
		{"default group SUB", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"%RETRY%groupZ": Sub}), ""},
		{"ANY with PUB|SUB", signed(pull, "127.0.0.1", "RocketMQ", "12345678", map[string]Perm{"topicB": Any}), ""},
		{"first failure in HashMap order", signed(pull, "127.0.0.1", "RocketMQ", "12345678",
			map[string]Perm{"%RETRY%g": Pub, "topicA": Sub}), ex + "No default permission for topic:topicA, " + c + "611)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := m.Validate(tc.r)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			var ae *Error
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tc.want, err.Error())
		})
	}
}

func TestLoadErrors(t *testing.T) {
	for name, data := range map[string]string{
		"short key":       "accounts:\n  - accessKey: abc\n    secretKey: 12345678\n",
		"no secret":       "accounts:\n  - accessKey: abcdefgh\n",
		"bad resource":    "accounts:\n  - accessKey: abcdefgh\n    secretKey: 12345678\n    topicPerms: [topicA]\n",
		"bad group":       "accounts:\n  - accessKey: abcdefgh\n    secretKey: 12345678\n    groupPerms: [g=SUB=PUB]\n",
		"bad white":       "accounts:\n  - accessKey: abcdefgh\n    secretKey: 12345678\n    whiteRemoteAddress: 300.1.1.1\n",
		"bad global":      "globalWhiteRemoteAddresses: [1.2.3.4-1]\n",
		"not a mapping":   "- a\n- b\n",
		"accounts scalar": "accounts: x\n",
		"syntax":          "accounts: [\n",
		"two documents":   "a: 1\n---\nb: 2\n",
		"bad admin":       "accounts:\n  - accessKey: abcdefgh\n    secretKey: 12345678\n    admin: maybe\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := newHome(t, map[string]string{"conf/plain_acl.yml": data})
			_, err := Open(Options{Home: home})
			require.ErrorContains(t, err, filepath.Join(home, "conf", "plain_acl.yml"))
		})
	}
	home := newHome(t, map[string]string{"conf/plain_acl.yml": "accounts:\n  - accessKey: abc\n"})
	_, err := Open(Options{Home: home})
	require.ErrorContains(t, err, "The accessKey=abc and secretKey=null cannot be null and length should longer than 6")
}

func TestLoadLenient(t *testing.T) {
	home := newHome(t, map[string]string{"conf/plain_acl.yml": `
globalWhiteRemoteAddresses:
accounts:
  - accessKey: 1234567
    secretKey: 0x7FFFFFFF
    admin: yes
    whiteRemoteAddress: ""
    unknownField: 1
  - AccessKey: '7654321'
    secret_key: abcdefgh
    Admin: 1
dataVersion:
  - counter: 3
    timestamp: 1700000000000
`})
	m := open(t, home)
	s := m.snap.Load()
	require.Empty(t, s.globalWhite)
	require.Equal(t, "2147483647", s.accounts["1234567"].SecretKey)
	require.True(t, s.accounts["1234567"].Admin)
	require.Equal(t, "abcdefgh", s.accounts["7654321"].SecretKey)
	require.True(t, s.accounts["7654321"].Admin)
	require.Equal(t, DataVersion{Counter: 3, Timestamp: 1700000000000}, m.DataVersion())

	for _, empty := range []string{"", "# nothing\n", "{}\n", "~\n"} {
		home := newHome(t, map[string]string{"conf/plain_acl.yml": empty})
		require.Empty(t, open(t, home).snap.Load().accounts, "%q", empty)
	}
}

// An access key in two files belongs to the first file loaded: conf/acl/
// in name order, then the plain file.
func TestFirstFileWins(t *testing.T) {
	acc := func(secret string) string {
		return "accounts:\n  - accessKey: shared1\n    secretKey: " + secret + "\n    admin: true\n"
	}
	home := newHome(t, map[string]string{
		"conf/acl/a.yml":       acc("secret-a"),
		"conf/acl/sub/b.yaml":  acc("secret-b"),
		"conf/acl/ignored.txt": "not yaml",
		"conf/plain_acl.yml":   acc("secret-plain"),
	})
	m := open(t, home)
	s := m.snap.Load()
	require.Equal(t, []string{
		filepath.Join(home, "conf/acl/a.yml"), filepath.Join(home, "conf/acl/sub/b.yaml"),
		filepath.Join(home, "conf/plain_acl.yml"),
	}, s.files)
	require.Equal(t, "secret-a", s.accounts["shared1"].SecretKey)
	require.Equal(t, filepath.Join(home, "conf/acl/a.yml"), s.accounts["shared1"].file)
	require.NoError(t, m.Validate(signed(17, "127.0.0.1", "shared1", "secret-a", nil)))
}

// checkFor polls cond until it holds or the deadline passes.
func checkFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// AclFileWatchService: a modified, added or broken file is noticed; a broken
// one keeps the previous configuration.
func TestRunReloads(t *testing.T) {
	home := newHome(t, map[string]string{"conf/plain_acl.yml": sample(t)})
	m, err := Open(Options{Home: home, WatchInterval: 10 * time.Millisecond})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m.Run(ctx) }()
	defer func() { cancel(); wg.Wait() }()

	has := func(key string) func() bool {
		return func() bool { return m.snap.Load().accounts[key] != nil }
	}
	plain := filepath.Join(home, "conf", "plain_acl.yml")
	writeFile(t, plain, sample(t)+"\n  - accessKey: newcomer\n    secretKey: 12345678\n")
	bump(t, plain)
	checkFor(t, 5*time.Second, has("newcomer"))

	writeFile(t, filepath.Join(home, "conf", "acl", "extra.yml"), "accounts:\n  - accessKey: extra123\n    secretKey: 12345678\n")
	checkFor(t, 5*time.Second, has("extra123"))

	writeFile(t, plain, "accounts: [\n")
	bump(t, plain)
	// The broken file is seen (seen stamps change) but the old snapshot stays.
	checkFor(t, 5*time.Second, func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.seen) == 2 && m.seen[1].size == int64(len("accounts: [\n"))
	})
	require.True(t, has("newcomer")())
}

// bump moves the modification time forward so that a rewrite within the
// file system's timestamp granularity is still a change.
func bump(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	ts := fi.ModTime().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(path, ts, ts))
}

func TestRunNoHomeReturns(t *testing.T) {
	m, err := Open(Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	cancel()
	<-done
}
