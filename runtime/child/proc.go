package child

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/isolate"
)

// RaceExit is the exit status of a child that the race detector stopped.
const RaceExit = 66

// A Proc is a running child. It serves one request at a time.
type Proc struct {
	cmd    *isolate.Cmd
	stdin  io.WriteCloser
	msgs   chan harness.Message
	stderr *capture
	exited chan struct{}   // closed when the process has been waited for
	err    error           // from Wait, set before exited is closed
	box    *sandbox        // its working directory, removed once it is gone
	jailed isolate.Outcome // what the jail saw of it, set before exited is closed
	// board is the step board the child writes its steps to (see
	// harness.StepFDEnv), an unlinked file, closed once by Kill.
	board     *os.File
	closeOnce sync.Once
}

// Start starts the child b in b's jail (see isolate), in a sandbox of
// its own: a fresh working directory, also its temporary and home
// directory, the one directory it may write, removed when the child is
// gone.
func Start(b *Binary) (*Proc, error) {
	jail, err := b.jailOrDefault()
	if err != nil {
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	box, err := newSandbox(b.sandboxParent())
	if err != nil {
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	cmd := jail.Command(context.Background(), box.dir, b.Path, "-test.run=^"+b.Names.Test+"$", "-test.count=1")
	cmd.Cmd.Dir = box.dir
	cmd.Cmd.Env = append(append(os.Environ(), runEnv...), box.env()...)
	r, w, err := os.Pipe()
	if err != nil {
		_ = box.remove()
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	defer w.Close()
	board, err := newBoard(b.sandboxParent())
	if err != nil {
		r.Close()
		_ = box.remove()
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	cmd.Cmd.ExtraFiles = []*os.File{w, board} // file descriptors 3 and 4
	cmd.Cmd.Env = append(cmd.Cmd.Env, harness.StepFDEnv+"=4")
	stdin, err := cmd.Cmd.StdinPipe()
	if err != nil {
		r.Close()
		board.Close()
		_ = box.remove()
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	p := &Proc{cmd: cmd, stdin: stdin, msgs: make(chan harness.Message, 16),
		stderr: &capture{max: 1 << 20}, exited: make(chan struct{}), box: box, board: board}
	cmd.Cmd.Stdout = io.Discard
	cmd.Cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		r.Close()
		board.Close()
		_ = box.remove()
		return nil, fmt.Errorf("starting the child: %w", err)
	}
	go p.read(r)
	go func() {
		p.err = cmd.Wait()
		// Processes the child started die with it.
		p.jailed = cmd.Release()
		_ = box.remove()
		close(p.exited)
	}()
	return p, nil
}

// newBoard makes a step board in dir: a file unlinked at once, which
// lives while the driver and the child hold it.
func newBoard(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "step-")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readBoard returns the step written on board, "" for none.
func readBoard(board *os.File) string {
	var rec [harness.StepRecord]byte
	n, _ := board.ReadAt(rec[:], 0)
	step, _, _ := strings.Cut(string(rec[:n]), "\n")
	return strings.TrimRight(step, "\x00")
}

// clearBoard wipes the step board before a request, so that a death
// before the request's first step is not told at the last request's.
func (p *Proc) clearBoard() {
	var zero [harness.StepRecord]byte
	_, _ = p.board.WriteAt(zero[:], 0) // fails only once the board is closed
}

// runEnv is added to the environment of every process run from a child
// binary: the race detector stops the process at the first race, with
// RaceExit, and a crash prints every goroutine.
var runEnv = []string{
	fmt.Sprintf("GORACE=halt_on_error=1 exitcode=%d atexit_sleep_ms=0", RaceExit),
	"GOTRACEBACK=all",
}

// sandboxParent is the directory the sandboxes of b's processes are made
// in.
func (b *Binary) sandboxParent() string {
	if b.work != "" {
		return b.work
	}
	return filepath.Dir(b.Path)
}

// read forwards the messages of the child until its descriptor 3 closes.
func (p *Proc) read(r *os.File) {
	defer r.Close()
	defer close(p.msgs)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var m harness.Message
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			p.msgs <- m
		}
	}
}

// Kill kills the child's process group and waits for it. A child that
// has exited had its group killed then.
func (p *Proc) Kill() {
	p.kill()
	p.closeBoard()
}

func (p *Proc) closeBoard() { p.closeOnce.Do(func() { p.board.Close() }) }

// kill kills the child's process group and waits for it.
func (p *Proc) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Kill()
	<-p.exited
}

// A Reply is what became of a request.
type Reply struct {
	// Result is the child's answer, nil when it died or was killed first.
	Result *harness.Message
	// Step is the last sequential step the child announced.
	Step string
	// Death, when Result is nil, says how the child ended.
	Death *Death
}

// A Death is how a child ended without answering.
type Death struct {
	Code   int    // exit status, -1 for a signal
	Kind   string // DeathRace, DeathFatal, DeathPanic or DeathExit
	Msg    string // "concurrent map writes", the panic value, "exit status 3"
	Report string // the race report, or the fatal error or panic with its goroutines
}

// Kinds of death.
const (
	DeathRace   = "race"   // the race detector found a data race
	DeathFatal  = "fatal"  // a runtime fatal error
	DeathPanic  = "panic"  // a panic no one recovered, in a goroutine of the user
	DeathExit   = "exit"   // the process exited (os.Exit) or was killed by a signal
	DeathKilled = "killed" // killed by the driver at a timeout
	DeathLimit  = "limit"  // killed by the isolation's memory bound
)

// Do sends req and waits for its result. The child is killed when it is
// silent for longer than idle (it ticks while it works), or when ctx is
// done.
func (p *Proc) Do(ctx context.Context, req harness.Request, idle time.Duration) (*Reply, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	rep := &Reply{}
	p.clearBoard()
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		// The child is gone; its death is told below.
		return p.dead(rep, false), nil
	}
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		select {
		case m, ok := <-p.msgs:
			if !ok {
				return p.dead(rep, false), nil
			}
			switch m.Ev {
			case harness.EvStep:
				rep.Step = m.Step
			case harness.EvResult:
				rep.Result = &m
				return rep, nil
			}
			timer.Reset(idle)
		case <-timer.C:
			return p.dead(rep, true), nil
		case <-ctx.Done():
			p.Kill()
			return nil, ctx.Err()
		}
	}
}

