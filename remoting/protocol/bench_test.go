package protocol

import (
	"testing"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

func BenchmarkSendMessageV2Encode(b *testing.B) {
	var h SendMessageRequestHeaderV2
	if err := h.DecodeFrom(command(sendV2...)); err != nil {
		b.Fatal(err)
	}
	c := wire.NewRequest(int32(ReqSendMessageV2))
	b.ReportAllocs()
	for b.Loop() {
		c.Ext = c.Ext[:0]
		h.EncodeTo(c)
	}
}

func BenchmarkSendMessageV2Decode(b *testing.B) {
	c := command(sendV2...)
	var h SendMessageRequestHeaderV2
	b.ReportAllocs()
	for b.Loop() {
		if err := h.DecodeFrom(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPullMessageDecode(b *testing.B) {
	c := command("consumerGroup", "G", "topic", "TopicTest", "queueId", "3", "queueOffset", "1024",
		"maxMsgNums", "32", "sysFlag", "3", "commitOffset", "1000", "suspendTimeoutMillis", "15000",
		"subVersion", "1690000000000", "expressionType", "TAG")
	var h PullMessageRequestHeader
	b.ReportAllocs()
	for b.Loop() {
		if err := h.DecodeFrom(c); err != nil {
			b.Fatal(err)
		}
	}
}
