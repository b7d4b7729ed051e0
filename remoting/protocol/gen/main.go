// Command gen writes the generated Go of package protocol (zz_codes.go,
// zz_headers.go) from spec.txt. It runs from `go generate` in
// remoting/protocol:
//
//	go run ./gen [-spec spec.txt] [-out .]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sputnikmq/sputnik/remoting/protocol/internal/spec"
)

func main() {
	specPath := flag.String("spec", "spec.txt", "the protocol table to read")
	out := flag.String("out", ".", "the directory to write the generated files to")
	flag.Parse()
	if err := run(*specPath, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(specPath, out string) error {
	files, err := spec.GenerateFile(specPath)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(out, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
