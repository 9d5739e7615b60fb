package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalsKeepTheReport interrupts depcon test with SIGINT and SIGTERM
// (as timeout(1) does) while it tests: the JSON report of what was found
// so far is printed, the exit status is 128 plus the signal, and the work
// directory is gone.
func TestSignalsKeepTheReport(t *testing.T) {
	bin := depconBin(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(bin, "test", "-json", "-v", "-budget", "60s", "../../testdata/runtime/correct")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stdout strings.Builder
			cmd.Stdout = &stdout
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the testing to begin, then interrupt.
			sc := bufio.NewScanner(stderr)
			var log strings.Builder
			started := false
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "starting child") {
					started = true
					break
				}
			}
			if !started {
				_ = cmd.Process.Kill()
				t.Fatalf("depcon test did not start testing:\n%s", log.String())
			}
			time.Sleep(2 * time.Second)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			go func() {
				for sc.Scan() {
				}
			}()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("depcon test still running 2 minutes after %v", sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("exit: %v, want status %d", err, 128+int(sig))
			}
			var rep struct {
				Stopped string            `json:"stopped"`
				Types   []json.RawMessage `json:"types"`
			}
			if err := json.Unmarshal([]byte(stdout.String()), &rep); err != nil {
				t.Fatalf("no JSON report after %v: %v\n%s", sig, err, stdout.String())
			}
			if !strings.Contains(rep.Stopped, "interrupted") {
				t.Errorf("the report's stopped is %q, want the interruption", rep.Stopped)
			}
			left, _ := filepath.Glob(filepath.Join(tmp, "depcon-test-*"))
			if len(left) > 0 {
				t.Errorf("work directories left: %v", left)
			}
		})
	}
}
