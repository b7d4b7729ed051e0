package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/store/segment"
)

// The Java 4.9.8 oracle (compat/java IndexOracle) writes and reads index
// files with the real org.apache.rocketmq.store.index classes.

type fileCase struct {
	name            string
	slots, entries  int32
	endPhy, endTs   int64
	puts            []put
	extraQueryKeys  []string
	wantRejectAfter int // puts from this index on return false (0: none)
}

func fileCases() []fileCase {
	r := rand.New(rand.NewPCG(7, 8))
	var fill []put
	for i := range 16 { // 15 fit, the 16th is refused
		fill = append(fill, put{keyName(i % 5), 5000 + int64(i)*10, t0 - 3000 + int64(i)*777})
	}
	fill[3].ts = math.MaxInt64 / 2 // timeDiff clamps to Integer.MAX_VALUE
	fill[4].ts = 5                 // before begin: timeDiff 0
	var odd []put
	for i, k := range []string{"polygenelubricants", "T#ключ", "T#\U0001F600", "", "T#a b", "T#" + strings.Repeat("x", 300)} {
		odd = append(odd, put{k, int64(i) * 64, t0 + int64(i)*100})
	}
	return []fileCase{
		{name: "tiny", slots: tinySlots, entries: tinyEntries, puts: tinyPuts, extraQueryKeys: []string{"T#zz"}},
		{name: "following-full", slots: tinySlots, entries: tinyEntries, endPhy: 5000, endTs: t0, puts: fill, wantRejectAfter: 15},
		{name: "random", slots: 8, entries: 64, puts: randomPuts(r, 63, 9, t0)},
		{name: "odd-keys", slots: 3, entries: 10, puts: odd},
	}
}

func javaWrite(t *testing.T, path string, c fileCase) []string {
	var in strings.Builder
	for _, p := range c.puts {
		fmt.Fprintf(&in, "%s\t%d\t%d\n", p.key, p.phy, p.ts)
	}
	out := oracle.Run(t, in.String(), nil, "IndexOracle", "write", path,
		itoa(c.slots), itoa(c.entries), strconv.FormatInt(c.endPhy, 10), strconv.FormatInt(c.endTs, 10))
	return strings.Fields(out)
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

type fileQuery struct {
	key        string
	maxNum     int
	begin, end int64
}

func queriesFor(c fileCase) []fileQuery {
	keys := append([]string{}, c.extraQueryKeys...)
	seen := map[string]bool{}
	var lo, hi int64 = math.MaxInt64, math.MinInt64
	for _, p := range c.puts {
		if !seen[p.key] {
			seen[p.key] = true
			keys = append(keys, p.key)
		}
		lo, hi = min(lo, p.ts), max(hi, min(p.ts, t0+1e9))
	}
	var qs []fileQuery
	for _, k := range keys {
		qs = append(qs, fileQuery{k, 100, 0, math.MaxInt64}, fileQuery{k, 2, 0, math.MaxInt64})
		for i := range 4 {
			b := lo + (hi-lo)*int64(i)/4
			qs = append(qs, fileQuery{k, 100, b, b + (hi-lo)/3}, fileQuery{k, 100, b, math.MaxInt64})
		}
	}
	return qs
}

// javaQuery runs the queries against a file with Java; the first line is
// the header.
func javaQuery(t *testing.T, path string, c fileCase, qs []fileQuery) []string {
	var in strings.Builder
	for _, q := range qs {
		fmt.Fprintf(&in, "%s\t%d\t%d\t%d\n", q.key, q.maxNum, q.begin, q.end)
	}
	out := oracle.Run(t, in.String(), nil, "IndexOracle", "query", path, itoa(c.slots), itoa(c.entries))
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

func goQuery(t *testing.T, path string, c fileCase, qs []fileQuery) []string {
	f, err := OpenFile(segment.OS, path, c.slots, c.entries)
	require.NoError(t, err)
	defer f.Close()
	h := f.Header()
	lines := []string{fmt.Sprintf("header %d %d %d", h.BeginTimestamp, h.EndTimestamp, h.EndPhyOffset)}
	for _, q := range qs {
		lines = append(lines, fmt.Sprintf("matched=%t offsets=%s", f.TimeMatched(q.begin, q.end), joinOffsets(f.Query(q.key, q.maxNum, q.begin, q.end))))
	}
	return lines
}

func joinOffsets(offs []int64) string {
	s := make([]string, len(offs))
	for i, o := range offs {
		s[i] = strconv.FormatInt(o, 10)
	}
	return strings.Join(s, ",")
}

func TestOracleFiles(t *testing.T) {
	for _, c := range fileCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			javaPath, goPath := filepath.Join(dir, "java", "1"), filepath.Join(dir, "go", "1")
			require.NoError(t, os.MkdirAll(filepath.Dir(javaPath), 0o755))
			javaOK := javaWrite(t, javaPath, c)

			f, err := CreateFile(segment.OS, goPath, c.slots, c.entries, c.endPhy, c.endTs)
			require.NoError(t, err)
			var goOK []string
			for _, p := range c.puts {
				ok, err := f.Put(p.key, p.phy, p.ts)
				require.NoError(t, err)
				goOK = append(goOK, strconv.FormatBool(ok))
			}
			require.NoError(t, f.Flush())
			f.Close()
			require.Equal(t, javaOK, goOK, "putKey results")
			if c.wantRejectAfter > 0 {
				require.Equal(t, "false", goOK[c.wantRejectAfter])
				require.Equal(t, "true", goOK[c.wantRejectAfter-1])
			}
			require.Equal(t, fileBytes(t, javaPath), fileBytes(t, goPath), "file bytes")

			qs := queriesFor(c)
			want := goQuery(t, goPath, c, qs)
			require.Equal(t, want, goQuery(t, javaPath, c, qs), "Go reading Java's file")
			require.Equal(t, want, javaQuery(t, goPath, c, qs), "Java reading Go's file")
			require.Equal(t, want, javaQuery(t, javaPath, c, qs), "Java reading Java's file")
		})
	}
}

