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

// Registration brackets when a broker's registration reached the name
// server: after After (when the last poll that did not list it was sent;
// the start of polling if none) and by By (when the first poll that did
// was answered). A slow name server widens the bracket.
type Registration struct{ After, By time.Time }

// WaitRegistered asks the name server for its cluster info every poll
// until it lists brokerName.
func WaitRegistered(ctx context.Context, namesrv, brokerName string, poll time.Duration) (Registration, error) {
	cl := remoting.NewClient(remoting.ClientConfig{})
	defer cl.Close()
	t := time.NewTicker(poll)
	defer t.Stop()
	reg := Registration{After: time.Now()}
	for {
		asked := time.Now()
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
				reg.By = now
				return reg, nil
			}
			reg.After = asked
		}
		select {
		case <-ctx.Done():
			return reg, fmt.Errorf("brokerbench: %s not registered with %s: %w", brokerName, namesrv, ctx.Err())
		case <-t.C:
		}
	}
}
