package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// lenientCase is an input given to both the Java managers' decode (then
// encode(true)) and ours.
type lenientCase struct {
	name, kind, input string
	// javaDiffers: Go deliberately refuses what Java accepts (see why).
	javaDiffers string
}

const dv = `"dataVersion":{"counter":1,"timestamp":2}`

var lenientCases = []lenientCase{
	{name: "missing-fields", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"A":{"topicName":"A"},"B":{}}}`},
	{name: "smart-match", kind: topicsFile, input: `{"dataVersion":{"counter":"7","timestamp":"9","extra":1},"topicConfigTable":{"A":{"topic_name":"A","READQUEUENUMS":3,"isOrder":true,"write-queue-nums":"5","unknown":[1,{"x":2}],"perm":"6","TopicSysFlag":1.9}},"other":{}}`},
	{name: "enums", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"A":{"topicFilterType":1},"B":{"topicFilterType":"NOPE"},"C":{"topicFilterType":null},"D":{"topicFilterType":"MULTI_TAG"}}}`},
	{name: "no-dataversion", kind: topicsFile, input: `{"topicConfigTable":{"A":{"topicName":"A","perm":2}}}`},
	{name: "no-table", kind: topicsFile, input: `{` + dv + `}`},
	{name: "null-topic", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"A":null}}`},
	{name: "fastjson-syntax", kind: topicsFile, input: "/*c*/{'dataVersion':{counter:1,timestamp:2,},topicConfigTable:{'A':{perm:4,,order:'true'},},} // end"},
	{name: "ident-keys", kind: topicsFile, input: `{` + dv + `,topicConfigTable:{Abc:{perm:2},$x_1:{}}}`},
	{name: "object-key", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{{"a":1}:{perm:2}}}`},
	{name: "null-top", kind: topicsFile, input: `null`},
	{name: "dup-keys", kind: topicsFile, input: `{"topicConfigTable":{"A":{"perm":2},"B":{},"A":{"perm":4,"perm":5}},` + dv + `}`},
	{name: "bad-number", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"A":{"perm":"abc"}}}`},
	{name: "bool-int", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"A":{"perm":true,"order":1,"readQueueNums":"1,000"}}}`},
	{name: "truncated", kind: topicsFile, input: "{\n\t\"dataVersion\":{\n\t\t\"counter\":12,\n\t\t\"timestamp\":169"},
	{name: "unicode-keys", kind: topicsFile, input: `{` + dv + `,"topicConfigTable":{"\u4e3b\u9898":{"topicName":"主题"},"😀":{}}}`},
	{name: "groups-smart", kind: subscriptionGroupFile, input: `{` + dv + `,"subscriptionGroupTable":{"G":{"groupName":"G","isConsumeEnable":false,"brokerId":"2","retry_max_times":"3"},"H":{}}}`},
	{name: "groups-no-table", kind: subscriptionGroupFile, input: `{` + dv + `}`},
	{name: "groups-null-table", kind: subscriptionGroupFile, input: `{"subscriptionGroupTable":null}`},
	{name: "groups-null-value", kind: subscriptionGroupFile, input: `{"subscriptionGroupTable":{"G":null}}`},
	{name: "offsets-quoted", kind: consumerOffsetFile, input: `{"offsetTable":{"t@g":{"0":5,"1":"6",2:7},"u@g":{}}}`},
	{name: "offsets-number-key", kind: consumerOffsetFile, input: `{"offsetTable":{5:{0:1},"x@y":{17:2,1:3,16:4}}}`},
	{name: "offsets-null-inner", kind: consumerOffsetFile, input: `{"offsetTable":{"t@g":null}}`},
	{name: "offsets-null-offset", kind: consumerOffsetFile, input: `{"offsetTable":{"t@g":{0:null}}}`},
	{name: "offsets-missing", kind: consumerOffsetFile, input: `{}`},
	{name: "offsets-null-table", kind: consumerOffsetFile, input: `{"offsetTable":null}`,
		javaDiffers: "Java installs a null table (and fails on first use); Go refuses the file"},
	{name: "delay-keys", kind: delayOffsetFile, input: `{"offsetTable":{"1":5,2:"6",18:9223372036854775807,}}`},
	{name: "delay-missing", kind: delayOffsetFile, input: `{"other":1}`},
	{name: "delay-null-table", kind: delayOffsetFile, input: `{"offsetTable":null}`},
	{name: "filter-no-bloom", kind: consumerFilterFile, input: `{"filterDataByTopic":{"T":{"groupFilterData":{"G":{"topic":"T","consumerGroup":"G","bornTime":1,"deadTime":2}},"topic":"T"}}}`},
	{name: "filter-alive", kind: consumerFilterFile, input: `{"filterDataByTopic":{"T":{"groupFilterData":{"G":{"topic":"T","consumerGroup":"G","bornTime":1690000000000,"deadTime":0,"dead":true,"expression":"a>1","expressionType":"SQL92","bloomFilterData":{"bitNum":216,"bitPos":[1,2,3]}}},"topic":"T"}}}`},
	{name: "filter-null-groups", kind: consumerFilterFile, input: `{"filterDataByTopic":{"T":{"groupFilterData":null,"topic":"T"}}}`},
	{name: "filter-null-table", kind: consumerFilterFile, input: `{"filterDataByTopic":null}`},
}

// Files written by Go (the scenarios) and lenient inputs are decoded by
// the Java managers (compat/java ConfigFiles reencode) and by ours; both
// encodings must be the same bytes, and where Java's decode throws ours
// returns ErrCorrupt.
func TestJavaDecodesLikeGo(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	type job struct {
		file, kind, javaDiffers string
		input                   []byte
	}
	var jobs []job
	for _, name := range scenarioNames() {
		for k, b := range scenarios[name]().files() {
			jobs = append(jobs, job{file: "go-" + name + "-" + k, kind: k, input: b})
		}
	}
	for _, c := range lenientCases {
		jobs = append(jobs, job{file: c.name + "-" + c.kind, kind: c.kind, input: []byte(c.input), javaDiffers: c.javaDiffers})
	}
	args := []string{"reencode", out}
	for _, j := range jobs {
		p := filepath.Join(in, j.file)
		require.NoError(t, os.WriteFile(p, j.input, 0o644))
		args = append(args, p)
	}
	oracle.Run(t, "", nil, "ConfigFiles", args...)
	for _, j := range jobs {
		t.Run(j.file, func(t *testing.T) {
			javaOut, err := os.ReadFile(filepath.Join(out, j.file))
			require.NoError(t, err)
			got, err := goLikeJava(t, j.kind, j.input, javaOut)
			switch {
			case j.javaDiffers != "":
				requireCorrupt(t, err)
				require.False(t, bytes.HasPrefix(javaOut, []byte("ERROR")), "Java now refuses it too: %s", javaOut)
			case bytes.HasPrefix(javaOut, []byte("ERROR")):
				requireCorrupt(t, err)
			default:
				require.NoError(t, err, "Java accepted it:\n%s", javaOut)
				require.Equal(t, string(javaOut), string(got))
			}
			if strings.HasPrefix(j.file, "go-") && j.kind != consumerFilterFile {
				require.NoError(t, err)
			}
		})
	}
}
