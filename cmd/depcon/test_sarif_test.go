package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/sarif/sariftest"
)

// TestTestSARIF runs depcon test -sarif on a racy package and checks that
// the log is valid SARIF 2.1.0 with a result for the race.
func TestTestSARIF(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "test.sarif")
	cmd := exec.Command(depconBin(t), "test", "-budget", "5s", "-first", "-sarif", out, "../../testdata/runtime/buffered")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	b, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit status %d (%v), want 1\n%s", code, err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("invalid SARIF: %v\n%s", err, data)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 || !strings.HasPrefix(log.Runs[0].Results[0].RuleID, "test/") {
		t.Errorf("runs %+v, want one run with a test/ result", log.Runs)
	}
}
