package brokerconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad feeds arbitrary command lines and -c file contents through
// Load: it must never panic, and a start-up that goes on must satisfy the
// rules Load enforces.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conf", "*", "*.properties"))
	files = append(files, filepath.Join("testdata", "tricky.properties"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add("-p", data)
	}
	f.Add("-pm -n a:1;b:2", []byte("brokerRole=SLAVE\nbrokerId=0\n"))
	f.Add("--configFile=x -h", []byte("listenPort=\\u0031\n"))
	f.Add("-c", []byte("namesrvAddr=;;:\n"))
	f.Fuzz(func(t *testing.T, cmdline string, conf []byte) {
		path := filepath.Join(t.TempDir(), "f.conf")
		if err := os.WriteFile(path, conf, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(strings.Fields(cmdline), "-c", path)
		s, err := pinned(home).Load(args)
		if err != nil || s.Exit != nil {
			return
		}
		if s.Store.HaListenPort != s.NettyServer.ListenPort+1 {
			t.Fatalf("haListenPort %d, listenPort %d", s.Store.HaListenPort, s.NettyServer.ListenPort)
		}
		if s.Store.BrokerRole == "SLAVE" && s.Broker.BrokerID <= 0 && !s.Store.EnableDLegerCommitLog {
			t.Fatalf("slave with brokerId %d", s.Broker.BrokerID)
		}
		var b strings.Builder
		if err := Print(&b, s, false); err != nil {
			t.Fatal(err)
		}
	})
}
