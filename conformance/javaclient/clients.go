package javaclient

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Other versions of the official Java client than 4.9.8: operators point
// whatever clients they run at the broker. conformance/java's
// client-classpath.sh resolves one version from Maven Central and prints a
// classpath of the harness's classes and that client's jars (and nothing
// of 4.9.8's); classes that use only client API run on it.

// ClientClasspath runs script (conformance/java/client-classpath.sh) for
// version and returns the classpath it prints.
func ClientClasspath(ctx context.Context, script, version string) (string, error) {
	return classpathOf(ctx, script, version, "client")
}

// classpathOf runs script for version of artifact ("client" or "tools").
func classpathOf(ctx context.Context, script, version, artifact string) (string, error) {
	cmd := exec.CommandContext(ctx, script, version, artifact)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s %s: %w (needs java and mvn; see conformance/README.md)", script, version, artifact, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// VersionOf reads the major and minor numbers of a client version
// (major.minor.patch); ok is false for anything else.
func VersionOf(v string) (major, minor int, ok bool) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 3 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

// LitePullWorks says whether version's DefaultLitePullConsumer receives
// messages from a 4.9.8 broker: it came with 4.6.0, and the 5.x one pulls
// with LITE_PULL_MESSAGE (361), which a 4.9.8 broker, Java or Sputnik,
// answers with REQUEST_CODE_NOT_SUPPORTED.
func LitePullWorks(version string) bool {
	major, minor, ok := VersionOf(version)
	return ok && major == 4 && minor >= 6
}

// OldNettyOpens are the JVM options the netty 4.0 of clients before 4.9
// needs to start on Java 17 (it reads java.nio.Buffer.address); newer
// clients run the same with them.
var OldNettyOpens = []string{"--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"}

// RunWithClient runs class's main with args in a JVM of its own
// (SoakWorkerJVM's options) on the
// classpath of client version (resolved once per driver through
// Config.ClientClasspathScript) and returns its combined output. The JVM
// is killed when ctx ends or timeout passes; a non-zero exit is an error
// carrying the output.
func (d *Driver) RunWithClient(ctx context.Context, version, class string, args []string, timeout time.Duration) (string, error) {
	cp, err := d.clientClasspath(ctx, version)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	jvm := append(append([]string{}, SoakWorkerJVM...), "-Duser.home="+d.cfg.Dir, "-cp", cp, class)
	out, err := d.oneShotJVM(ctx, append(jvm, args...)...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("javaclient: %s with client %s: %w: %s", class, version, err, truncate(strings.TrimSpace(string(out)), 500))
	}
	return string(out), nil
}

// MQAdminStartupClass is the tools' command line (mqadmin), in every
// version.
const MQAdminStartupClass = "org.apache.rocketmq.tools.command.MQAdminStartup"

// MQAdminWithTools runs one mqadmin command line of the tools of version
// (rocketmq-tools from Maven Central, resolved once per driver through
// Config.ClientClasspathScript) in a JVM of its own, with Config.Home as
// its ROCKETMQ_HOME, and returns what it printed. As with MQAdmin, failure
// shows only in the output; err is about the JVM (killed when ctx ends or
// timeout passes).
func (d *Driver) MQAdminWithTools(ctx context.Context, version string, timeout time.Duration, args ...string) (out, errOut string, err error) {
	cp, err := d.classpath(ctx, version, "tools")
	if err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	jvm := append(append([]string{}, SoakWorkerJVM...), "-Duser.home="+d.cfg.Dir, "-Drocketmq.home.dir="+d.cfg.Home,
		"-cp", cp, MQAdminStartupClass)
	cmd := d.oneShotJVM(ctx, append(jvm, args...)...)
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+d.cfg.Home)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), stderr.String(), fmt.Errorf("javaclient: mqadmin %s of tools %s: %w: %s", args[0], version, err,
			truncate(strings.TrimSpace(stdout.String()+stderr.String()), 500))
	}
	return stdout.String(), stderr.String(), nil
}

// clientClasspath is version's client classpath, resolved on first use.
func (d *Driver) clientClasspath(ctx context.Context, version string) (string, error) {
	return d.classpath(ctx, version, "client")
}

// classpath is the classpath of artifact ("client" or "tools") at
// version, resolved on first use.
func (d *Driver) classpath(ctx context.Context, version, artifact string) (string, error) {
	d.clientsMu.Lock()
	defer d.clientsMu.Unlock()
	key := artifact + " " + version
	if cp, ok := d.clients[key]; ok {
		return cp, nil
	}
	if d.cfg.ClientClasspathScript == "" {
		return "", fmt.Errorf("javaclient: no client-classpath.sh configured for %s %s", artifact, version)
	}
	cp, err := classpathOf(ctx, d.cfg.ClientClasspathScript, version, artifact)
	if err != nil {
		return "", err
	}
	if d.clients == nil {
		d.clients = map[string]string{}
	}
	d.clients[key] = cp
	return cp, nil
}
