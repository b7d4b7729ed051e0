package scenario

import (
	"io"
	"log"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("no scenarios registered")
	}
	quick := 0
	for _, s := range all {
		if s.Doc == "" || len(s.Tags) == 0 {
			t.Errorf("%s: needs Doc and Tags", s.Name)
		}
		if parts := strings.Split(s.Name, "/"); len(parts) < 2 || !s.HasTag(parts[0]) {
			t.Errorf("%s: name must be area/what and carry its area tag", s.Name)
		}
		if s.Needs.Brokers < 1 {
			t.Errorf("%s: Needs.Brokers %d", s.Name, s.Needs.Brokers)
		}
		if s.HasTag("quick") {
			quick++
		}
	}
	if quick == 0 || quick == len(all) {
		t.Errorf("%d of %d scenarios are quick; want a strict subset", quick, len(all))
	}
}

func TestRegisterDuplicatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("duplicate registration did not panic")
		}
	}()
	Register(&Scenario{Name: All()[0].Name, Run: All()[0].Run})
}

func TestSelectLifecycleLast(t *testing.T) {
	sel := Select([]string{"namesrv"}, nil)
	seenLifecycle := false
	for _, s := range sel {
		if s.HasTag("lifecycle") {
			seenLifecycle = true
		} else if seenLifecycle {
			t.Errorf("%s runs after a lifecycle scenario", s.Name)
		}
	}
	if got := Select([]string{"no-such-tag"}, nil); len(got) != 0 {
		t.Errorf("unknown tag selected %d", len(got))
	}
}

func TestMask(t *testing.T) {
	env := &Env{Namesrv: "127.0.0.1:1000", Brokers: []Broker{{"broker-a", "127.0.0.1:2000"}},
		Slaves: []Broker{{"broker-a", "127.0.0.1:3000"}}, Dir: "/tmp/x", Log: log.New(io.Discard, "", 0)}
	got := env.Mask("ns 127.0.0.1:1000 b 127.0.0.1:2000 s 127.0.0.1:3000 f /tmp/x/y")
	if got != "ns <namesrv> b <broker-a> s <broker-a#1> f <dir>/y" {
		t.Errorf("Mask = %q", got)
	}
	env.Observe("o", "t")
	if obs := env.Observations(); len(obs) != 1 || obs[0].Name != "o" {
		t.Errorf("observations %v", obs)
	}
}

func TestQueuesString(t *testing.T) {
	env := &Env{Brokers: []Broker{{"broker-b", ""}, {"broker-a", ""}}}
	if got := expectedQueues(env, "T", 2); got != "T@broker-a:0 T@broker-a:1 T@broker-b:0 T@broker-b:1" {
		t.Errorf("expectedQueues = %q", got)
	}
}
