package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/report"
)

// TestVetConfirm runs depcon vet -confirm on a package with a diagnostic
// a generated test reproduces, one whose statements no test reaches, and
// one no method pair concerns; each gets its own status, and the text
// output has one line per diagnostic, as go vet's.
func TestVetConfirm(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(depconBin(t), "vet", "-confirm", "-budget", "5s", "-json", "../../testdata/runtime/confirm")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != exitFindings {
		t.Fatalf("exit status %d (%v), want 1\n%s%s", code, err, out, stderr.String())
	}
	var diags []*report.DiagnosticResult
	if err := json.Unmarshal(out, &diags); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string]string{ // analyzer → status
		"unguarded": report.DiagConfirmed,
		"lockorder": report.DiagNotReached,
		"lockleak":  report.DiagNoPair,
	}
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %s", len(diags), len(want), out)
	}
	for _, d := range diags {
		if d.Status != want[d.Analyzer] {
			t.Errorf("%s (%s): %s, want %s", d.Pos, d.Analyzer, d, want[d.Analyzer])
		}
	}
	for _, d := range diags {
		if d.Analyzer == "unguarded" && !strings.HasPrefix(d.By, "race, Add ∥ ") {
			t.Errorf("confirmed by %q, want a race of Add", d.By)
		}
	}
}

func TestWantsConfirm(t *testing.T) {
	for args, want := range map[string]bool{
		"-confirm ./...":               true,
		"-budget 5s -confirm ./...":    true,
		"-budget=5s -v -confirm ./...": true,
		"--confirm=true ./...":         true,
		"-confirm=false ./...":         false,
		"./... -confirm":               false,
		"-test=false -confirm ./... ":  true,
	} {
		if got := wantsConfirm(strings.Fields(args)); got != want {
			t.Errorf("wantsConfirm(%q) = %v, want %v", args, got, want)
		}
	}
}
