package child

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/depcon/depcon/runtime/isolate"
	"github.com/depcon/depcon/runtime/testgen"
)

// A Binary is a compiled child: the test binary of one package with the
// harness in it.
type Binary struct {
	Path  string // the executable
	Dir   string // the package directory it was built from: the user's, or a copy
	Names Names
	// Rewritten reports whether the package's files were replaced by
	// their rewriting (see BuildWith); RewriteErr says why not when a
	// rewriting was asked for.
	Rewritten  bool
	RewriteErr error
	// Jail confines the processes run from the binary; nil means
	// isolate.New's default policy.
	Jail *isolate.Jail
	work string // where the sandboxes of its processes are made
}

// jailOrDefault returns b.Jail, or the default jail.
func (b *Binary) jailOrDefault() (*isolate.Jail, error) {
	if b.Jail != nil {
		return b.Jail, nil
	}
	return defaultJail()
}

// defaultJail is the jail of the default policy, made once.
var defaultJail = sync.OnceValues(func() (*isolate.Jail, error) { return isolate.New(isolate.Policy{}) })

// A Rewriter returns files of the package rewritten (by base name) to
// call the harness's hooks, given the names the harness gets.
type Rewriter func(Names) (map[string][]byte, error)

// A BuildError is a package, or a package with added test files, that
// the go command could not compile.
type BuildError struct {
	Pkg    string // the import path
	Output string // what the go command said
	Err    error  // how it exited
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("building the test binary of %s: %v\n%s", e.Pkg, e.Err, e.Output)
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build compiles the child of target for the given subjects, in a new
// directory under work, with go test -c -race -vet=off and the harness
// added through an overlay. When the package directory cannot take an
// overlay (see placeTarget), the build is on a copy of the package's
// module, made under work and shared with later builds and RunTest calls
// given the same work. The package's own test files are left out. Build
// fails with a *BuildError when the package does not build.
func Build(ctx context.Context, work string, target Target, subjects []*testgen.Subject) (*Binary, error) {
	return BuildWith(ctx, work, target, subjects, nil)
}

// BuildWith is Build with the package's files replaced by the files
// rewrite returns. When the package does not build so, it is built
// without them and RewriteErr says why.
func BuildWith(ctx context.Context, work string, target Target, subjects []*testgen.Subject, rewrite Rewriter) (*Binary,
	error) {
	if len(subjects) == 0 {
		return nil, fmt.Errorf("no types to test in %s", target.Dir)
	}
	pkg := subjects[0].Pkg
	if target.Path == "" {
		target.Path = pkg.Path()
	}
	names := ChooseNames(pkg)
	files, err := HarnessFiles(pkg.Name(), names, subjects)
	if err != nil {
		return nil, fmt.Errorf("writing the harness for %s: %w", pkg.Path(), err)
	}
	dir, err := os.MkdirTemp(work, "build-")
	if err != nil {
		return nil, fmt.Errorf("building the child of %s: %w", pkg.Path(), err)
	}
	bin := filepath.Join(dir, pkg.Name()+".test")
	b := &Binary{Path: bin, Names: names, work: dir}
	if rewrite != nil {
		rewritten, err := rewrite(names)
		if err == nil {
			with := maps.Clone(files)
			maps.Copy(with, rewritten)
			if b.Dir, err = compile(ctx, work, dir, target, with, bin); err == nil {
				b.Rewritten = true
				return b, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		b.RewriteErr = err
	}
	if b.Dir, err = compile(ctx, work, dir, target, files, bin); err != nil {
		return nil, err
	}
	return b, nil
}

// compile places target (see placeTarget; copies of modules go in
// shared, the files of this build in work), adds files to it and builds
// its test binary bin with the race detector. It returns the package
// directory it built.
func compile(ctx context.Context, shared, work string, target Target, files map[string][]byte, bin string) (string,
	error) {
	// The go command wants absolute paths in GOWORK and go.work files.
	shared, err := filepath.Abs(shared)
	if err != nil {
		return "", fmt.Errorf("preparing the build of %s: %w", target.Path, err)
	}
	if work, err = filepath.Abs(work); err != nil {
		return "", fmt.Errorf("preparing the build of %s: %w", target.Path, err)
	}
	s, err := placeTarget(ctx, shared, work, target)
	if err != nil {
		return "", fmt.Errorf("preparing the build of %s: %w", target.Path, err)
	}
	ov, err := WriteOverlay(work, s.dir, files)
	if err != nil {
		return "", fmt.Errorf("package %s: %w", target.Path, err)
	}
	out, err := goTest(ctx, s, ov, bin, nil)
	if err != nil && ctx.Err() == nil && s.modRetry && buildFailedForModules(out) {
		out, err = goTest(ctx, s, ov, bin, []string{"GOFLAGS=" + strings.TrimSpace(s.goflags+" -mod=mod")})
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &BuildError{Pkg: target.Path, Output: strings.TrimSpace(out), Err: err}
	}
	return s.dir, nil
}

// goTest runs go test -c at site s and returns its output.
func goTest(ctx context.Context, s *site, overlay, bin string, env []string) (string, error) {
	cmd := isolate.Toolchain(ctx, "go", "test", "-c", "-race", "-vet=off", "-overlay", overlay, "-o", bin, s.pattern)
	cmd.Dir = s.run
	cmd.Env = append(append(append(os.Environ(), "CGO_ENABLED=1"), s.env...), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		if _, serr := os.Stat(bin); serr != nil {
			err = errors.New("go test -c wrote no binary")
		}
	}
	return out.String(), err
}
