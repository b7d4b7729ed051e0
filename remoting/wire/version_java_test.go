package wire

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestVersionsMatchJava checks every named version ordinal against the
// MQVersion.Version enum of rocketmq-common 4.9.8.
func TestVersionsMatchJava(t *testing.T) {
	f, err := os.Open("../../compat/testdata/java-4.9.8/versions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[int32]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ordinal, name, ok := strings.Cut(sc.Text(), "\t")
		if !ok || strings.HasPrefix(ordinal, "#") {
			continue
		}
		n, err := strconv.Atoi(ordinal)
		if err != nil {
			t.Fatalf("versions.tsv: %q", sc.Text())
		}
		names[int32(n)] = name
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[int32]string{
		VersionV3_0_7Snapshot: "V3_0_7_SNAPSHOT", VersionV3_0_11: "V3_0_11", VersionV3_1_8Snapshot: "V3_1_8_SNAPSHOT",
		VersionV3_4_9: "V3_4_9", VersionV4_9_4: "V4_9_4", CurrentVersion: "V4_9_8",
	} {
		if names[v] != want {
			t.Errorf("ordinal %d is %q in 4.9.8, want %s", v, names[v], want)
		}
	}
}
