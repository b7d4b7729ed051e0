package protocoltest

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Storm sends generated requests from workers goroutines at once until ctx
// ends or a send fails, so that a server's handlers run against each other
// (the request-storm tests, under -race). Each worker builds its requests
// from random bytes with build and sends them with send, which gets the
// worker's number (a worker should use a connection of its own). It
// returns how many requests each worker sent and every send's error.
func Storm(ctx context.Context, workers int, build func([]byte) (*wire.Command, bool), send func(worker int, req *wire.Command) error) ([]int, error) {
	var wg sync.WaitGroup
	errs := make([]error, workers)
	counts := make([]int, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			data := make([]byte, 96)
			for ctx.Err() == nil && errs[w] == nil {
				for i := range data {
					data[i] = byte(rng.Uint32())
				}
				if req, ok := build(data[:rng.IntN(len(data))]); ok {
					errs[w] = send(w, req)
					counts[w]++
				}
			}
		}()
	}
	wg.Wait()
	return counts, errors.Join(errs...)
}
