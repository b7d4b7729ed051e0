package broker

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Java 4.9.8 BrokerController.protectBroker: with
// disableConsumeIfConsumerReadSlowly, a group whose pull left more than
// consumerFallbehindThreshold bytes behind it is disabled and its next
// pull is refused; without the setting nothing happens.
func TestProtectBrokerDisablesSlowConsumers(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint("disableConsumeIfConsumerReadSlowly=", on), func(t *testing.T) {
			b, cl := startBroker(t, fmt.Sprint("disableConsumeIfConsumerReadSlowly=", on), "consumerFallbehindThreshold=1000")
			addr := b.Addr()
			for i := range 10 {
				resp := invoke(t, cl, addr, sendV2("SlowT", 0, fmt.Sprintf("%0200d", i), ""))
				require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
			}
			dispatched(t, b, "SlowT", 0, 10)
			one := func(offset int64) *wire.Command {
				req := pull("SlowT", 0, offset, 0, "*")
				var h protocol.PullMessageRequestHeader
				require.NoError(t, h.DecodeFrom(req))
				h.MaxMsgNums = 1
				h.EncodeTo(req)
				return invoke(t, cl, addr, req)
			}
			require.EqualValues(t, protocol.RespSuccess, one(0).Code)
			var behind int64
			b.stats.FallBehind(func(k stats.FallKey, v int64) {
				require.Equal(t, stats.FallKey{QueueID: 0, Topic: "SlowT", Group: "CG"}, k)
				behind = v
			})
			require.Greater(t, behind, int64(1000), "nine records of 300 bytes and more lie behind the first")
			b.protectBroker()
			resp := one(1)
			if !on {
				require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
				return
			}
			require.EqualValues(t, protocol.RespNoPermission, resp.Code)
			require.Equal(t, "subscription group no permission, CG", resp.Remark)

			// Having caught up changes nothing: the group stays disabled.
			b.stats.RecordFallBehind("CG", "SlowT", 0, 0)
			b.protectBroker()
			require.EqualValues(t, protocol.RespNoPermission, one(1).Code)
		})
	}
}

// autoDeleteUnusedStats: deleting a topic or a group drops its statistics
// (onTopicDeleted, onGroupDeleted); without it they stay.
func TestAutoDeleteUnusedStats(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint("autoDeleteUnusedStats=", on), func(t *testing.T) {
			b, cl := startBroker(t, fmt.Sprint("autoDeleteUnusedStats=", on))
			addr := b.Addr()
			for _, topic := range []string{"GoneT", "KeptT"} {
				resp := invoke(t, cl, addr, sendV2(topic, 0, "m", ""))
				require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
				dispatched(t, b, topic, 0, 1)
				require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, pull(topic, 0, 0, 0, "*")).Code)
			}
			has := func(name, key string) bool { it, _ := b.stats.Item(name, key); return it != nil }
			require.True(t, has(stats.TopicPutNums, "GoneT"))
			require.True(t, has(stats.GroupGetNums, "KeptT@CG"))

			del := wire.NewRequest(int32(protocol.ReqDeleteTopicInBroker))
			(&protocol.DeleteTopicRequestHeader{Topic: "GoneT"}).EncodeTo(del)
			require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, del).Code)
			require.Equal(t, !on, has(stats.TopicPutNums, "GoneT"))
			require.Equal(t, !on, has(stats.GroupGetNums, "GoneT@CG"))
			require.True(t, has(stats.TopicPutNums, "KeptT"))
			require.True(t, has(stats.GroupGetNums, "KeptT@CG"))

			dg := wire.NewRequest(int32(protocol.ReqDeleteSubscriptiongroup))
			(&protocol.DeleteSubscriptionGroupRequestHeader{GroupName: "CG"}).EncodeTo(dg)
			require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, dg).Code)
			require.Equal(t, !on, has(stats.GroupGetNums, "KeptT@CG"))
			require.True(t, has(stats.TopicPutNums, "KeptT"))
		})
	}
}
