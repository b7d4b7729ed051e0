package topics

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: TopicValidator.validateTopic.
func TestValidate(t *testing.T) {
	cases := []struct {
		topic string
		want  error
	}{
		{"TopicTest", nil},
		{"%RETRY%G_1|a-b", nil},
		{strings.Repeat("x", 127), nil},
		{strings.Repeat("x", 128), ErrTopicTooLong},
		{"", ErrTopicBlank},
		{" \t\n\u2028\u3000", ErrTopicBlank},
		{"\u00a0", ErrTopicIllegal}, // no-break space is not Java whitespace
		{"a b", ErrTopicIllegal},
		{"a.b", ErrTopicIllegal},
		{"主题", ErrTopicIllegal},
		{"a\xffb", ErrTopicIllegal},
		{strings.Repeat("é", 100), ErrTopicIllegal}, // illegal is checked before length
	}
	for _, c := range cases {
		require.Equal(t, c.want, Validate(c.topic), "%q", c.topic)
	}
}

func TestPermString(t *testing.T) {
	for perm, want := range map[int32]string{0: "---", 1: "--X", 2: "-W-", 4: "R--", 6: "RW-", 7: "RWX", 15: "RWX"} {
		require.Equal(t, want, PermString(perm))
	}
}

func TestSystemSets(t *testing.T) {
	for _, topic := range []string{TransHalfTopic, TransOpHalfTopic, TransCheckMaxTimeTopic, ScheduleTopic,
		SelfTestTopic, OffsetMovedEventTopic} {
		require.True(t, IsSystemTopic(topic), topic)
		require.True(t, IsNotAllowedSend(topic), topic)
	}
	for _, topic := range []string{AutoCreateTopicKey, BenchmarkTopic, TraceTopic, "rmq_sys_x"} {
		require.True(t, IsSystemTopic(topic), topic)
		require.False(t, IsNotAllowedSend(topic), topic)
	}
	require.False(t, IsSystemTopic("TopicTest"))
	require.Equal(t, "C1_REPLY_TOPIC", ReplyTopic("C1"))
}

// FuzzValidate: no panic, and an accepted name is 1..127 legal ASCII bytes.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{"", "TopicTest", " ", "\u3000", "a/b", strings.Repeat("a", 128), "%RETRY%x", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Validate(s)
		if err != nil {
			return
		}
		if len(s) == 0 || len(s) > TopicMaxLength || !utf8.ValidString(s) {
			t.Fatalf("accepted %q", s)
		}
		for i := 0; i < len(s); i++ {
			if !validChar(s[i]) {
				t.Fatalf("accepted %q", s)
			}
		}
	})
}
