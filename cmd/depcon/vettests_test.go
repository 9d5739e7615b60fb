package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestVetWithoutMissingTestDeps vets a module whose test file imports a
// package of a required module that go.sum lacks: depcon vet says so and
// vets the package without its test files, instead of failing on the
// load with no diagnostics.
func TestVetWithoutMissingTestDeps(t *testing.T) {
	bin := depconBin(t)
	dir := writeModule(t, map[string]string{
		"lib.go": lib,
		"lib_test.go": `package lib

import (
	"testing"

	"example.com/absent/testkit"
)

func TestPair(t *testing.T) { testkit.Check(t) }
`,
	})
	gomod := "module example.com/m\n\ngo 1.26\n\nrequire example.com/absent v1.0.0\n"
	if err := os.WriteFile(dir+"/go.mod", []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if !strings.Contains(string(out), "vetting without test files") {
		t.Fatalf("depcon vet: %v\n%s\nwant the retry without test files", err, out)
	}
	if err != nil {
		t.Errorf("depcon vet after the retry: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "missing go.sum entry") {
		t.Errorf("the load error is still shown:\n%s", out)
	}
}
