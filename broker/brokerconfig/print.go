package brokerconfig

import (
	"io"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/compat/javaprops"
)

// consoleZone is the time zone of the STDOUT appender's pattern in
// 4.9.8's conf/logback_broker.xml: %d{yyy-MM-dd HH\:mm\:ss,GMT+8}.
var consoleZone = time.FixedZone("GMT+8", 8*3600)

// Print writes what `mqbroker -p` (onlyImportant false) or `mqbroker -m`
// (true) shows: MixAll.printObjectProperties of BrokerConfig,
// NettyServerConfig, NettyClientConfig and MessageStoreConfig, in that
// order, through the RocketmqConsole logger. BrokerStartup has already
// loaded $ROCKETMQ_HOME/conf/logback_broker.xml at that point, whose STDOUT
// appender lays each line out as
//
//	%d{yyy-MM-dd HH\:mm\:ss,GMT+8} %p %t - %m%n
//
// (null values print empty). The backslashes of the pattern's "HH\:mm\:ss"
// survive logback 1.2.10's option parsing and SimpleDateFormat copies them
// as literals, so what a user sees is
//
//	2026-12-01 06\:23\:01 INFO main - brokerClusterName=DefaultCluster
func Print(w io.Writer, s *Startup, onlyImportant bool) error {
	return PrintAt(w, s, onlyImportant, time.Now())
}

// PrintAt is Print with the time stamp of every line fixed to now.
func PrintAt(w io.Writer, s *Startup, onlyImportant bool, now time.Time) error {
	prefix := now.In(consoleZone).Format(`2006-01-02 15\:04\:05`) + " INFO main - "
	var b strings.Builder
	for _, obj := range s.configs() {
		lines, err := javaprops.Lines(obj, onlyImportant)
		if err != nil {
			return err
		}
		for _, l := range lines {
			b.WriteString(prefix)
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// configs lists the four config objects in BrokerStartup's order.
func (s *Startup) configs() []any {
	return []any{&s.Broker, &s.NettyServer, &s.NettyClient, &s.Store}
}
