package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
			// Stress tests never saturate: the run lasts its budget, and
			// the signal comes while it tests.
			cmd := exec.Command(bin, "test", "-json", "-v", "-budget", "60s", "-sched", "stress", "../../testdata/runtime/correct")
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
			if want := "interrupted (" + signalName(sig) + ")"; rep.Stopped != want {
				t.Errorf("the report's stopped is %q, want %q", rep.Stopped, want)
			}
			left, _ := filepath.Glob(filepath.Join(tmp, "depcon-test-*"))
			if len(left) > 0 {
				t.Errorf("work directories left: %v", left)
			}
		})
	}
}

// TestInterrupt runs depcon test, interrupts it, and checks that it exits
// at once without leaving a child behind. It runs before the parallel
// tests, so that the child it waits for is its own.
func TestInterrupt(t *testing.T) {
	bin := depconBin(t)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "test", "-budget", "60s", "-pairs", "all", "../../testdata/runtime/correct")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the child to run.
	deadline := time.Now().Add(60 * time.Second)
	for !running("correct.test") {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no child started\n%s", stderr.Bytes())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	timer := time.AfterFunc(10*time.Second, func() { once.Do(func() { _ = cmd.Process.Kill() }) })
	err := cmd.Wait()
	timer.Stop()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit status %d (%v), want 130 after an interrupt\n%s", code, err, stderr.Bytes())
	}
	noLeftovers(t)
}

// running reports whether a process runs the binary bin.
func running(bin string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, _ := os.ReadFile(p)
		argv0, _, _ := bytes.Cut(b, []byte{0})
		if filepath.Base(string(argv0)) == bin {
			return true
		}
	}
	return false
}

// TestConfirmSignal ends depcon vet -confirm with SIGTERM once its tests
// run: it exits 143, says so, and still prints the diagnostics.
func TestConfirmSignal(t *testing.T) {
	t.Parallel()
	// A diagnostic no test confirms (the inversion is unreachable through
	// the API), with slow calls: the testing goes on.
	dir := writeModule(t, map[string]string{"slow/slow.go": `package slow

import (
	"sync"
	"time"
)

type Ledger struct {
	a, b     sync.Mutex
	x, y     int
	reversed bool
}

func NewLedger() *Ledger { return &Ledger{x: 100} }

func (l *Ledger) Move() {
	time.Sleep(100 * time.Millisecond)
	l.a.Lock()
	defer l.a.Unlock()
	l.b.Lock()
	l.x--
	l.y++
	l.b.Unlock()
}

func (l *Ledger) Back() {
	time.Sleep(100 * time.Millisecond)
	if !l.reversed {
		return
	}
	l.b.Lock()
	defer l.b.Unlock()
	l.a.Lock()
	l.x++
	l.y--
	l.a.Unlock()
}
`})
	cmd := exec.Command(depconBin(t), "vet", "-confirm", "-v", "-budget", "60s", "./slow")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stdout strings.Builder
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
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
		t.Fatalf("depcon vet -confirm did not start testing:\n%s", log.String())
	}
	time.Sleep(time.Second)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	var once sync.Once
	timer := time.AfterFunc(2*time.Minute, func() { once.Do(func() { _ = cmd.Process.Kill() }) })
	err = cmd.Wait()
	timer.Stop()
	if code := cmd.ProcessState.ExitCode(); code != exitTerminate {
		t.Errorf("exit status %d (%v), want 143 after SIGTERM\n%s", code, err, log.String())
	}
	if !strings.Contains(log.String(), "depcon vet: interrupted (SIGTERM)") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", log.String())
	}
	if !strings.Contains(stdout.String(), "slow.go:") {
		t.Errorf("no diagnostic printed:\n%s", stdout.String())
	}
	noLeftovers(t)
}
