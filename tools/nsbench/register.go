package nsbench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ErrRegister wraps every failed REGISTER_BROKER.
var ErrRegister = errors.New("nsbench: register broker")

// registerTimeout bounds one REGISTER_BROKER; Java takes a few seconds to
// parse a 15 MB JSON body on a busy machine.
const registerTimeout = 60 * time.Second

// Registered describes the registration phase.
type Registered struct {
	Brokers    int           `json:"brokers"`
	Topics     int           `json:"topics"`
	Queues     int           `json:"queues"`
	Compressed bool          `json:"compressed"`
	BodyBytes  int           `json:"bodyBytes"` // one broker's body
	FrameBytes int           `json:"frameBytes"`
	Took       time.Duration `json:"tookNanos"` // all brokers
	OK         int           `json:"ok"`        // brokers registered
	Error      string        `json:"error,omitempty"`
}

// Registration holds the brokers' connections open and re-registers them
// every Options.Heartbeat until Close. Each broker has its own connection,
// as real brokers do: the name server drops the broker of a connection
// when it closes (Java's onChannelDestroy drops only the first broker
// found on the channel, so brokers sharing one would linger until they
// expire).
type Registration struct {
	Registered

	o       Options
	clients []*remoting.Client // one per broker
	body    []byte             // every broker serves the same topics
	stop    chan struct{}
	wg      sync.WaitGroup
}

// BrokerName and BrokerAddr name broker b; addresses are on loopback ports
// nobody listens on.
func BrokerName(b int) string { return fmt.Sprintf("bench-broker-%d", b) }

// BrokerAddr is broker b's advertised address.
func BrokerAddr(b int) string { return fmt.Sprintf("127.0.0.1:%d", 30000+b*4) }

// Register registers o.Brokers brokers serving o.Topics topics. It returns
// the registration, even on error, so that the caller can report how far it
// got; Close it in any case.
func Register(ctx context.Context, o Options) (*Registration, error) {
	r := &Registration{o: o, stop: make(chan struct{})}
	r.Brokers, r.Topics, r.Queues, r.Compressed = o.Brokers, o.Topics, o.Queues, o.Compressed
	body, err := RegisterBody(o, time.Now().UnixMilli())
	if err != nil {
		return r, err
	}
	r.body, r.BodyBytes = body, len(body)
	start := time.Now()
	for b := range o.Brokers {
		r.clients = append(r.clients, remoting.NewClient(remoting.ClientConfig{Log: o.log(), MaxFrameLength: o.MaxFrame}))
		if err := r.register(ctx, b); err != nil {
			r.Took = time.Since(start)
			r.Error = err.Error()
			return r, err
		}
		r.OK++
	}
	r.Took = time.Since(start)
	if o.Heartbeat > 0 {
		r.wg.Add(1)
		go r.heartbeat()
	}
	return r, nil
}

func (r *Registration) register(ctx context.Context, b int) error {
	req := wire.NewRequest(int32(protocol.ReqRegisterBroker))
	h := protocol.RegisterBrokerRequestHeader{
		BrokerName: BrokerName(b), BrokerAddr: BrokerAddr(b), ClusterName: "BenchCluster",
		HaServerAddr: fmt.Sprintf("127.0.0.1:%d", 30001+b*4), BrokerId: 0, Compressed: r.o.Compressed,
	}
	h.EncodeTo(req)
	req.Body = r.body
	if prefix, err := wire.AppendFramePrefix(nil, req); err == nil {
		r.FrameBytes = len(prefix) + len(req.Body)
	}
	ctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	resp, err := r.clients[b].InvokeSync(ctx, r.o.Namesrv, req)
	if err != nil {
		return fmt.Errorf("%w %s (body %d bytes): %w", ErrRegister, BrokerName(b), len(req.Body), err)
	}
	if resp.Code != int32(protocol.RespSuccess) {
		return fmt.Errorf("%w %s: code %d: %s", ErrRegister, BrokerName(b), resp.Code, resp.Remark)
	}
	return nil
}

// heartbeat re-registers every broker with the same body (same data
// version), as BrokerController.registerBrokerAll does on its timer.
func (r *Registration) heartbeat() {
	defer r.wg.Done()
	t := time.NewTicker(r.o.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		for b := range r.clients {
			if err := r.register(context.Background(), b); err != nil {
				r.o.log().WithError(err).Warn("heartbeat")
			}
		}
	}
}

// Close stops the heartbeat and closes the brokers' connections, which
// unregisters them.
func (r *Registration) Close() error {
	close(r.stop)
	r.wg.Wait()
	var errs []error
	for _, c := range r.clients {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
