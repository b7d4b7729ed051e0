package scenario

// Large messages through the broker under test: single sends whose stored
// body (compressed by the Java client above 4 KiB) is 32 KiB or more, and
// a batch of that size, are the puts Sputnik's store writes with pwritev
// rather than through the mapping (store/commitlog writeMin). They must
// arrive intact, and read the same through the index (queryMsgByKey).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
)

func init() {
	Register(&Scenario{
		Name: "broker/send/large-bodies",
		Doc: "Java sync sends of 48 KiB, 300 KiB and 1.5 MiB bodies (stored compressed, still over 32 KiB) and a batch of " +
			"three 12 KiB messages reach a Java push consumer intact, and queryMsgByKey finds each",
		Tags:    tags("quick", "javaclient", "mqadmin"),
		Timeout: brokerScenarioLimit,
		Run:     brokerLargeBodies,
	})
}

// largeBody is n bytes of prefix then letters and digits from a fixed
// seed: the same in every column, and zlib leaves about three quarters.
func largeBody(prefix string, seed uint64, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(seed, 0x5b0d))
	var b strings.Builder
	b.Grow(n)
	b.WriteString(prefix)
	for b.Len() < n {
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func brokerLargeBodies(ctx context.Context, env *Env) error {
	const topic, group, pg = "BrokerLargeBodies", "CONF_BROKER_LARGE_CG", "CONF_BROKER_LARGE_PG"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	var single, batch []msgSpec
	for i, n := range []int{48 << 10, 300 << 10, 1536 << 10} {
		single = append(single, msgSpec{Body: largeBody(fmt.Sprintf("large-s%d-", i), uint64(i), n), Tags: "Large",
			Keys: fmt.Sprintf("large-s%d", i), Props: map[string]string{"size": fmt.Sprint(n)}})
	}
	for i := range 3 {
		batch = append(batch, msgSpec{Body: largeBody(fmt.Sprintf("large-b%d-", i), uint64(10+i), 12<<10), Tags: "Large",
			Keys: fmt.Sprintf("large-b%d", i)})
	}
	if _, err := javaProduce(ctx, env, topic, pg, "sync", single); err != nil {
		return err
	}
	if _, err := javaProduce(ctx, env, topic, pg, "batch", batch); err != nil {
		return err
	}
	all := append(single, batch...)
	if err := consumeExactly(ctx, env, topic, group, "large", all); err != nil {
		return err
	}
	for _, s := range all {
		if _, err := queryMsgByKey(ctx, env, topic, s.Keys, 1); err != nil {
			return err
		}
	}
	env.Observe("delivered intact and found by key", fmt.Sprintf("%d single, %d batched", len(single), len(batch)))
	return nil
}
