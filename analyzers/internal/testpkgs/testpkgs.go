// Package testpkgs loads the analyzers' test packages by import path.
//
// It finds them in every analyzer's testdata and in the repository's.
//
// Each analyzer keeps the packages its analysistest cases run on in its
// own testdata/src, which analysistest.TestData returns. The repository's
// testdata/src holds those that the cmd/depcon and runtime tests load too.
// Tests that run several analyzers over the packages of others (the plan
// against the diagnostics, the facts of the reduced suite) load them with
// Config, whose GOPATH lists all these roots.
package testpkgs

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// analyzers returns the absolute path of the repository's analyzers
// directory.
func analyzers(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Dir returns the absolute path of the repository's testdata directory,
// the GOPATH-like root of the test packages that commands and the
// runtime load too.
func Dir(t testing.TB) string {
	t.Helper()
	return filepath.Join(analyzers(t), "..", "testdata")
}

// Roots returns the GOPATH-like roots of all test packages: Dir, then
// the testdata directory of each analyzer that has one, by name.
func Roots(t testing.TB) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(analyzers(t), "*", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	roots := []string{Dir(t)}
	for _, d := range dirs {
		roots = append(roots, filepath.Dir(d))
	}
	return roots
}

// Config returns the configuration that loads the test packages of all
// Roots by their import paths, as analysistest.Run does for one root:
// GOPATH mode, with the module proxy off and the environment's GOPATH,
// GO111MODULE and GOFLAGS left out. An import path found under several
// roots is the first root's; TestCopiesAgree checks that such copies are
// the same files. Its Mode is packages.LoadAllSyntax.
func Config(t testing.TB) *packages.Config {
	t.Helper()
	roots := Roots(t)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOPATH" && k != "GO111MODULE" && k != "GOFLAGS" {
			env = append(env, kv)
		}
	}
	return &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  roots[0],
		Env:  append(env, "GOPATH="+strings.Join(roots, string(os.PathListSeparator)), "GO111MODULE=off", "GOPROXY=off"),
	}
}
