// Package testpkgs locates the analyzers' test packages, shared by all
// analyzers under the repository's testdata/src.
package testpkgs

import (
	"path/filepath"
	"runtime"
	"testing"
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
