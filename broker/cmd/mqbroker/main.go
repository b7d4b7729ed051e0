// Command mqbroker is Sputnik's drop-in replacement for Apache RocketMQ 4.9.8's
// mqbroker: the broker (BrokerStartup). It is not built yet (issue #6); until then it
// says so and exits with status 1 rather than pretending to run.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "mqbroker: not implemented yet in this Sputnik build (issue #6)")
	os.Exit(1)
}
