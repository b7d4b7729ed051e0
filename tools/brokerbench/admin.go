package brokerbench

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// CreateTopic creates (or updates) topic on the broker with queues read and
// write queues; the broker registers it with its name servers.
func CreateTopic(ctx context.Context, broker, topic string, queues int32) error {
	cl := remoting.NewClient(remoting.ClientConfig{})
	defer cl.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rep, err := cl.InvokeSync(ctx, broker, CreateTopicRequest(topic, queues))
	if err != nil {
		return fmt.Errorf("brokerbench: create topic %s on %s: %w", topic, broker, err)
	}
	defer rep.Release()
	if err := replyError(rep); err != nil {
		return fmt.Errorf("brokerbench: create topic %s on %s: %w", topic, broker, err)
	}
	return nil
}

// Registered says whether a GET_BROKER_CLUSTER_INFO body lists
// brokerName (as a JSON string: a key of brokerAddrTable).
func Registered(body []byte, brokerName string) bool {
	return bytes.Contains(body, []byte(`"`+brokerName+`"`))
}

// WaitRegistered asks the name server for its cluster info every poll
// until it lists brokerName, and returns when it first did.
func WaitRegistered(ctx context.Context, namesrv, brokerName string, poll time.Duration) (time.Time, error) {
	cl := remoting.NewClient(remoting.ClientConfig{})
	defer cl.Close()
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		req := wire.NewRequest(int32(protocol.ReqGetBrokerClusterInfo))
		req.Serialize = wire.SerializeJSON
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		rep, err := cl.InvokeSync(cctx, namesrv, req)
		cancel()
		now := time.Now()
		if err == nil {
			ok := rep.Code == int32(protocol.RespSuccess) && Registered(rep.Body, brokerName)
			rep.Release()
			if ok {
				return now, nil
			}
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("brokerbench: %s not registered with %s: %w", brokerName, namesrv, ctx.Err())
		case <-t.C:
		}
	}
}
