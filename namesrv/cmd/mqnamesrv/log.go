package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
)

// The name server logs where conf/logback_namesrv.xml sends Java's
// RocketmqNamesrv logger: ${user.home}/logs/rocketmqlogs/namesrv.log,
// rolled at 100 MB into otherdays/namesrv.{1..5}.log.gz, lines laid out as
// "%d{yyy-MM-dd HH:mm:ss,GMT+8} %p %t - %m%n". When the file cannot be
// opened the log goes to stderr. Stdout is kept for what Java prints there.

// openLog returns the logger and a function closing its file.
func openLog(userHome string, stderr io.Writer) (*logrus.Logger, func()) {
	l := logrus.New()
	l.SetLevel(logrus.InfoLevel)
	l.SetFormatter(&javaFormatter{loc: time.FixedZone("GMT+8", 8*3600)})
	dir := filepath.Join(userHome, "logs", "rocketmqlogs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "mqnamesrv: logging to stderr: %v\n", err)
		l.SetOutput(stderr)
		return l, func() {}
	}
	f, err := openRolling(dir)
	if err != nil {
		fmt.Fprintf(stderr, "mqnamesrv: logging to stderr: %v\n", err)
		l.SetOutput(stderr)
		return l, func() {}
	}
	l.SetOutput(f)
	return l, func() { _ = f.Close() }
}

// javaFormatter lays entries out as the namesrv appender of
// logback_namesrv.xml; logrus fields follow the message as key=value.
type javaFormatter struct {
	loc *time.Location
}

func (f *javaFormatter) Format(e *logrus.Entry) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(e.Time.In(f.loc).Format("2006-01-02 15:04:05"))
	b.WriteByte(' ')
	b.WriteString(javaLevel(e.Level))
	b.WriteString(" main - ")
	b.WriteString(e.Message)
	keys := make([]string, 0, len(e.Data))
	for k := range e.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, e.Data[k])
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func javaLevel(l logrus.Level) string {
	switch l {
	case logrus.WarnLevel:
		return "WARN"
	case logrus.TraceLevel:
		return "TRACE"
	}
	return strings.ToUpper(l.String())
}
