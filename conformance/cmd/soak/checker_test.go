package main

import (
	"context"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func msg(body string, born time.Time, reconsumed int32) *primitive.MessageExt {
	m := &primitive.MessageExt{BornTimestamp: born.UnixMilli(), ReconsumeTimes: reconsumed}
	m.Body = []byte(body)
	return m
}

// wantOf is what produce would want of n messages of kind from slot 0,
// cycle 1.
func wantOf(kind string, n int) map[string]bool {
	want := map[string]bool{}
	for i := range n {
		if b := bodyOf(0, 1, kind, i); !rolledBack(b) && !filteredOut(kind, i) {
			want[b] = true
		}
	}
	return want
}

func TestCheckerKeepsEachKindsPromise(t *testing.T) {
	long := time.Now().Add(-time.Minute)
	tests := []struct {
		name, kind string
		n          int
		deliver    []*primitive.MessageExt
		broken     string // "" when the cycle passes
		retryLater []bool // per delivery; nil: all ConsumeSuccess
	}{
		{name: "plain, all and a duplicate", kind: kindPlain, n: 2,
			deliver: []*primitive.MessageExt{msg("soak0-1-plain-1", long, 0), msg("soak0-1-plain-0", long, 0), msg("soak0-1-plain-1", long, 0)}},
		{name: "plain, one missing", kind: kindPlain, n: 2,
			deliver: []*primitive.MessageExt{msg("soak0-1-plain-1", long, 0)}, broken: "received 1 of the 2"},
		{name: "another cycle's messages do not count", kind: kindPlain, n: 1,
			deliver: []*primitive.MessageExt{msg("soak0-11-plain-0", long, 0)}, broken: "received 0 of the 1"},
		{name: "orderly, redelivered from the start", kind: kindOrderly, n: 10,
			deliver: []*primitive.MessageExt{msg("soak0-1-orderly-0", long, 0), msg("soak0-1-orderly-8", long, 0),
				msg("soak0-1-orderly-0", long, 0), msg("soak0-1-orderly-8", long, 0), msg("soak0-1-orderly-1", long, 0),
				msg("soak0-1-orderly-2", long, 0), msg("soak0-1-orderly-3", long, 0), msg("soak0-1-orderly-4", long, 0),
				msg("soak0-1-orderly-5", long, 0), msg("soak0-1-orderly-6", long, 0), msg("soak0-1-orderly-9", long, 0),
				msg("soak0-1-orderly-7", long, 0)}},
		{name: "orderly, a key out of order", kind: kindOrderly, n: 10,
			deliver: []*primitive.MessageExt{msg("soak0-1-orderly-8", long, 0), msg("soak0-1-orderly-0", long, 0)},
			broken:  "key 0: message 0 first delivered after message 8"},
		{name: "delay, in time", kind: kindDelay, n: 1,
			deliver: []*primitive.MessageExt{msg("soak0-1-delay-0", time.Now().Add(-delayOf), 0)}},
		{name: "delay, early", kind: kindDelay, n: 1,
			deliver: []*primitive.MessageExt{msg("soak0-1-delay-0", time.Now().Add(-time.Second), 0)}, broken: "before its delay"},
		{name: "retry, failed first and back with a count", kind: kindRetry, n: 1,
			deliver:    []*primitive.MessageExt{msg("soak0-1-retry-0", long, 0), msg("soak0-1-retry-0", long, 1)},
			retryLater: []bool{true, false}},
		{name: "retry, never back", kind: kindRetry, n: 1,
			deliver: []*primitive.MessageExt{msg("soak0-1-retry-0", long, 0), msg("soak0-1-retry-0", long, 0)},
			broken:  "received 0 of the 1", retryLater: []bool{true, true}},
		{name: "tx, the committed ones", kind: kindTx, n: 3,
			deliver: []*primitive.MessageExt{msg("soak0-1-tx-0", long, 0), msg("soak0-1-tx-2", long, 0)}},
		{name: "tag, the even ones", kind: kindTag, n: 4,
			deliver: []*primitive.MessageExt{msg("soak0-1-tag-2", long, 0), msg("soak0-1-tag-0", long, 0)}},
		{name: "tag, an odd one through the filter", kind: kindTag, n: 4,
			deliver: []*primitive.MessageExt{msg("soak0-1-tag-0", long, 0), msg("soak0-1-tag-3", long, 0)},
			broken:  "soak0-1-tag-3, which the consumer's tag selector excludes"},
		{name: "sql, an odd one through the filter", kind: kindSQL, n: 2,
			deliver: []*primitive.MessageExt{msg("soak0-1-sql-1", long, 0), msg("soak0-1-sql-0", long, 0)},
			broken:  "soak0-1-sql-1, which the consumer's sql selector excludes"},
		{name: "sql, the even ones", kind: kindSQL, n: 2,
			deliver: []*primitive.MessageExt{msg("soak0-1-sql-0", long, 0)}},
		{name: "tx, a rolled-back one of any cycle", kind: kindPlain, n: 1,
			deliver: []*primitive.MessageExt{msg("soak0-1-plain-0", long, 0), msg("soak1-7-tx-4", long, 0)},
			broken:  "soak1-7-tx-4, a rolled-back"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch := newChecker(tc.kind, instanceOf(0, 1), wantOf(tc.kind, tc.n))
			for i, m := range tc.deliver {
				r, err := ch.receive(context.Background(), m)
				require.NoError(t, err)
				if tc.retryLater != nil && tc.retryLater[i] {
					assert.Equal(t, consumer.ConsumeRetryLater, r, "delivery %d", i)
				} else {
					assert.Equal(t, consumer.ConsumeSuccess, r, "delivery %d", i)
				}
			}
			err := ch.result(tc.n)
			if tc.broken == "" {
				require.NoError(t, err)
				select {
				case <-ch.done:
				default:
					t.Fatal("done not closed")
				}
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.broken)
		})
	}
}

