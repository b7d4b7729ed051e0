package cluster

import (
	"maps"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

func TestEscapeProp(t *testing.T) {
	for _, c := range []struct {
		in   string
		key  bool
		want string
		desc string
	}{
		{"plain", false, "plain", "plain value"},
		{"a b", true, `a\ b`, "space in key"},
		{" lead", false, `\ lead`, "leading space in value"},
		{"mid space", false, "mid space", "inner space in value"},
		{"127.0.0.1:9876;127.0.0.1:9877", false, `127.0.0.1\:9876;127.0.0.1\:9877`, "colon"},
		{`C:\x=y#!`, false, `C\:\\x\=y\#\!`, "separators and comment chars"},
		{"é\t", false, `\u00E9\t`, "non-ASCII and tab"},
		{"😀", false, `\uD83D\uDE00`, "surrogate pair"},
	} {
		if got := escapeProp(c.in, c.key); got != c.want {
			t.Errorf("%s: escapeProp(%q) = %q, want %q", c.desc, c.in, got, c.want)
		}
	}
}

func TestPropertiesOrderAndMerge(t *testing.T) {
	var p Properties
	p.Set("b", "1")
	p.Set("a", "2")
	p.Set("b", "3")
	p.Merge(map[string]string{"z": "9", "c": "8"})
	if got := strings.Join(p.Keys(), ","); got != "b,a,c,z" {
		t.Errorf("keys %s", got)
	}
	lines := strings.Split(strings.TrimSpace(p.String()), "\n")
	if lines[1] != "b=3" || len(lines) != 5 {
		t.Errorf("rendered %q", p.String())
	}
}

func TestBrokerProperties(t *testing.T) {
	p := brokerProperties("/run/broker-a", BrokerOptions{Name: "broker-a", Cluster: "C", Namesrv: "127.0.0.1:1", Port: 20911,
		Extra: map[string]string{"flushDiskType": "SYNC_FLUSH", "aclEnable": "true"}})
	want := map[string]string{
		"brokerClusterName":          "C",
		"brokerName":                 "broker-a",
		"brokerId":                   "0",
		"brokerRole":                 "ASYNC_MASTER",
		"listenPort":                 "20911",
		"brokerIP1":                  "127.0.0.1",
		"storePathRootDir":           filepath.Join("/run/broker-a", "store"),
		"mappedFileSizeCommitLog":    "104857600",
		"mappedFileSizeConsumeQueue": "600000",
		"flushDiskType":              "SYNC_FLUSH", // Extra wins
		"aclEnable":                  "true",
		"deleteWhen":                 "04",
	}
	for k, v := range want {
		if got, _ := p.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	// 4.9 reads only the new spelling; the old one would be silently ignored.
	if _, ok := p.Get("mapedFileSizeCommitLog"); ok {
		t.Error("old mapedFileSizeCommitLog spelling written")
	}
}

func TestNamesrvProperties(t *testing.T) {
	p := namesrvProperties("/run/ns", 9876, nil)
	if v, _ := p.Get("listenPort"); v != "9876" {
		t.Errorf("listenPort %q", v)
	}
	if v, _ := p.Get("kvConfigPath"); v != "/run/ns/kvConfig.json" {
		t.Errorf("kvConfigPath %q", v)
	}
}

func TestPortsBroker(t *testing.T) {
	p := NewPorts(21000, 21100)
	seen := map[int]bool{}
	for i := 0; i < 10; i++ {
		base, err := p.Broker()
		if err != nil {
			t.Fatal(err)
		}
		for _, port := range BrokerPorts(base) {
			if port < 21000 || port >= 21100 {
				t.Fatalf("port %d outside the range", port)
			}
			if seen[port] {
				t.Fatalf("port %d handed out twice", port)
			}
			seen[port] = true
		}
	}
}

func TestPortsSkipBusy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	busy := l.Addr().(*net.TCPAddr).Port
	if bindable(busy) {
		t.Fatalf("port %d in use but bindable", busy)
	}
	p := NewPorts(busy, busy+1)
	if _, err := p.Namesrv(); err == nil {
		t.Fatalf("got the busy port %d", busy)
	}
	p = NewPorts(20000, 20010)
	p.Reserve(20000, 20001, 20002, 20003, 20004, 20005, 20006, 20007, 20008)
	if got, err := p.Namesrv(); err != nil && got != 0 || err == nil && got != 20009 {
		t.Fatalf("Namesrv() = %d, %v; want 20009 or no port", got, err)
	}
}

func TestWithDefaults(t *testing.T) {
	for _, tc := range []struct {
		m, defaults, want map[string]string
	}{
		{nil, nil, nil},
		{map[string]string{"a": "1"}, nil, map[string]string{"a": "1"}},
		{nil, map[string]string{"b": "2"}, map[string]string{"b": "2"}},
		{map[string]string{"a": "1", "b": "own"}, map[string]string{"b": "2", "c": "3"}, map[string]string{"a": "1", "b": "own", "c": "3"}},
	} {
		if got := withDefaults(tc.m, tc.defaults); !maps.Equal(got, tc.want) {
			t.Errorf("withDefaults(%v, %v) = %v, want %v", tc.m, tc.defaults, got, tc.want)
		}
	}
}
