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
	cmd := exec.CommandContext(ctx, script, version)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w (needs java and mvn; see conformance/README.md)", script, version, err)
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

// clientClasspath is version's classpath, resolved on first use.
func (d *Driver) clientClasspath(ctx context.Context, version string) (string, error) {
	d.clientsMu.Lock()
	defer d.clientsMu.Unlock()
	if cp, ok := d.clients[version]; ok {
		return cp, nil
	}
	if d.cfg.ClientClasspathScript == "" {
		return "", fmt.Errorf("javaclient: no client-classpath.sh configured for client %s", version)
	}
	cp, err := ClientClasspath(ctx, d.cfg.ClientClasspathScript, version)
	if err != nil {
		return "", err
	}
	if d.clients == nil {
		d.clients = map[string]string{}
	}
	d.clients[version] = cp
	return cp, nil
}
