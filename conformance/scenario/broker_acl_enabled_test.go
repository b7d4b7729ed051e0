package scenario

import (
	"testing"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// The signatures are what Java 4.9.8's AclClientRPCHook.doBeforeRequest
// put on the same requests (RemotingCommand with these ext fields and body).
func TestSignACL(t *testing.T) {
	req := rawclient.Request(codeHeartBeat, "topic", "aclTopicA", "queueId", "0", "b", "x")
	req.Body = []byte(`{"clientID":"grüße"}`)
	signACL(req, javaclient.Credentials{AccessKey: "RocketMQ", SecretKey: "12345678"})
	if got, want := ext(req, "Signature"), "Q5kZzDxSRaBScdSB4JPbEF4om2I="; got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
	if got := ext(req, "AccessKey"); got != "RocketMQ" {
		t.Errorf("AccessKey %q", got)
	}
	// No ext fields and no body: the AccessKey alone is signed.
	bare := signACL(rawclient.Request(codeUpdateAndCreateTopic), javaclient.Credentials{AccessKey: "aclAdmin", SecretKey: "aclAdminSecret"})
	if got, want := ext(bare, "Signature"), "90KXpgPOlbra9gOlx+Ikh2xWcg4="; got != want {
		t.Errorf("bare signature %q, want %q", got, want)
	}
}

func ext(c *wire.Command, key string) string {
	v, _ := c.ExtValue(key)
	return v
}

func TestACLMessage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"org.apache.rocketmq.acl.common.AclException: Need admin permission for request code=17, but accessKey=RocketMQ is not, " +
			"org.apache.rocketmq.acl.plain.PlainPermissionManager.checkPerm(PlainPermissionManager.java:581)",
			"Need admin permission for request code=17, but accessKey=RocketMQ is not"},
		{"MQClientException: Send [3] times <- MQBrokerException: CODE: 1  DESC: org.apache.rocketmq.acl.common.AclException: " +
			"No accessKey is configured, org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:664) " +
			"BROKER: 127.0.0.1:1\nFor more information", "No accessKey is configured"},
		{"AclException: No acl config for x BROKER: 127.0.0.1:1", "No acl config for x"},
		{"AclException: No acl config for x", "No acl config for x"},
		{"CODE: 1, DESC: something else", ""},
	} {
		if got := aclMessage(c.in); got != c.want {
			t.Errorf("aclMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
