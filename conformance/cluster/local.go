package cluster

import (
	"context"
	"os"
	"path/filepath"
)

// LocalOptions say where a harness's launcher finds the servers and puts
// their node directories.
type LocalOptions struct {
	// Bin holds Sputnik's mqnamesrv and mqbroker ("": <repo>/bin).
	Bin string
	// Classpath is a classpath.sh or a file holding the classpath ("":
	// <repo>/conformance/java/classpath.sh); read only with NeedJava.
	Classpath string
	NeedJava  bool
	// RunDir holds the node directories ("": a new temporary directory
	// named TempPrefix followed by random characters).
	RunDir     string
	TempPrefix string
}

// NewLocalLauncher returns a launcher on this machine's default ports,
// with absolute paths (servers run from their node directories).
func NewLocalLauncher(ctx context.Context, o LocalOptions) (*Launcher, error) {
	var root string
	if o.Bin == "" || o.NeedJava && o.Classpath == "" {
		var err error
		if root, err = RepoRoot(); err != nil {
			return nil, err
		}
	}
	if o.Bin == "" {
		o.Bin = filepath.Join(root, "bin")
	}
	if o.Classpath == "" {
		o.Classpath = filepath.Join(root, "conformance", "java", "classpath.sh")
	}
	var err error
	if o.RunDir == "" {
		o.RunDir, err = os.MkdirTemp("", o.TempPrefix)
	} else {
		err = os.MkdirAll(o.RunDir, 0o755)
	}
	if err != nil {
		return nil, err
	}
	if o.Bin, err = filepath.Abs(o.Bin); err != nil {
		return nil, err
	}
	if o.RunDir, err = filepath.Abs(o.RunDir); err != nil {
		return nil, err
	}
	l := &Launcher{RunDir: o.RunDir, SputnikBin: o.Bin, Ports: DefaultPorts()}
	if o.NeedJava {
		if l.Java.Classpath, err = JavaClasspath(ctx, o.Classpath); err != nil {
			return nil, err
		}
	}
	return l, nil
}
