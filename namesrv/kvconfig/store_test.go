package kvconfig

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func str(s string) *string { return &s }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPersistRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "namesrv", "kvConfig.json")
	s := open(t, path)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening created the file: %v", err)
	}
	for _, kv := range [][3]string{{"ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4;broker-b:4"}, {"NS2", "k\"é", "v\n1"}, {"NS2", "k2", "v2"}} {
		if err := s.Put(kv[0], kv[1], str(kv[2])); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete("NS2", "k2"); err != nil {
		t.Fatal(err)
	}
	want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicA":"broker-a:4;broker-b:4"},"NS2":{"k\"é":"v\n1"}}}`
	if got := readFile(t, path); got != want {
		t.Fatalf("file\n got %s\nwant %s", got, want)
	}
	// The .bak holds the content before the last write (MixAll.string2File).
	if got := readFile(t, path+".bak"); got == want || got == "" {
		t.Errorf(".bak = %q", got)
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".tmp left behind: %v", err)
	}
	again := open(t, path)
	if v, ok := again.Get("NS2", "k\"é"); !ok || v != "v\n1" {
		t.Errorf("reloaded value %q %v", v, ok)
	}
	body, ok := again.KVTableJSON("ORDER_TOPIC_CONFIG")
	if !ok || string(body) != `{"table":{"TopicA":"broker-a:4;broker-b:4"}}` {
		t.Errorf("KVTable %s %v", body, ok)
	}
}

// testdata/java_kvConfig.json was written by the Java 4.9.8 name server of
// the golden scenario (namesrv/testdata). The expected rewrites are what
// Java's KVConfigManager wrote after load() and one change: loading pre-sizes
// the namespace table (HashMap.putAll), so the order of namespaces changes.
func TestReadsJavaFileAndWritesItLikeJava(t *testing.T) {
	java := readFile(t, "testdata/java_kvConfig.json")
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	if err := os.WriteFile(path, []byte(java), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if v, ok := s.Get("NS2", "k2"); !ok || v != "vé\"2" {
		t.Errorf("Get = %q %v", v, ok)
	}
	steps := []struct {
		op   func() error
		want string
	}{
		{func() error { return s.Delete("none", "none") }, // persists, as Java does
			`{"configTable":{"NS2":{"k1":"v1","k2":"vé\"2"},"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:8;broker-b:4"}}}`},
		{func() error { return s.Put("NS3", "x", str("y")) },
			`{"configTable":{"NS2":{"k1":"v1","k2":"vé\"2"},"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:8;broker-b:4"},"NS3":{"x":"y"}}}`},
	}
	for i, st := range steps {
		if err := st.op(); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, path); got != st.want {
			t.Errorf("step %d\n got %s\nwant %s", i, got, st.want)
		}
	}
	s = open(t, path) // restart again
	_ = s.Put("ORDER_TOPIC_CONFIG", "TopicZ", str("b:1"))
	want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:8;broker-b:4","TopicZ":"b:1"},"NS2":{"k1":"v1","k2":"vé\"2"},"NS3":{"x":"y"}}}`
	if got := readFile(t, path); got != want {
		t.Errorf("after restart\n got %s\nwant %s", got, want)
	}
}

func TestReadsLenientAndPrettyFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	pretty := "{\n\t\"configTable\":{\n\t\t\"NS\":{\n\t\t\t'a':'1',b:2,\"n\":null,,\n\t\t}\n\t}\n}"
	if err := os.WriteFile(path, []byte(pretty), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if v, _ := s.Get("NS", "b"); v != "2" {
		t.Errorf("b = %q", v)
	}
	if _, ok := s.Get("NS", "n"); ok {
		t.Error("null value readable")
	}
	body, _ := s.KVTableJSON("NS")
	if string(body) != `{"table":{"a":"1","b":"2"}}` {
		t.Errorf("KVTable %s", body)
	}
}

func TestNullValueHidesKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	s := open(t, path)
	_ = s.Put("NS", "k", str("v"))
	_ = s.Put("NS", "k", nil) // PUT_KV_CONFIG without value: Java stores null
	if _, ok := s.Get("NS", "k"); ok {
		t.Error("null value readable")
	}
	if got := readFile(t, path); got != `{"configTable":{"NS":{}}}` {
		t.Errorf("file %s", got)
	}
}

func TestCorruptFileFallsBackToBak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	s := open(t, path)
	_ = s.Put("NS", "k", str("v1"))
	_ = s.Put("NS", "k", str("v2")) // .bak now holds v1
	if err := os.WriteFile(path, []byte(`{"configTable":{"NS":{"k":`), 0o644); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	if v, _ := s.Get("NS", "k"); v != "v1" {
		t.Errorf("from .bak: %q", v)
	}
	_ = os.WriteFile(path+".bak", []byte("garbage"), 0o644)
	if _, err := Open(path, nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("both corrupt: %v", err)
	}
}

func TestPersistFailureIsReportedAndFlushRetries(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sub", "kvConfig.json")
	s := open(t, path)
	s.path = filepath.Join(blocker, "kvConfig.json") // a file as parent dir
	if err := s.Put("NS", "k", str("v")); err == nil {
		t.Fatal("persist into a file succeeded")
	}
	if v, _ := s.Get("NS", "k"); v != "v" {
		t.Error("value lost after a failed persist")
	}
	s.path = path
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != `{"configTable":{"NS":{"k":"v"}}}` {
		t.Errorf("flushed %s", got)
	}
	if err := s.Flush(); err != nil { // clean: nothing to do
		t.Fatal(err)
	}
}
