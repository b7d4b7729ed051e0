package namesrv_test

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// The golden scenario: testdata/scenario.jsonl replayed against a real
// Java name server by compat/java's NamesrvReplay produced
// testdata/java_replay.golden (and the kvConfig.json and namesrv.conf it
// left behind); see testdata/README.md. This test replays the same steps
// against Sputnik's name server with raw frames and wants every response
// (code, remark, header fields, body bytes) and both files byte for byte.

type scenarioStep struct {
	Step             string            `json:"step"`
	Conn             string            `json:"conn"`
	Code             int32             `json:"code"`
	Version          int32             `json:"version"`
	Serialize        string            `json:"serialize"`
	Ext              map[string]string `json:"ext"`
	Body             *string           `json:"body"`
	Compress         bool              `json:"compress"`
	CRC              string            `json:"crc"`
	Close            string            `json:"close"`
	AwaitGone        string            `json:"awaitGone"`
	ExpectNoResponse bool              `json:"expectNoResponse"`
}

func readScenario(t *testing.T) []scenarioStep {
	t.Helper()
	data, err := os.ReadFile("testdata/scenario.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var steps []scenarioStep
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s scenarioStep
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		steps = append(steps, s)
	}
	return steps
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// startGoldenNamesrv starts a name server configured as the Java one was:
// with `-c namesrv.conf` from testdata, its $DIR pointing at a temp dir.
func startGoldenNamesrv(t *testing.T) (*namesrv.Server, string) {
	dir := t.TempDir()
	tmpl, err := os.ReadFile("testdata/namesrv_golden.conf")
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join(dir, "namesrv.conf")
	if err := os.WriteFile(confPath, bytes.ReplaceAll(tmpl, []byte("$DIR"), []byte(dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := namesrvtest.StartTestNamesrv(t, func(o *namesrv.Options) {
		o.Config = namesrv.DefaultConfig(dir, nil)
		o.Netty = namesrv.DefaultNettyConfig()
		props, _, _, err := namesrv.LoadConfigFile(confPath, &o.Config, &o.Netty)
		if err != nil {
			t.Fatal(err)
		}
		o.FileProps = props
	})
	return s, dir
}

func TestGoldenScenarioMatchesJava(t *testing.T) {
	steps := readScenario(t)
	want := readLines(t, "testdata/java_replay.golden")
	s, dir := startGoldenNamesrv(t)
	r := &replayer{t: t, s: s, conns: map[string]*namesrvtest.Client{}}
	var got []string
	for _, st := range steps {
		got = append(got, strings.ReplaceAll(r.step(st), dir, "$DIR"))
	}
	for i := range max(len(got), len(want)) {
		g, w := lineAt(got, i), lineAt(want, i)
		if g != w {
			t.Errorf("step %d differs:\n got %s\nwant %s", i, g, w)
		}
	}
	compareFile(t, filepath.Join(dir, "kv", "kvConfig.json"), "testdata/java_kvConfig.golden.json", dir)
	compareFile(t, filepath.Join(dir, "namesrv.conf"), "testdata/java_namesrv_conf.golden", dir)
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<missing>"
}

func compareFile(t *testing.T, path, golden, dir string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.ReplaceAll(string(got), dir, "$DIR"); g != string(want) {
		t.Errorf("%s:\n got %q\nwant %q", filepath.Base(path), g, want)
	}
}

type replayer struct {
	t     *testing.T
	s     *namesrv.Server
	conns map[string]*namesrvtest.Client
}

func (r *replayer) step(st scenarioStep) string {
	if st.Close != "" {
		r.conns[st.Close].Close()
		delete(r.conns, st.Close)
		waitFor(r.t, "broker "+st.AwaitGone+" to leave", func() bool {
			_, live := r.s.Routes().DataVersionOf(st.AwaitGone)
			return !live
		})
		return st.Step + "\tclosed"
	}
	c, ok := r.conns[st.Conn]
	if !ok {
		c = namesrvtest.Dial(r.t, r.s.Addr().String())
		r.conns[st.Conn] = c
	}
	req := buildRequest(r.t, st)
	if st.ExpectNoResponse {
		c.Send(req)
		probe := c.Call(wire.NewRequest(106)) // fails unless the next frame answers the probe
		if probe.Code != 0 {
			r.t.Fatalf("%s: probe answered %d", st.Step, probe.Code)
		}
		return st.Step + "\tNO_RESPONSE"
	}
	return st.Step + "\t" + formatResponse(c.Call(req))
}

func buildRequest(t *testing.T, st scenarioStep) *wire.Command {
	req := wire.NewRequest(st.Code)
	req.Version = st.Version
	if st.Serialize == "ROCKETMQ" {
		req.Serialize = wire.SerializeRocketMQ
	}
	ext := map[string]string{}
	for k, v := range st.Ext {
		ext[k] = v
	}
	if st.Body != nil {
		req.Body = []byte(*st.Body)
		if st.Compress {
			req.Body = compressBody(t, req.Body)
		}
		if st.CRC == "auto" {
			ext["bodyCrc32"] = strconv.Itoa(int(crc32.ChecksumIEEE(req.Body) & 0x7FFFFFFF))
		}
	}
	for _, k := range slices.Sorted(mapsKeys(ext)) {
		req.AddExt(k, ext[k])
	}
	return req
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func formatResponse(resp *wire.Command) string {
	exts := make([]string, 0, len(resp.Ext))
	for _, e := range resp.Ext {
		exts = append(exts, e.Key+"="+e.Value)
	}
	slices.Sort(exts)
	return strconv.Itoa(int(resp.Code)) + "\t" + esc(resp.Remark) + "\t" + esc(strings.Join(exts, "&")) + "\t" + esc(string(resp.Body))
}

func esc(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\r", `\r`, "\n", `\n`).Replace(s)
}

// compressBody turns a RegisterBrokerBody JSON into the compressed form, as
// RegisterBrokerBody.encode(true) does.
func compressBody(t *testing.T, jsonBody []byte) []byte {
	t.Helper()
	rb, err := routeinfo.DecodeRegisterBody(jsonBody, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	var topics []string
	for _, tc := range rb.Topics.Topics {
		topics = append(topics, tc.TopicName+" "+strconv.Itoa(int(tc.ReadQueueNums))+" "+
			strconv.Itoa(int(tc.WriteQueueNums))+" "+strconv.Itoa(int(tc.Perm))+" "+tc.TopicFilterType)
	}
	fs, _ := json.Marshal(rb.FilterServers)
	return compress(t, string(rb.Topics.DataVersion.AppendJSON(nil)), topics, string(fs))
}

func compress(t *testing.T, dataVersion string, topics []string, filterServers string) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(zw)
	put := func(s string) {
		_ = binary.Write(w, binary.BigEndian, int32(len(s)))
		_, _ = w.WriteString(s)
	}
	put(dataVersion)
	_ = binary.Write(w, binary.BigEndian, int32(len(topics)))
	for _, s := range topics {
		put(s)
	}
	put(filterServers)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
