package child

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/depcon/depcon/runtime/testgen"
)

// A Binary is a compiled child: the test binary of one package with the
// harness in it.
type Binary struct {
	Path  string // the executable
	Dir   string // the package directory, where the child runs
	Names Names
}

// Build compiles the child of the package in dir (named pkgName) for the
// given subjects, in work, with go test -c -race -overlay. It fails with
// the compiler's output when the package does not build.
func Build(ctx context.Context, work, dir string, subjects []*testgen.Subject) (*Binary, error) {
	if len(subjects) == 0 {
		return nil, fmt.Errorf("no types to test in %s", dir)
	}
	pkg := subjects[0].Pkg
	names := ChooseNames(pkg)
	ov, err := WriteOverlay(work, dir, pkg.Name(), names, subjects)
	if err != nil {
		return nil, fmt.Errorf("writing the overlay for %s: %w", pkg.Path(), err)
	}
	bin := filepath.Join(work, pkg.Name()+".test")
	cmd := command(ctx, "go", "test", "-c", "-race", "-overlay", ov, "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("building the test binary of %s: %w\n%s", pkg.Path(), err,
			strings.TrimSpace(out.String()))
	}
	return &Binary{Path: bin, Dir: dir, Names: names}, nil
}
