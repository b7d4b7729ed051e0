package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/message"
)

func TestParseDelayLevels(t *testing.T) {
	d, err := ParseDelayLevels(DefaultConfig("/h").MessageDelayLevel)
	require.NoError(t, err)
	require.EqualValues(t, 18, d.Max())
	require.EqualValues(t, 1000, d.Millis[0])
	require.EqualValues(t, 2*3600*1000, d.Millis[17])
	require.EqualValues(t, 100+60000, d.DeliverAt(5, 100))
	require.EqualValues(t, 100+1000, d.DeliverAt(19, 100), "unknown level: 1 s")
	d, err = ParseDelayLevels("2d")
	require.NoError(t, err)
	require.EqualValues(t, 2*86400000, d.Millis[0])
	d, err = ParseDelayLevels("1s 5s  ")
	require.NoError(t, err)
	require.EqualValues(t, 2, d.Max())
	for _, bad := range []string{"", "1s  5s", "1x", "s", "1.5s", " 1s"} {
		_, err := ParseDelayLevels(bad)
		require.Error(t, err, bad)
	}
}

func TestTagsCodeOfMatchesJavaDecoding(t *testing.T) {
	for _, tag := range []string{"", "TagA", "ключ", "😀x", "a\xffb", "\xe4\xb8"} {
		require.Equal(t, message.TagsCode(javalang.DecodeUTF8([]byte(tag))), tagsCodeOf([]byte(tag)), "%q", tag)
	}
}
