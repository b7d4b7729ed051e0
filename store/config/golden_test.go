package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/oracle"
)

var update = flag.Bool("update", false, "regenerate testdata/java with the Java oracle (compat/java ConfigFiles)")

const goldenDir = "testdata/java"

// kinds are the five files; the Java oracle tells them apart by name.
var kinds = []string{topicsFile, subscriptionGroupFile, consumerOffsetFile, delayOffsetFile, consumerFilterFile}

// Bloom filter of a ConsumerFilterManager without BrokerController:
// BloomFilter.createByFn(20, 64) has m = 216 bits and k = 3 hashes.
const (
	testBloomBits   = 216
	testBloomHashes = 3
)

var updateOnce sync.Once

// goldens regenerates testdata/java when -update is given: ConfigFiles gen
// writes SCENARIO/*.json, ConfigFiles reencode writes what a fresh Java
// manager encodes after decoding each of them to SCENARIO/reencoded/.
func goldens(t *testing.T) {
	t.Helper()
	if !*update {
		return
	}
	updateOnce.Do(func() {
		abs, err := filepath.Abs(goldenDir)
		require.NoError(t, err)
		require.NoError(t, os.RemoveAll(abs))
		oracle.Run(t, "", nil, "ConfigFiles", "gen", abs)
		for name := range scenarios {
			args := []string{"reencode", filepath.Join(abs, name, "reencoded")}
			for _, k := range kinds {
				args = append(args, filepath.Join(abs, name, k))
			}
			oracle.Run(t, "", nil, "ConfigFiles", args...)
		}
	})
}

func readGolden(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{goldenDir}, parts...)...))
	require.NoError(t, err)
	return b
}

func scenarioNames() []string {
	var out []string
	for n := range scenarios {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Tables built through the Go API with the operations ConfigFiles.gen runs
// on the Java managers encode to the same bytes.
func TestScenariosEncodeLikeJava(t *testing.T) {
	goldens(t)
	for _, name := range scenarioNames() {
		files := scenarios[name]().files()
		for _, k := range kinds {
			t.Run(name+"/"+k, func(t *testing.T) {
				require.Equal(t, string(readGolden(t, name, k)), string(files[k]))
			})
		}
	}
}

// Decoding a Java-written file and encoding it again gives what Java's
// manager writes after decoding that file (Java 4.9.8: the managers'
// decode then encode(true)).
func TestDecodeGoldensLikeJava(t *testing.T) {
	goldens(t)
	for _, name := range scenarioNames() {
		for _, k := range kinds {
			t.Run(name+"/"+k, func(t *testing.T) {
				in, want := readGolden(t, name, k), readGolden(t, name, "reencoded", k)
				got, err := goLikeJava(t, k, in, want)
				require.NoError(t, err)
				require.Equal(t, string(want), string(got))
			})
		}
	}
}

// goLikeJava decodes input as the Java manager of kind does and encodes the
// result. Where Java reads the clock (a missing dataVersion, a filter's
// death time) or ignores the file (subscriptionGroup's dataVersion), the
// value is taken from javaOut, Java's output for the same input.
func goLikeJava(t *testing.T, kind string, input, javaOut []byte) ([]byte, error) {
	t.Helper()
	switch kind {
	case topicsFile:
		v, err := DecodeTopics(input)
		if err != nil {
			return nil, err
		}
		if !hasDataVersion(input) {
			v.DataVersion = javaDataVersion(t, javaOut)
		}
		return v.Encode(), nil
	case subscriptionGroupFile:
		v, err := DecodeSubscriptionGroups(input)
		if err != nil {
			return nil, err
		}
		v.DataVersion = javaDataVersion(t, javaOut)
		require.Zero(t, v.DataVersion.Counter, "Java 4.9.8 does not restore subscriptionGroup.json's dataVersion")
		return v.Encode(), nil
	case consumerOffsetFile:
		v, err := DecodeConsumerOffsets(input)
		if err != nil {
			return nil, err
		}
		return v.Encode(), nil
	case delayOffsetFile:
		v, err := DecodeDelayOffsets(input)
		if err != nil {
			return nil, err
		}
		return v.Encode(), nil
	case consumerFilterFile:
		return filtersLikeJava(t, input, javaOut)
	}
	t.Fatalf("unknown kind %s", kind)
	return nil, nil
}

func filtersLikeJava(t *testing.T, input, javaOut []byte) ([]byte, error) {
	v, err := DecodeConsumerFilters(input)
	if err != nil {
		return nil, err
	}
	// Java's clean ran at its decode time, when the golden was made: the
	// real clock would drop a filter it gave a death time to once
	// FilterCleanSpan has passed since (the test failed a day later).
	now := javaDecodeTime(t, v, javaOut)
	if !v.Restore(now, testBloomBits, testBloomHashes) {
		v = NewConsumerFilters()
	}
	v.Clean(now, FilterCleanSpan)
	return v.Encode(), nil
}

// javaDecodeTime finds the "now" Java's decode used from the death time it
// gave a filter that was alive in the file.
func javaDecodeTime(t *testing.T, decoded *ConsumerFilters, javaOut []byte) int64 {
	now := time.Now().UnixMilli()
	if bytes.HasPrefix(javaOut, []byte("ERROR")) {
		return now
	}
	j, err := DecodeConsumerFilters(javaOut)
	require.NoError(t, err)
	decoded.Range(func(topic string, m *FilterDataMapByTopic) bool {
		m.Range(func(group string, f *ConsumerFilterData) bool {
			jm, ok := j.Topic(topic)
			if !ok || f.DeadTime != 0 {
				return true
			}
			if jf, ok := jm.Get(group); ok && jf.DeadTime > f.BornTime {
				now = jf.DeadTime + filterDeadGrace
				return false
			}
			return true
		})
		return true
	})
	return now
}

func hasDataVersion(input []byte) bool {
	root, err := fastjson.Parse(input)
	if err != nil || root.Kind() != fastjson.Object {
		return false
	}
	for k := range root.Members() {
		if matchField(k, topicWrapperFields) == "dataVersion" {
			return true
		}
	}
	return false
}

func javaDataVersion(t *testing.T, javaOut []byte) DataVersion {
	t.Helper()
	if bytes.HasPrefix(javaOut, []byte("ERROR")) {
		return DataVersion{}
	}
	root, err := fastjson.Parse(javaOut)
	require.NoError(t, err)
	var d fastjson.Decoder
	dv := decodeDataVersion(&d, root.Get("dataVersion"), DataVersion{})
	require.NoError(t, d.Err())
	return dv
}

// requireCorrupt checks an error is a corruption error.
func requireCorrupt(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrCorrupt), "%v is not ErrCorrupt", err)
}
