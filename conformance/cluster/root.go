package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// RepoRoot walks up from the working directory to the root of the sputnik
// module, where bin/ and the Java projects live.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/sputnikmq/sputnik\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the sputnik repository (no go.mod of github.com/sputnikmq/sputnik above %s)", dir)
		}
		dir = parent
	}
}

// ClientClasspathScript is the repository's conformance/java/client-classpath.sh,
// which prints a classpath with another version of the Java client.
func ClientClasspathScript() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "conformance", "java", "client-classpath.sh"), nil
}
