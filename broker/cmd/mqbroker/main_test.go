package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func repoFile(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", rel)
}

// The 4.9.8 distribution's conf/broker.conf starts Sputnik unchanged: the
// boot line Java prints, then a clean shutdown on the signal.
func TestSampleBrokerConfStarts(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	env := []string{"HOME=" + home, "ROCKETMQ_HOME=" + home, "SPUTNIK_LISTEN_ADDR=127.0.0.1:0"}
	var stdout, stderr bytes.Buffer
	code := run([]string{"-c", repoFile("distribution/conf/broker.conf")}, env, &stdout, &stderr, func() int { return 143 })
	require.Equal(t, 143, code, stderr.String())
	require.Regexp(t, `^The broker\[broker-a, [^\]]+:\d+\] boot success\. serializeType=JSON\n$`, stdout.String())
	require.NoFileExists(t, filepath.Join(home, "store", "abort"), "clean shutdown removes the abort file")
	require.FileExists(t, filepath.Join(home, "store", "config", "topics.json"))
	logText, err := os.ReadFile(filepath.Join(home, "logs", "rocketmqlogs", "broker.log"))
	require.NoError(t, err)
	require.Regexp(t, `msg="broker loaded \(tables, store and recovery\)" took=\S+`, string(logText))
	require.Regexp(t, `msg="broker started" register=\S+ server=\S+ store=\S+`, string(logText), "the start's phases are logged")
	require.Regexp(t, `boot success[^\n]* sinceInit=\S+`, string(logText))
}

// -h prints commons-cli's help and exits 0; -p prints the four configs.
func TestHelpAndPrint(t *testing.T) {
	home := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-h"}, []string{"HOME=" + home}, &stdout, &stderr, nil))
	require.True(t, strings.HasPrefix(stdout.String(), "usage: mqbroker"))
	stdout.Reset()
	require.Equal(t, 0, run([]string{"-p"}, []string{"HOME=" + home, "ROCKETMQ_HOME=" + home}, &stdout, &stderr, nil))
	require.Contains(t, stdout.String(), "brokerClusterName=DefaultCluster")
	require.Contains(t, stdout.String(), "mappedFileSizeCommitLog=1073741824")
}

// enableDLegerCommitLog=true, a messageStorePlugIn and, with aclEnable=true,
// an ACL file that does not parse are refused with a message saying why,
// before anything is opened: Sputnik must not ignore a DLedger store or a
// plugin, nor serve without the access rules the operator wrote.
func TestUnsupportedFeaturesRefused(t *testing.T) {
	for _, tc := range []struct{ line, msg string }{
		{"aclEnable=true", "broker: aclEnable=true: "},
		{"enableDLegerCommitLog=true", "enableDLegerCommitLog=true: this Sputnik build does not implement the DLedger commit log"},
		{"messageStorePlugIn=com.example.AuditStore", "cannot load Java message store plugins; refusing to start rather than run without them. Remove messageStorePlugIn, or keep a Java broker: messageStorePlugIn=com.example.AuditStore"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			conf := filepath.Join(home, "broker.conf")
			src, err := os.ReadFile(repoFile("distribution/conf/broker.conf"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(conf, append(src, "\n"+tc.line+"\n"...), 0o644))
			brokenACL := filepath.Join(home, "conf", "plain_acl.yml")
			require.NoError(t, os.MkdirAll(filepath.Dir(brokenACL), 0o755))
			require.NoError(t, os.WriteFile(brokenACL, []byte("accounts:\n  - accessKey: [unclosed\n"), 0o644))
			env := []string{"HOME=" + home, "ROCKETMQ_HOME=" + home, "SPUTNIK_LISTEN_ADDR=127.0.0.1:0"}
			var stdout, stderr bytes.Buffer
			code := run([]string{"-c", conf}, env, &stdout, &stderr, func() int { return 143 })
			require.NotEqual(t, 0, code)
			require.NotEqual(t, 143, code, "it never started")
			require.Contains(t, stderr.String(), tc.msg)
			require.NotContains(t, stdout.String(), "boot success")
			require.NoDirExists(t, filepath.Join(home, "store", "commitlog"), "nothing opened")
		})
	}
}
