// Command mqadmin is Sputnik's drop-in replacement for Apache RocketMQ 4.9.8's
// mqadmin: the admin tool (MQAdminStartup). It is not built yet (a later issue); until then it
// says so and exits with status 1 rather than pretending to run.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "mqadmin: not implemented yet in this Sputnik build (a later issue)")
	os.Exit(1)
}
