package child

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/runtime/isolate"
)

// A Target is the package a child or a test is built from.
type Target struct {
	// Dir is the package directory.
	Dir string
	// Path is the import path of the package.
	Path string
	// Module is the module that provides the package, nil when the
	// package was loaded outside module mode.
	Module *Module
	// From is the directory the package was loaded from ("" for the
	// current directory): the go command run there selects the user's
	// main module or workspace, hence the versions of the dependencies.
	From string
}

// A Module is what the go command tells of the module of a package (see
// go/packages' Module).
type Module struct {
	Path      string // module path
	Dir       string // directory holding its files
	GoMod     string // the go.mod file the go command uses for it
	GoVersion string // its go line, "" when it has none
	Main      bool   // it is a main module of the build
}

// ModuleOf returns the module information of m, nil when m is nil.
func ModuleOf(m *packages.Module) *Module {
	if m == nil {
		return nil
	}
	mod := &Module{Path: m.Path, Dir: m.Dir, GoMod: m.GoMod, GoVersion: m.GoVersion, Main: m.Main}
	if r := m.Replace; r != nil && mod.Dir == "" {
		mod.Dir, mod.GoMod = r.Dir, r.GoMod
		if mod.GoVersion == "" {
			mod.GoVersion = r.GoVersion
		}
	}
	return mod
}

// goEnv is the part of the go command's environment the builds depend on.
type goEnv struct {
	GOMODCACHE string
	GOMOD      string
	GOWORK     string
	GOVERSION  string
	GOFLAGS    string
}

// readGoEnv runs go env in dir.
func readGoEnv(ctx context.Context, dir string) (*goEnv, error) {
	out, err := goOutput(ctx, dir, nil, "env", "-json", "GOMODCACHE", "GOMOD", "GOWORK", "GOVERSION", "GOFLAGS")
	if err != nil {
		return nil, err
	}
	var e goEnv
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, fmt.Errorf("reading the output of go env: %w", err)
	}
	return &e, nil
}

// hasMainModule reports whether the go command runs in module mode with
// a main module or a workspace.
func (e *goEnv) hasMainModule() bool {
	return e.GOWORK != "" && e.GOWORK != "off" || e.GOMOD != "" && e.GOMOD != os.DevNull
}

// goOutput runs the go command with args in dir, with env added to the
// environment, and returns its standard output; its error tells the
// standard error.
func goOutput(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := isolate.Toolchain(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
