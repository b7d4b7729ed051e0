package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: ConfigManager.load / loadBak, MixAll.file2String.
func TestLoad(t *testing.T) {
	good := readGolden(t, "basic", topicsFile)
	other := readGolden(t, "empty", topicsFile)
	tests := []struct {
		name       string
		main, bak  []byte // nil: file absent
		wantTopics int    // -1: an error
		wantFound  bool
		wantBak    bool
	}{
		{name: "main", main: good, bak: other, wantTopics: 11, wantFound: true},
		{name: "main missing", bak: good, wantTopics: 11, wantFound: true, wantBak: true},
		{name: "main empty", main: []byte{}, bak: good, wantTopics: 11, wantFound: true, wantBak: true},
		{name: "main truncated", main: good[:len(good)/2], bak: good, wantTopics: 11, wantFound: true, wantBak: true},
		{name: "main garbage", main: []byte("\x00\x01"), bak: other, wantTopics: 0, wantFound: true, wantBak: true},
		{name: "main blank", main: []byte(" \n"), bak: good, wantTopics: 0, wantFound: true},
		{name: "none", wantTopics: 0},
		{name: "both empty", main: []byte{}, bak: []byte{}, wantTopics: 0},
		{name: "bak corrupt", bak: good[:10], wantTopics: -1},
		{name: "main corrupt no bak", main: good[:10], wantTopics: -1}, // Java: empty table
		{name: "main corrupt bak empty", main: good[:10], bak: []byte{}, wantTopics: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := TopicsPath(t.TempDir())
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			if tt.main != nil {
				require.NoError(t, os.WriteFile(path, tt.main, 0o644))
			}
			if tt.bak != nil {
				require.NoError(t, os.WriteFile(path+".bak", tt.bak, 0o644))
			}
			v, res, err := LoadDetail(path, DecodeTopics)
			if tt.wantTopics < 0 {
				requireCorrupt(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantFound, res.Found)
			require.Equal(t, tt.wantBak, res.FromBak)
			if tt.wantFound {
				require.Equal(t, tt.wantTopics, v.Len())
			}
			_, found, err := Load(path, DecodeTopics)
			require.NoError(t, err)
			require.Equal(t, tt.wantFound, found)
		})
	}
}

func TestLoadUnreadableMainFallsBack(t *testing.T) {
	path := ConsumerOffsetPath(t.TempDir())
	require.NoError(t, os.MkdirAll(path, 0o755)) // a directory cannot be read as a file
	require.NoError(t, os.WriteFile(path+".bak", readGolden(t, "basic", consumerOffsetFile), 0o644))
	v, res, err := LoadDetail(path, DecodeConsumerOffsets)
	require.NoError(t, err)
	require.True(t, res.FromBak)
	require.Error(t, res.MainErr)
	require.Equal(t, 5, v.Len())
}

func TestSaveKeepsBak(t *testing.T) {
	root := t.TempDir()
	path := DelayOffsetPath(root)
	first, second := NewDelayOffsets(), NewDelayOffsets()
	first.Put(1, 10)
	second.Put(2, 20)
	require.NoError(t, Save(path, first.Encode()))
	require.NoError(t, Save(path, second.Encode()))
	bak, err := os.ReadFile(path + ".bak")
	require.NoError(t, err)
	require.Equal(t, string(first.Encode()), string(bak))
	v, found, err := Load(path, DecodeDelayOffsets)
	require.NoError(t, err)
	require.True(t, found)
	off, ok := v.Get(2)
	require.True(t, ok)
	require.EqualValues(t, 20, off)
}

func TestPaths(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{TopicsPath("/s"), "/s/config/topics.json"},
		{SubscriptionGroupPath("/s"), "/s/config/subscriptionGroup.json"},
		{ConsumerOffsetPath("/s"), "/s/config/consumerOffset.json"},
		{LmqConsumerOffsetPath("/s"), "/s/config/lmqConsumerOffset.json"},
		{DelayOffsetPath("/s"), "/s/config/delayOffset.json"},
		{ConsumerFilterPath("/s"), "/s/config/consumerFilter.json"},
	} {
		require.Equal(t, tt.want, tt.got)
	}
}
