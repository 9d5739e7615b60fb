package child

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reproducers are tests of testdata/victim as a driver would write them.
const reproducers = `package victim

import (
	"os"
	"testing"
	"time"
)

func TestReproPass(t *testing.T) {
	v := NewV()
	if v.Get() != 0 {
		t.Fatal("not zero")
	}
	if err := os.WriteFile("repro.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReproRace(t *testing.T) {
	v := NewV()
	done := make(chan bool)
	go func() {
		v.Inc()
		done <- true
	}()
	v.Inc()
	<-done
}

func TestReproHang(t *testing.T) { time.Sleep(time.Minute) }
`

func TestRunTest(t *testing.T) {
	_, target := loadTarget(t, "testdata/victim", ".")
	files := map[string][]byte{"repro_test.go": []byte(reproducers)}
	ctx := context.Background()
	work := t.TempDir() // one build serves every run
	for _, tc := range []struct {
		run                    string
		timeout                time.Duration
		passed, race, timedOut bool
		code                   int
		output                 string
	}{
		{run: "^TestReproPass$", timeout: time.Minute, passed: true, output: "--- PASS: TestReproPass"},
		{run: "^TestReproRace$", timeout: time.Minute, race: true, code: RaceExit, output: "WARNING: DATA RACE"},
		{run: "^TestReproHang$", timeout: time.Second, timedOut: true, code: 2, output: "test timed out"},
	} {
		res, err := RunTest(ctx, work, target, files, tc.run, tc.timeout, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.run, err)
		}
		if res.Passed != tc.passed || res.Race != tc.race || res.TimedOut != tc.timedOut || res.ExitCode != tc.code ||
			!strings.Contains(res.Output, tc.output) {
			t.Errorf("%s: passed %v race %v timed out %v code %d, want %v %v %v %d and output with %q:\n%s", tc.run,
				res.Passed, res.Race, res.TimedOut, res.ExitCode, tc.passed, tc.race, tc.timedOut, tc.code, tc.output,
				res.Output)
		}
	}
	if _, err := RunTest(ctx, work, target, files, "^TestNothing$", time.Minute, nil); err == nil ||
		!strings.Contains(err.Error(), "no test matches") {
		t.Errorf("a pattern that matches no test: error %v", err)
	}
	if builds, _ := filepath.Glob(filepath.Join(work, "test-*")); len(builds) != 1 {
		t.Errorf("%d builds for one set of files, want 1", len(builds))
	}
	if _, err := os.Stat(filepath.Join(target.Dir, "repro.txt")); err == nil {
		os.Remove(filepath.Join(target.Dir, "repro.txt"))
		t.Errorf("the test wrote in the package directory")
	}
}

func TestRunTestErrors(t *testing.T) {
	_, target := loadTarget(t, "testdata/victim", ".")
	ctx := context.Background()
	_, err := RunTest(ctx, t.TempDir(), target, map[string][]byte{"bad_test.go": []byte("package victim\n\nvar x = undefined\n")},
		".", time.Minute, nil)
	var be *BuildError
	if !errors.As(err, &be) || !strings.Contains(be.Output, "undefined") {
		t.Errorf("a test file that does not compile: error %v, want a BuildError", err)
	}
	for _, name := range []string{"../x_test.go", "x.go", "_x_test.go"} {
		if _, err := RunTest(ctx, t.TempDir(), target, map[string][]byte{name: nil}, ".", time.Minute, nil); err == nil {
			t.Errorf("file name %q accepted", name)
		}
	}
}

func TestHeadTail(t *testing.T) {
	h := &headTail{max: 4}
	for _, s := range []string{"ab", "cdef", "gh", "ijkl", "m"} {
		if n, err := h.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := h.String(), "abcd\n... 5 bytes left out ...\njklm"; got != want {
		t.Errorf("kept %q, want %q", got, want)
	}
	short := &headTail{max: 4}
	_, _ = short.Write([]byte("abcdef"))
	if got := short.String(); got != "abcdef" {
		t.Errorf("kept %q of a short output", got)
	}
}