// serviceScript drives IndexOracle's service mode and the Go Service the
// same way: builds that roll over several files (rollbacks, re-dispatched
// offsets, keys with empty tokens and duplicates), queries, an abnormal
// reopen and a deletion.
func serviceScript() []string {
	var s []string
	for i := range 40 {
		uniq := fmt.Sprintf("U%02d", i)
		if i%7 == 3 {
			uniq = "-"
		}
		keys := fmt.Sprintf("k%d  k%d k%d", i%3, i%5, i%3)
		sys := 0
		switch i % 9 {
		case 4:
			sys = 0xC // rollback
		case 5:
			sys = 0x4
		}
		phy := int64(i) * 100
		if i%11 == 10 {
			phy -= 150 // below the end offset: skipped
		}
		s = append(s, fmt.Sprintf("build\tT\t%s\t%s\t%d\t%d\t%d", uniq, keys, phy, t0+int64(i)*700, sys))
	}
	s = append(s, "files")
	s = append(s, queryLines()...)
	s = append(s, fmt.Sprintf("open\tfalse\t%d", t0+15*700), "files")
	s = append(s, queryLines()...)
	for i := 40; i < 46; i++ {
		s = append(s, fmt.Sprintf("build\tT\tU%02d\tk%d\t%d\t%d\t0", i, i%3, int64(i)*100, t0+int64(i)*700))
	}
	s = append(s, "files", "delete\t900", "files", "delete\t1200", "files")
	s = append(s, queryLines()...)
	s = append(s, "open\ttrue\t0", "files")
	return s
}

func queryLines() []string {
	var s []string
	for _, k := range []string{"k0", "k1", "k2", "k3", "k4", "U00", "U04", "U05", "U10", "U21", "U44", "none"} {
		s = append(s,
			fmt.Sprintf("query\tT\t%s\t100\t0\t%d", k, int64(math.MaxInt64)),
			fmt.Sprintf("query\tT\t%s\t3\t0\t%d", k, int64(math.MaxInt64)),
			fmt.Sprintf("query\tT\t%s\t100\t%d\t%d", k, t0+10000, t0+20000),
			fmt.Sprintf("query\tOther\t%s\t100\t0\t%d", k, int64(math.MaxInt64)))
	}
	return s
}

// addOpens lets MappedFile.clean unmap a destroyed file on JDK 17
// (it reflects on DirectByteBuffer and jdk.internal.ref.Cleaner).
var addOpens = []string{"--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED"}

