package broker

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// Topics deleted, cleaned and created again while producers send to them
// and consumers pull them, beside a topic nobody touches: no request goes
// unanswered, the broker stays writable (a failed consume-queue write
// stops dispatch and refuses every put, as in Java), and every message
// sent to the untouched topic is stored at the offset its answer gave.
// Run with -race it also checks the admin, send, pull and dispatch paths
// for data races.
func TestTopicChurnUnderLoad(t *testing.T) {
	b, cl := startBroker(t)
	addr := b.Addr()
	const stable = "Stable"
	churn := []string{"Churn0", "Churn1"}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()

	var wg sync.WaitGroup
	var once sync.Once
	var failed error // the first error of any worker
	fail := func(err error) { once.Do(func() { failed = err }) }
	run := func(work func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				if err := work(i); err != nil {
					fail(err)
					return
				}
			}
		}()
	}

	var mu sync.Mutex
	stored := map[int32]map[int64]string{} // stable queue → offset → body
	for p := range 2 {
		run(func(i int) error {
			q := int32(i % 4)
			body := fmt.Sprintf("p%d-%d", p, i)
			resp, err := tryInvoke(cl, addr, sendV2(stable, q, body, "T"))
			if err != nil {
				return err
			}
			if resp.Code != int32(protocol.RespSuccess) {
				return fmt.Errorf("send to %s: code %d %s", stable, resp.Code, resp.Remark)
			}
			var h protocol.SendMessageResponseHeader
			if err := h.DecodeFrom(resp); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if stored[q] == nil {
				stored[q] = map[int64]string{}
			}
			stored[q][h.QueueOffset] = body
			// The churned topics get a message too; they may refuse it
			// while deleted (not auto-created again before the delete
			// ends), so only an answer is required.
			_, err = tryInvoke(cl, addr, sendV2(churn[i%2], q, body, "T"))
			return err
		})
	}
	run(func(i int) error {
		_, err := tryInvoke(cl, addr, pull(churn[i%2], int32(i%4), int64(i%3), 0, "*"))
		return err
	})
	run(func(i int) error {
		_, err := tryInvoke(cl, addr, pull(stable, int32(i%4), int64(i%5), 0, "*"))
		return err
	})
	run(func(i int) error {
		var req *wire.Command
		switch i % 3 {
		case 0:
			req = wire.NewRequest(int32(protocol.ReqDeleteTopicInBroker))
			(&protocol.DeleteTopicRequestHeader{Topic: churn[i/3%2]}).EncodeTo(req)
		case 1:
			req = wire.NewRequest(int32(protocol.ReqCleanUnusedTopic))
		case 2:
			req = wire.NewRequest(int32(protocol.ReqUpdateAndCreateTopic))
			(&protocol.CreateTopicRequestHeader{Topic: churn[i/3%2], DefaultTopic: protocol.Some("TBW102"),
				ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: "SINGLE_TAG"}).EncodeTo(req)
		}
		resp, err := tryInvoke(cl, addr, req)
		if err == nil && resp.Code != int32(protocol.RespSuccess) {
			err = fmt.Errorf("admin request %d: code %d %s", req.Code, resp.Code, resp.Remark)
		}
		return err
	})
	wg.Wait()
	require.NoError(t, failed)

	require.True(t, b.store.Writable(), "the store stopped taking puts")
	total := 0
	for q, msgs := range stored {
		dispatched(t, b, stable, q, int64(len(msgs)))
		for off, body := range msgs {
			res, err := b.store.GetMessage("CG", stable, q, off, 1, nil)
			require.NoError(t, err)
			require.NotEmpty(t, res.Messages, "%s-%d@%d: %v", stable, q, off, res.Status)
			rec, err := message.DecodeRecord(res.Messages[0].B, true)
			require.NoError(t, err)
			require.Equal(t, body, string(rec.Body), "%s-%d@%d", stable, q, off)
			res.Release()
			total++
		}
	}
	require.Positive(t, total)
	t.Logf("%d messages to %s checked", total, stable)
}

// tryInvoke is invoke for goroutines: the error is returned, not required.
func tryInvoke(cl *remoting.Client, addr string, req *wire.Command) (*wire.Command, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := cl.InvokeSync(ctx, addr, req)
	if err != nil {
		return nil, fmt.Errorf("request %d: %w", req.Code, err)
	}
	return resp, nil
}
