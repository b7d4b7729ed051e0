package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// JavaRuntime says how to run the reference Apache RocketMQ servers: the JDK and
// the classpath built by conformance/java (see classpath.sh there).
type JavaRuntime struct {
	// Bin is the java executable ("java" when empty).
	Bin string
	// Classpath is target/classes plus every dependency jar.
	Classpath string
	// NamesrvHeap and BrokerHeap are -Xms/-Xmx values ("256m", "1g").
	NamesrvHeap, BrokerHeap string
}

// JDK17Flags are the module flags 4.9.8 needs on JDK 17: without them the
// store cannot unmap or delete mapped files (REFERENCE.md).
var JDK17Flags = []string{
	"--add-opens", "java.base/java.nio=ALL-UNNAMED",
	"--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang=ALL-UNNAMED",
	"--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
}

// Main classes of the reference servers and tools.
const (
	NamesrvMain = "org.apache.rocketmq.namesrv.NamesrvStartup"
	BrokerMain  = "org.apache.rocketmq.broker.BrokerStartup"
	DriverMain  = "io.sputnikmq.conformance.Driver"
)

func (j JavaRuntime) bin() string {
	if j.Bin == "" {
		return "java"
	}
	return j.Bin
}

// command builds `java <flags> -cp CP main args...` for a node living in
// dir; user.home is the node directory so that nothing lands in ~.
func (j JavaRuntime) command(dir, heap, main string, args ...string) *exec.Cmd {
	if heap == "" {
		heap = "256m"
	}
	argv := []string{"-server", "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC",
		"-XX:-OmitStackTraceInFastThrow", "-XX:SoftRefLRUPolicyMSPerMB=0"}
	argv = append(argv, JDK17Flags...)
	argv = append(argv, "-Duser.home="+dir, "-Drocketmq.client.logUseSlf4j=true", "-cp", j.Classpath, main)
	argv = append(argv, args...)
	return exec.Command(j.bin(), argv...)
}

// logbackConfig is a minimal logback configuration: everything at INFO to
// one file. NamesrvStartup, BrokerStartup and MQAdminStartup load
// $ROCKETMQ_HOME/conf/logback_{namesrv,broker,tools}.xml.
func logbackConfig(logFile, level string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!-- written by the Sputnik conformance launcher -->
<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>%s</file>
    <append>true</append>
    <encoder>
      <pattern>%%d{yyyy-MM-dd HH:mm:ss.SSS} %%p %%t %%logger{24} - %%m%%n</pattern>
    </encoder>
  </appender>
  <root level="%s">
    <appender-ref ref="FILE"/>
  </root>
</configuration>
`, xmlEscape(logFile), level)
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// WriteRocketMQHome creates home/conf/logback_*.xml so that home can serve
// as ROCKETMQ_HOME; every role logs to logDir/<role>.log.
func WriteRocketMQHome(home, logDir, level string) error {
	conf := filepath.Join(home, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}
	for _, role := range []string{"namesrv", "broker", "tools"} {
		x := logbackConfig(filepath.Join(logDir, role+".log"), level)
		if err := os.WriteFile(filepath.Join(conf, "logback_"+role+".xml"), []byte(x), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// minHeap returns the smaller of two -Xmx sizes ("1g", "512m"); an empty
// or unreadable a gives b.
func minHeap(a, b string) string {
	na, okA := heapBytes(a)
	nb, okB := heapBytes(b)
	if !okA || (okB && nb < na) {
		return b
	}
	return a
}

// heapBytes reads a JVM size: digits with an optional k, m, g or t suffix.
func heapBytes(s string) (int64, bool) {
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		case 't', 'T':
			shift = 40
		}
	}
	if shift != 0 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n << shift, true
}

// JavaClasspath runs a classpath.sh (conformance/java's builds the
// project when needed) or reads a file holding the classpath.
func JavaClasspath(ctx context.Context, path string) (string, error) {
	if strings.HasSuffix(path, ".sh") {
		cmd := exec.CommandContext(ctx, path)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("%s: %w (needs java and mvn; see conformance/README.md)", path, err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}
