package main

import (
	"os"
	"os/exec"
	"testing"
)

// TestCrossBuild builds the whole module for Windows and macOS: depcon
// vet, pairs and lsp must work there, and only depcon test needs Linux's
// isolation (it refuses to run elsewhere without -unsafe-no-isolation).
func TestCrossBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module twice")
	}
	for _, goos := range []string{"windows", "darwin"} {
		t.Run(goos, func(t *testing.T) {
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = "../.."
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s go build ./...: %v\n%s", goos, err, out)
			}
		})
	}
}
