package acl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// AclUtils.combineRequestContent as PlainAccessValidator.parse calls it.
func TestContent(t *testing.T) {
	ext := map[string]string{
		"topic": "topicA", "AccessKey": "RocketMQ", "Signature": "ignored",
		"_UNIQUE_KEY_QUERY": "ignored", "b": "1234567890",
	}
	// Keys in String order: AccessKey, b, topic.
	require.Equal(t, "RocketMQ1234567890topicAhello", string(Content(ext, []byte("hello"))))
	require.Equal(t, "", string(Content(nil, nil)))
	// UTF-16 order: U+FF01 (0xFF01) sorts after U+1F600 (surrogate 0xD83D).
	require.Equal(t, "ab", string(Content(map[string]string{"\uFF01": "b", "\U0001F600": "a"}, nil)))
}

// Vectors computed with openssl:
// printf 'RocketMQ1234567890topicAhello' | openssl dgst -sha1 -hmac 12345678 -binary | base64
func TestSign(t *testing.T) {
	require.Equal(t, "FRccWa7gPtXYoBvn6IaafRB1Bak=", Sign([]byte("RocketMQ1234567890topicAhello"), "12345678"))
	require.Equal(t, "beQgVA0KNM4WtCe68fj2DEn3WWU=", Sign(nil, "12345678"))
}

// Error() is RemotingHelper.exceptionSimpleDesc of the AclException.
func TestErrorText(t *testing.T) {
	e := refuse(frameNoAccount, "No acl config for %s", "abc")
	require.Equal(t, "org.apache.rocketmq.acl.common.AclException: No acl config for abc, "+
		"org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:668)", e.Error())
	require.Equal(t, "No acl config for abc", e.Message())

	p := ParseError(errString("bad header"))
	require.Equal(t, "org.apache.rocketmq.acl.common.AclException: bad header, "+
		"org.apache.rocketmq.acl.plain.PlainAccessValidator.parse(PlainAccessValidator.java:134)", p.Error())
	require.Equal(t, "org.apache.rocketmq.acl.common.AclException, "+
		"org.apache.rocketmq.acl.plain.PlainAccessValidator.parse(PlainAccessValidator.java:134)", ParseError(errString("")).Error())
	require.NoError(t, ParseError(nil))
}

type errString string

func (e errString) Error() string { return string(e) }