func TestTxAnswersFromTheBody(t *testing.T) {
	var l txListener
	exec := func(i int) primitive.LocalTransactionState {
		return l.ExecuteLocalTransaction(&primitive.Message{Body: []byte(bodyOf(2, 3, kindTx, i))})
	}
	check := func(body string) primitive.LocalTransactionState {
		m := &primitive.MessageExt{}
		m.Body = []byte(body)
		return l.CheckLocalTransaction(m)
	}
	assert.Equal(t, primitive.CommitMessageState, exec(3))
	assert.Equal(t, primitive.RollbackMessageState, exec(4))
	assert.Equal(t, primitive.UnknowState, exec(5))
	assert.Equal(t, primitive.CommitMessageState, check(bodyOf(2, 3, kindTx, 5)))
	assert.Equal(t, primitive.RollbackMessageState, check(bodyOf(2, 3, kindTx, 4)))
	assert.Equal(t, primitive.RollbackMessageState, check("not ours"))
}

// Each slot's groups meet every kind, whatever -kinds holds.
func TestGroupsMeetEveryKind(t *testing.T) {
	for n := 1; n <= len(allKinds); n++ {
		kinds := allKinds[:n]
		for slot := range 2 {
			met := map[string]map[string]bool{}
			for cycle := range n * groupsPerSlot {
				g := groupOf(slot, cycle)
				if met[g] == nil {
					met[g] = map[string]bool{}
				}
				met[g][kindOf(kinds, slot, cycle)] = true
			}
			require.Len(t, met, groupsPerSlot)
			for g, ks := range met {
				assert.Len(t, ks, n, "%d kinds, slot %d, %s", n, slot, g)
			}
		}
	}
}

func TestKinds(t *testing.T) {
	kinds, err := parseKinds("plain, tx")
	require.NoError(t, err)
	assert.Equal(t, []string{kindPlain, kindTx}, kinds)
	assert.Equal(t, kindTx, kindOf(kinds, 1, 2))
	_, err = parseKinds("plain,bogus")
	assert.ErrorContains(t, err, `unknown kind "bogus"`)
	_, err = parseKinds("")
	assert.Error(t, err)
	kind, i, ok := parseBody(bodyOf(12, 340, kindRetry, 56))
	assert.True(t, ok)
	assert.Equal(t, kindRetry, kind)
	assert.Equal(t, 56, i)
}