// dead waits for the child to end, killing it first if kill is set, and
// records how it ended.
func (p *Proc) dead(rep *Reply, kill bool) *Reply {
	if kill {
		p.kill()
	}
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
	}
	if step := readBoard(p.board); step != "" {
		rep.Step = step
	}
	p.closeBoard()
	rep.Death = classify(p.err, p.stderr.String(), kill)
	if p.jailed.OutOfMemory {
		rep.Death.Kind, rep.Death.Msg = DeathLimit, "killed at the memory bound of the isolation"
	}
	return rep
}

var (
	fatalRE = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
	panicRE = regexp.MustCompile(`(?m)^panic: (.*)$`)
)

// classify tells from the exit error and the standard error of a child
// how it died.
func classify(err error, stderr string, killed bool) *Death {
	d := &Death{Code: -1}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		d.Code = ee.ExitCode()
	} else if err == nil {
		d.Code = 0
	}
	if i := strings.Index(stderr, "WARNING: DATA RACE"); i >= 0 {
		d.Kind, d.Msg = DeathRace, "data race"
		report := stderr[i:]
		if j := strings.Index(report, "\n=================="); j >= 0 {
			report = report[:j]
		}
		d.Report = report
		return d
	}
	if m := fatalRE.FindStringSubmatchIndex(stderr); m != nil {
		d.Kind, d.Msg, d.Report = DeathFatal, stderr[m[2]:m[3]], stderr[m[0]:]
		return d
	}
	if m := panicRE.FindStringSubmatchIndex(stderr); m != nil {
		d.Kind, d.Msg, d.Report = DeathPanic, stderr[m[2]:m[3]], stderr[m[0]:]
		return d
	}
	switch {
	case killed:
		d.Kind, d.Msg = DeathKilled, "killed after a timeout"
	case d.Code >= 0:
		d.Kind, d.Msg = DeathExit, fmt.Sprintf("exit status %d", d.Code)
	default:
		d.Kind, d.Msg = DeathExit, fmt.Sprint(err)
	}
	d.Report = tail(stderr, 4096)
	return d
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// A capture keeps the first max bytes written to it.
type capture struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (c *capture) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - len(c.buf); room > 0 {
		c.buf = append(c.buf, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf)
}
