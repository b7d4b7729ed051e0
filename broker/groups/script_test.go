package groups

// The scripted comparison with the real 4.9.7-broker SubscriptionGroupManager: see
// broker/internal/managerscript.

import (
	"flag"
	"testing"

	"github.com/sputnikmq/sputnik/broker/internal/managerscript"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the Java oracle")

func compareWithJava(t *testing.T, script string, run func(t *testing.T, root string, cmds [][]string) string) {
	managerscript.CompareWithJava(t, script, *update, run)
}

var (
	unescape      = managerscript.Unescape
	fileOrMissing = managerscript.FileOrMissing
)
