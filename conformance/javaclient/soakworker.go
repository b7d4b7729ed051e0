package javaclient

import (
	"fmt"
	"time"
)

// SoakWorkerClass is conformance/java's SoakWorker: one soak cycle of the
// Java client in a JVM of its own (exit 0 when every message arrived).
const SoakWorkerClass = "io.sputnikmq.conformance.SoakWorker"

// The SoakWorker kinds (SoakWorker.java documents each).
const (
	SoakPlain    = "jplain"
	SoakOrderly  = "jorderly"
	SoakLitePull = "jlitepull"
	SoakTx       = "jtx"
)

// SoakWorkerJVM are the JVM options of a SoakWorker: a small heap, and
// OldNettyOpens for the clients before 4.9.
var SoakWorkerJVM = append([]string{"-Xms32m", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}, OldNettyOpens...)

// SoakCycle is one SoakWorker run: what it is given on its command line.
type SoakCycle struct {
	Namesrv, Topic, Group, ProducerGroup string
	// Instance is the clients' instance name and the bodies' prefix
	// ("{instance}-{kind}-{i}"); it holds exactly one '-'.
	Instance, Kind string
	Msgs           int
	Timeout        time.Duration // how long its consumer may take
	Shutdown       bool          // shut the clients down at the end, or halt as a killed client
}

// Args is c as SoakWorker's arguments, in its order: namesrv topic group
// producerGroup instance kind msgs timeoutMs shutdown.
func (c SoakCycle) Args() []string {
	return []string{c.Namesrv, c.Topic, c.Group, c.ProducerGroup, c.Instance, c.Kind,
		fmt.Sprint(c.Msgs), fmt.Sprint(c.Timeout.Milliseconds()), fmt.Sprint(c.Shutdown)}
}