const (
	svcSlots   = 16
	svcEntries = 12
	svcBatch   = 20
)

func TestOracleService(t *testing.T) {
	script := serviceScript()
	root := t.TempDir()
	javaOut := oracle.Run(t, strings.Join(script, "\n")+"\n", addOpens, "IndexOracle", "service",
		filepath.Join(root, "java"), itoa(svcSlots), itoa(svcEntries), strconv.Itoa(svcBatch))
	goOut := runGoScript(t, filepath.Join(root, "go"), script)

	javaLines, goLines := strings.Split(javaOut, "\n"), strings.Split(goOut, "\n")
	require.Len(t, goLines, len(javaLines))
	var javaFiles, goFiles [][]string
	for i := range javaLines {
		jl, gl := javaLines[i], goLines[i]
		if strings.HasPrefix(jl, "file ") {
			// Names differ (wall clock); compare what follows, then bytes.
			jf, gf := strings.Fields(jl), strings.Fields(gl)
			require.Equal(t, jf[2:], gf[2:], "line %d", i)
			javaFiles, goFiles = append(javaFiles, jf), append(goFiles, gf)
			continue
		}
		require.Equal(t, jl, gl, "line %d: %s", i, lineCommand(script, javaLines, i))
	}
	// The last "files" lists the files after the final reopen.
	n := 0
	for i := len(javaLines) - 1; i >= 0 && !strings.HasPrefix(javaLines[i], "files "); i-- {
		if strings.HasPrefix(javaLines[i], "file ") {
			n++
		}
	}
	require.Positive(t, n)
	for i := len(javaFiles) - n; i < len(javaFiles); i++ {
		require.Equal(t, fileBytes(t, javaFiles[i][1]), fileBytes(t, goFiles[i][1]), "file %d", i)
	}
}

// lineCommand names the script command that produced output line i.
func lineCommand(script, out []string, i int) string {
	cmd := 0
	for j := 0; j < i; j++ {
		if !strings.HasPrefix(out[j], "file ") {
			cmd++
		}
	}
	if cmd < len(script) {
		return script[cmd]
	}
	return "?"
}

func runGoScript(t *testing.T, root string, script []string) string {
	cp := &fakeCheckpoint{}
	cfg := testConfig(t, svcSlots, svcEntries)
	cfg.Dir = filepath.Join(root, "index")
	cfg.MaxMsgsNumBatch = svcBatch
	cfg.Checkpoint = cp
	s, err := Open(cfg, true)
	require.NoError(t, err)
	defer func() { _ = s.Close() }()
	var out strings.Builder
	for _, line := range script {
		p := strings.Split(line, "\t")
		switch p[0] {
		case "open":
			require.NoError(t, s.Close())
			cp.SetIndex(mustInt(t, p[2]))
			s, err = Open(cfg, p[1] == "true")
			require.NoError(t, err)
			fmt.Fprintf(&out, "files %d\n", len(s.Files()))
		case "build":
			uniq := p[2]
			if uniq == "-" {
				uniq = ""
			}
			require.NoError(t, s.Build(p[1], uniq, p[3], mustInt(t, p[4]), mustInt(t, p[5]), int32(mustInt(t, p[6]))))
			out.WriteString("ok\n")
		case "query":
			offs, ts, phy := s.Query(p[1], p[2], int(mustInt(t, p[3])), mustInt(t, p[4]), mustInt(t, p[5]))
			fmt.Fprintf(&out, "offsets=%s ts=%d phy=%d\n", joinOffsets(offs), ts, phy)
		case "delete":
			require.NoError(t, s.DeleteBefore(mustInt(t, p[1])))
			fmt.Fprintf(&out, "files %d\n", len(s.Files()))
		case "files":
			s.flushes.Wait()
			for _, f := range s.Files() {
				h := f.Header()
				fmt.Fprintf(&out, "file %s %d %d %d\n", f.Path(), h.BeginTimestamp, h.EndTimestamp, h.EndPhyOffset)
			}
			fmt.Fprintf(&out, "checkpoint %d\n", cp.Index())
		}
	}
	return out.String()
}

func mustInt(t *testing.T, s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	require.NoError(t, err)
	return v
}
