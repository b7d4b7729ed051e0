package storeoracle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

func runDump(t *testing.T, dir string) string {
	t.Helper()
	return oracle.Run(t, "", JVMFlags, "StoreOracle", append([]string{"dump"}, args(dir, SmallSettings())...)...)
}

const tiny = `{"type":"checkpoint","exists":false,"physicMsgTimestamp":0,"logicsMsgTimestamp":0,"indexMsgTimestamp":0}
{"type":"store","abortBefore":false,"lockBefore":false,"minPhyOffset":0,"maxPhyOffset":0}
{"type":"end","lines":2}
`

func TestParseDumpMalformed(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"empty", ""},
		{"no end", strings.SplitAfterN(tiny, "\n", 3)[0]},
		{"bad json", "{\n" + tiny},
		{"unknown type", `{"type":"nope"}` + "\n" + tiny},
		{"unknown field", strings.Replace(tiny, `"exists":false`, `"exists":false,"extra":1`, 1)},
		{"wrong count", strings.Replace(tiny, `"lines":2`, `"lines":3`, 1)},
		{"line after end", tiny + `{"type":"file","path":"x","size":1}` + "\n"},
		{"line after closed", tiny + `{"type":"closed","exists":false,"abortAfter":false,"lockAfter":false}` + "\n" + tiny},
		{"wrong field type", strings.Replace(tiny, `"minPhyOffset":0`, `"minPhyOffset":"0"`, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDump(strings.NewReader(tt.in))
			if !errors.Is(err, ErrMalformedDump) {
				t.Fatalf("err = %v, want ErrMalformedDump", err)
			}
		})
	}
	if _, err := ParseDump(strings.NewReader(tiny)); err != nil {
		t.Fatalf("tiny dump: %v", err)
	}
}

// FuzzParseDump: any input either parses or fails with ErrMalformedDump, never panics; a parsed
// dump survives the consistency checks and Diff without panicking.
func FuzzParseDump(f *testing.F) {
	f.Add(tiny)
	if b, err := os.ReadFile(filepath.Join("testdata", "sample.jsonl")); err == nil {
		f.Add(string(b))
	}
	f.Add(`{"type":"record","offset":0,"size":4,"kind":"message","sysFlag":16,"hex":"00"}` + "\n" + tiny)
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseDump(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrMalformedDump) {
				t.Fatalf("unmarked error %v", err)
			}
			return
		}
		_ = CheckConsistent(d, fileSize)
		_ = Diff(d, d, DiffOptions{IgnoreStoreTimestamps: true})
	})
}
