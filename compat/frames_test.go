package compat_test

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

// readHex reads a frame written as hex text (whitespace ignored).
func readHex(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	b, err := hex.DecodeString(strings.Join(strings.Fields(string(raw)), ""))
	require.NoError(t, err, path)
	return b
}

// writeHex writes a frame as hex, 32 bytes a line, like the Java oracle.
func writeHex(t *testing.T, path string, frame []byte) {
	t.Helper()
	var sb strings.Builder
	h := hex.EncodeToString(frame)
	for len(h) > 64 {
		sb.WriteString(h[:64] + "\n")
		h = h[64:]
	}
	sb.WriteString(h + "\n")
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
}

func hexFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.hex"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no frames in %s", dir)
	sort.Strings(files)
	return files
}

func decodeFrame(t *testing.T, frame []byte) *wire.Command {
	t.Helper()
	require.GreaterOrEqual(t, len(frame), 4)
	c, err := wire.Decode(frame[4:])
	require.NoError(t, err)
	return c
}

// TestJavaGoldenFrames decodes every frame the Java 4.9.8 RemotingCommand
// wrote and re-encodes it: the result must be byte-identical, in both
// serializations. The one exception is Java's own: an empty string cannot
// survive the binary form (Java writes it with length 0 and reads it back
// as null), so for unicode_remark.rocketmq we compare with what Java's
// decoder sees, which drops that field.
func TestJavaGoldenFrames(t *testing.T) {
	dir := filepath.Join("testdata", "frames", "java")
	for _, path := range hexFiles(t, dir) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			frame := readHex(t, path)
			c := decodeFrame(t, frame)
			again, err := wire.AppendFrame(nil, c)
			require.NoError(t, err)
			if name == "unicode_remark.rocketmq.hex" {
				_, present := c.ExtValue("empty")
				require.False(t, present, "Java reads a zero-length value as null, i.e. absent")
				require.Less(t, len(again), len(frame))
			} else {
				require.Equal(t, hex.EncodeToString(frame), hex.EncodeToString(again))
			}
			golden := strings.TrimSuffix(path, ".hex") + ".golden"
			checkGolden(t, golden, wire.Annotate(frame))
		})
	}
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./compat -update")
	require.Equal(t, string(want), got)
}

// javaView is one line of the Decode oracle's output.
type javaView struct {
	File          string             `json:"file"`
	Error         string             `json:"error"`
	Code          int32              `json:"code"`
	Language      *string            `json:"language"`
	Version       int32              `json:"version"`
	Opaque        int32              `json:"opaque"`
	Flag          int32              `json:"flag"`
	Remark        *string            `json:"remark"`
	SerializeType string             `json:"serializeType"`
	ExtFields     map[string]*string `json:"extFields"`
	Body          string             `json:"body"`
	Header        map[string]*string `json:"header"`
}

func javaDecode(t *testing.T, dir string) map[string]javaView {
	t.Helper()
	out := oracle.Run(t, "", nil, "Decode", dir)
	views := map[string]javaView{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var v javaView
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), sc.Text())
		views[v.File] = v
	}
	return views
}

// goView is how Sputnik sees a frame, in the shape Java's view has.
func goView(c *wire.Command) javaView {
	v := javaView{
		Code: c.Code, Version: c.Version, Opaque: c.Opaque, Flag: c.Flag,
		SerializeType: c.Serialize.String(), Body: hex.EncodeToString(c.Body),
	}
	if c.Language.Known() {
		s := c.Language.String()
		v.Language = &s
	}
	if c.Remark != "" {
		v.Remark = &c.Remark
	}
	if len(c.Ext) > 0 {
		v.ExtFields = map[string]*string{}
		for _, f := range c.Ext {
			val := f.Value
			v.ExtFields[f.Key] = &val
		}
	}
	return v
}

// sameAsJava compares Go's and Java's views, treating Java's null ext
// values (a zero-length binary string) as absent, as Java's header
// decoders do.
func sameAsJava(t *testing.T, java, gov javaView) {
	t.Helper()
	require.Empty(t, java.Error, "Java failed to decode %s", java.File)
	for k, v := range java.ExtFields {
		if v == nil {
			delete(java.ExtFields, k)
		}
	}
	if len(java.ExtFields) == 0 {
		java.ExtFields = nil
	}
	if java.Remark != nil && *java.Remark == "" {
		java.Remark = nil
	}
	java.File, java.Header = "", nil
	require.Equal(t, java, gov)
}

// TestJavaDecodesJavaFramesLikeSputnik: for Java's own golden frames,
// Java's decoder and Sputnik's see the same command.
func TestJavaDecodesJavaFramesLikeSputnik(t *testing.T) {
	dir := filepath.Join("testdata", "frames", "java")
	views := javaDecode(t, dir)
	for _, path := range hexFiles(t, dir) {
		name := filepath.Base(path)
		c := decodeFrame(t, readHex(t, path))
		sameAsJava(t, views[name], goView(c))
	}
}
