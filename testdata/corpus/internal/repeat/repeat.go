// Package repeat measures how many plain repetitions of a method pair it
// takes to expose a corpus subject's bug: the two calls in two goroutines
// released together once both have started, the way depcon's stress mode
// runs a test. The subjects' repeat_test.go files call it; see the corpus
// README ("Hard subjects").
package repeat

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// MaxRuns is where a trial stops and counts the bug as not exposed.
const MaxRuns = 200000

// HardOnly skips unless DEPCON_HARD=1.
func HardOnly(t *testing.T) {
	t.Helper()
	if os.Getenv("DEPCON_HARD") != "1" {
		t.Skip("set DEPCON_HARD=1 to run")
	}
}

// trials is the number of trials, DEPCON_TRIALS or 5.
func trials() int {
	if n, err := strconv.Atoi(os.Getenv("DEPCON_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 5
}

// A Outcome is what one run of a pair showed.
type Outcome struct {
	Panicked any  // the first panic recovered in either goroutine
	Blocked  bool // the two goroutines had not both returned after 1 s
}

// Pair calls f and g in two goroutines released together by a
// channel barrier once both have started, the way depcon's stress mode
// does.
func Pair(f, g func()) Outcome {
	var ready sync.WaitGroup
	start := make(chan struct{})
	done := make(chan any, 2)
	ready.Add(2)
	for _, fn := range []func(){f, g} {
		go func() {
			defer func() { done <- recover() }()
			ready.Done()
			<-start
			fn()
		}()
	}
	ready.Wait()
	close(start)
	var o Outcome
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for range 2 {
		select {
		case r := <-done:
			if r != nil && o.Panicked == nil {
				o.Panicked = r
			}
		case <-timer.C:
			o.Blocked = true
			return o
		}
	}
	return o
}

// Measure runs trials of at most MaxRuns runs each; run does
// one run on fresh objects and reports whether it exposed the bug. It
// prints one line per trial and a summary line starting with REPEAT.
func Measure(t *testing.T, name, kind string, run func() bool) {
	var counts []int
	for trial := range trials() {
		n := 0
		for i := 1; i <= MaxRuns; i++ {
			if run() {
				n = i
				break
			}
		}
		t.Logf("%s trial %d: %s", name, trial+1, runs(n))
		counts = append(counts, n)
	}
	summary(t, name, kind, counts)
}

// MeasureRace is Measure for a data race: each trial is a
// child process (this test binary, built with -race) that stops at the
// first report (GORACE=halt_on_error=1) and keeps the number of the
// current run in a file mapped into memory, so the parent can tell which
// run raced.
func MeasureRace(t *testing.T, name string, run func()) {
	if path := os.Getenv("DEPCON_REPEAT_CHILD"); path != "" {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := syscall.Mmap(int(f.Fd()), 0, 8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= MaxRuns; i++ {
			binary.LittleEndian.PutUint64(m, uint64(i))
			run()
		}
		return
	}
	var counts []int
	for trial := range trials() {
		path := filepath.Join(t.TempDir(), "run")
		if err := os.WriteFile(path, make([]byte, 8), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "DEPCON_REPEAT_CHILD="+path, "GORACE=halt_on_error=1 exitcode=66")
		out, err := cmd.CombinedOutput()
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		n := 0
		if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 66 && bytes.Contains(out, []byte("WARNING: DATA RACE")) {
			n = int(binary.LittleEndian.Uint64(b))
		} else if err != nil {
			t.Fatalf("%s trial %d: %v\n%s", name, trial+1, err, out)
		}
		t.Logf("%s trial %d: %s", name, trial+1, runs(n))
		counts = append(counts, n)
	}
	summary(t, name, "race", counts)
}

// runs renders a trial's count; 0 means not exposed.
func runs(n int) string {
	if n == 0 {
		return fmt.Sprintf("not exposed in %d runs", MaxRuns)
	}
	return fmt.Sprintf("exposed at run %d", n)
}

// summary prints the mean number of runs to expose the bug; trials
// that did not expose it count as MaxRuns and make the mean a lower
// bound, printed as "> N".
func summary(t *testing.T, name, kind string, counts []int) {
	sum, exposed := 0, 0
	for _, n := range counts {
		if n == 0 {
			n = MaxRuns
		} else {
			exposed++
		}
		sum += n
	}
	mean := fmt.Sprint(sum / len(counts))
	if exposed < len(counts) {
		mean = "> " + mean
	}
	fmt.Printf("REPEAT\t%s\t%s\t%s\t%d/%d\n", name, kind, mean, exposed, len(counts))
}

// ForcedPanic is a TestForced of a panicking subject: forced runs the
// failing order and returns what it recovered, which must not be nil.
func ForcedPanic(t *testing.T, forced func() any) {
	t.Helper()
	HardOnly(t)
	r := forced()
	if r == nil {
		t.Fatal("no panic")
	}
	t.Logf("panic: %v", r)
}

// ForcedRace is a TestForced of a racy subject: it runs the calling test
// again in a child process of the test binary (built with -race), where
// forced runs the racing order, and fails unless the race detector
// reported a race there.
func ForcedRace(t *testing.T, forced func()) {
	t.Helper()
	HardOnly(t)
	if os.Getenv("DEPCON_FORCED_CHILD") == "1" {
		forced()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DEPCON_FORCED_CHILD=1", "GORACE=halt_on_error=1 exitcode=66")
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 66 || !bytes.Contains(out, []byte("WARNING: DATA RACE")) {
		t.Fatalf("no data race reported (build with -race):\n%s", out)
	}
	t.Logf("%s", out)
}
