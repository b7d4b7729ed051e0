package compat_test

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// trickyStrings exercise escaping and the binary form's string rules.
var trickyStrings = []string{
	"plain",
	`quote " backslash \ slash /`,
	"\b\t\n\f\r",
	"c0 \x00\x01\x02\x03\x04\x05\x06\x07\x0b\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f end",
	"del \x7f c1 \u0080\u0085\u009f nbsp \u00a0",
	"latin é ß, cjk 世界, emoji 😀, rtl \u200f, bom \ufeff",
	"separators \u2028 \u2029",
	"html <script>&amp;</script>",
	"KEYS\x01k1\x02TAGS\x01TagA\x02UNIQ_KEY\x017F0000010001000000000000000000AB\x02",
	strings.Repeat("long-", 2000),
}

// sputnikCommands is a set of commands Sputnik writes, in both
// serializations; each has at most one ext field so that the encoding does
// not depend on Java's HashMap order and can be compared byte for byte.
func sputnikCommands() map[string]*wire.Command {
	out := map[string]*wire.Command{}
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		suffix := "." + strings.ToLower(st.String())
		for i, s := range trickyStrings {
			c := wire.NewRequest(105)
			c.Serialize, c.Opaque = st, int32(i)
			c.AddExt("topic", s)
			out[fmt.Sprintf("tricky_ext_%02d%s", i, suffix)] = c

			r := wire.NewResponse(c, 17, s)
			out[fmt.Sprintf("tricky_remark_%02d%s", i, suffix)] = r
		}
		c := wire.NewRequest(11)
		c.Serialize, c.Opaque, c.Flag = st, 2147483647, wire.FlagOneway
		c.Body = []byte{0, 1, 2, 0xff}
		out["oneway_body"+suffix] = c

		r := wire.NewResponse(&wire.Command{Opaque: -5, Serialize: st}, 0, "")
		r.Language, r.Version = wire.LanguageGo, 317
		out["go_response"+suffix] = r

		big := wire.NewRequest(30000)
		big.Serialize, big.Language, big.Version = st, wire.LanguageRust, 32767
		out["max_short_fields"+suffix] = big
	}
	return out
}

// TestSputnikFramesGolden pins the bytes Sputnik writes (regenerate with
// -update) and checks that Java 4.9.8 decodes every one of them to the
// same command and, asked to encode that command, writes the same bytes.
func TestSputnikFramesGolden(t *testing.T) {
	dir := filepath.Join("testdata", "frames", "sputnik")
	cmds := sputnikCommands()
	var lines []string
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	if *update {
		require.NoError(t, os.MkdirAll(dir, 0o755))
	}
	sortStrings(names)
	for _, name := range names {
		frame, err := wire.AppendFrame(nil, cmds[name])
		require.NoError(t, err)
		path := filepath.Join(dir, name+".hex")
		if *update {
			writeHex(t, path, frame)
		}
		require.Equal(t, hex.EncodeToString(frame), hex.EncodeToString(readHex(t, path)), "%s changed; rerun with -update if intended", name)
		lines = append(lines, string(mustJSON(t, goView(cmds[name]))))
	}

	views := javaDecode(t, dir)
	for _, name := range names {
		sameAsJava(t, views[name+".hex"], goView(decodeFrame(t, readHex(t, filepath.Join(dir, name+".hex")))))
	}

	encoded := oracle.Run(t, strings.Join(lines, "\n")+"\n", nil, "Encode")
	sc := bufio.NewScanner(strings.NewReader(encoded))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for _, name := range names {
		require.True(t, sc.Scan(), "Java Encode output ended early")
		want := readHex(t, filepath.Join(dir, name+".hex"))
		require.Equal(t, hex.EncodeToString(want), sc.Text(), "Java encodes %s differently", name)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
