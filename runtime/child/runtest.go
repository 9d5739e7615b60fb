package child

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/depcon/depcon/runtime/isolate"
)

// A TestResult is what became of a test run by RunTest.
type TestResult struct {
	Passed   bool // the test binary exited with status 0 in time
	ExitCode int  // its exit status, -1 when a signal ended it
	TimedOut bool // the test's timeout fired, or it was killed after it
	Race     bool // the race detector reported a data race
	// OutOfMemory reports that the isolation's memory bound killed it.
	OutOfMemory bool
	// Output is the standard output and error, interleaved: its first and
	// last OutputCap/2 bytes when it is longer than OutputCap.
	Output string
}

// OutputCap bounds the output RunTest keeps of a test.
const OutputCap = 1 << 20

// killGrace is how long a test may outlive its timeout, for the testing
// package to report it, before it is killed.
const killGrace = 5 * time.Second

// RunTest runs the tests matching the regular expression run in the
// given test files (name to source, each a _test.go file in the
// package's own package clause) added to the package target, with the
// race detector, in a sandbox like a child's, in jail (nil for the
// default one). The package's own test
// files are left out. It builds in a directory under work, which the
// caller removes, and reuses the binary of an earlier call with the same
// work, target and files. A test that does not end within timeout is stopped and
// fails with TimedOut set. RunTest fails with a *BuildError when the
// files do not compile, and with an error when run matches no test.
func RunTest(ctx context.Context, work string, target Target, files map[string][]byte, run string,
	timeout time.Duration, jail *isolate.Jail) (*TestResult, error) {
	if len(files) == 0 {
		return nil, errors.New("running a test: no test files")
	}
	for name := range files {
		if name != filepath.Base(name) || !strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") ||
			strings.HasPrefix(name, "_") {
			return nil, fmt.Errorf("running a test: %q is not the name of a test file", name)
		}
	}
	if timeout <= 0 {
		return nil, fmt.Errorf("running a test: timeout %v", timeout)
	}
	if jail == nil {
		var err error
		if jail, err = defaultJail(); err != nil {
			return nil, err
		}
	}
	bin, err := testBinary(ctx, work, target, files)
	if err != nil {
		return nil, err
	}
	res, err := runTestBinary(ctx, jail, bin, filepath.Dir(bin), run, timeout)
	if err != nil {
		return nil, fmt.Errorf("running a test of %s: %w", target.Path, err)
	}
	return res, nil
}

// runTestBinary runs the tests matching run of the test binary bin in
// jail, in a sandbox made in parent.
func runTestBinary(ctx context.Context, jail *isolate.Jail, bin, parent, run string, timeout time.Duration) (*TestResult,
	error) {
	box, err := newSandbox(parent)
	if err != nil {
		return nil, err
	}
	defer func() { _ = box.remove() }()
	runCtx, cancel := context.WithTimeout(ctx, timeout+killGrace)
	defer cancel()
	jc := jail.Command(runCtx, box.dir, bin, "-test.run="+run, "-test.count=1", "-test.v=true",
		"-test.timeout="+timeout.String())
	cmd := jc.Cmd
	cmd.Dir = box.dir
	cmd.Env = append(append(os.Environ(), runEnv...), box.env()...)
	out := &headTail{max: OutputCap / 2}
	cmd.Stdout, cmd.Stderr = out, out
	err = jc.Run()
	jailed := jc.Release() // what the test started dies with it
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if cmd.ProcessState == nil {
		return nil, fmt.Errorf("running %s: %w", bin, err)
	}
	res := &TestResult{ExitCode: cmd.ProcessState.ExitCode(), Output: out.String(), OutOfMemory: jailed.OutOfMemory}
	res.TimedOut = runCtx.Err() != nil || strings.Contains(res.Output, "panic: test timed out after")
	res.Race = strings.Contains(res.Output, "WARNING: DATA RACE")
	res.Passed = cmd.ProcessState.Success() && !res.TimedOut
	if res.Passed && strings.Contains(res.Output, "testing: warning: no tests to run") {
		return nil, fmt.Errorf("no test matches %q", run)
	}
	return res, nil
}

// testBinary returns the test binary of target with files added, built
// in work/test-KEY, KEY a digest of target and files, unless an earlier
// call built it there.
func testBinary(ctx context.Context, work string, target Target, files map[string][]byte) (string, error) {
	h := sha256.New()
	mod := Module{}
	if target.Module != nil {
		mod = *target.Module
	}
	fmt.Fprintf(h, "%q %q %q %+v\n", target.Dir, target.Path, target.From, mod)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%q %d\n", name, len(files[name]))
		_, _ = h.Write(files[name])
	}
	dir := filepath.Join(work, fmt.Sprintf("test-%x", h.Sum(nil)[:12]))
	bin := filepath.Join(dir, "reproducer.test")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	tmp, err := os.MkdirTemp(work, "build-")
	if err != nil {
		return "", fmt.Errorf("building a test of %s: %w", target.Path, err)
	}
	if _, err := compile(ctx, work, tmp, target, files, filepath.Join(tmp, "reproducer.test")); err != nil {
		_ = os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Built meanwhile by another call: use that one.
		_ = os.RemoveAll(tmp)
		if _, serr := os.Stat(bin); serr != nil {
			return "", fmt.Errorf("building a test of %s: %w", target.Path, err)
		}
	}
	return bin, nil
}

// A headTail keeps the first and the last max bytes written to it.
type headTail struct {
	mu         sync.Mutex
	head, tail []byte
	dropped    int64
	max        int
}

func (h *headTail) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(b)
	if room := h.max - len(h.head); room > 0 {
		k := min(room, len(b))
		h.head = append(h.head, b[:k]...)
		b = b[k:]
	}
	h.tail = append(h.tail, b...)
	if extra := len(h.tail) - h.max; extra > 0 {
		h.dropped += int64(extra)
		h.tail = append(h.tail[:0], h.tail[extra:]...)
	}
	return n, nil
}

func (h *headTail) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dropped == 0 {
		return string(h.head) + string(h.tail)
	}
	return fmt.Sprintf("%s\n... %d bytes left out ...\n%s", h.head, h.dropped, h.tail)
}
