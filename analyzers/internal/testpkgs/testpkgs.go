// Package testpkgs locates the analyzers' test packages, shared by all
// analyzers under the repository's testdata/src.
package testpkgs

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Dir returns the absolute path of the repository's testdata directory,
// the GOPATH-like root analysistest.Run expects.
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}

// Config returns the configuration that loads the test packages by their
// import paths, as analysistest.Run does: GOPATH mode rooted at Dir, with
// the module proxy off and the environment's GOPATH, GO111MODULE and
// GOFLAGS left out. Its Mode is packages.LoadAllSyntax.
func Config(t testing.TB) *packages.Config {
	t.Helper()
	dir := Dir(t)
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOPATH" && k != "GO111MODULE" && k != "GOFLAGS" {
			env = append(env, kv)
		}
	}
	return &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(env, "GOPATH="+dir, "GO111MODULE=off", "GOPROXY=off"),
	}
}
