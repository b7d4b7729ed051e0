// Command mqnamesrv is Sputnik's drop-in replacement for Apache RocketMQ 4.9.8's
// mqnamesrv: the name server (NamesrvStartup). It is not built yet (issue #4); until then it
// says so and exits with status 1 rather than pretending to run.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "mqnamesrv: not implemented yet in this Sputnik build (issue #4)")
	os.Exit(1)
}
