package driver

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// A progress keeps the run's progress line (Config.Progress): the types
// done of all, the violations found so far, the time elapsed, and the
// time the types' budgets leave at most. It is rewritten in place every
// second and when a type ends, and cleared at the end of the run.
type progress struct {
	mu       sync.Mutex
	w        io.Writer // nil: no line
	start    time.Time
	budget   time.Duration
	parallel int
	total    int
	done     int
	found    int
	running  map[*typeRun]time.Time // deadlines of the types being tested
	stop     chan struct{}
	stopped  sync.WaitGroup
}

// newProgress starts the progress line of a run of total types on w;
// with w nil it does nothing.
func newProgress(w io.Writer, total int, cfg Config) *progress {
	p := &progress{w: w, start: time.Now(), budget: cfg.Budget, parallel: max(cfg.Parallel, 1), total: total,
		running: map[*typeRun]time.Time{}, stop: make(chan struct{})}
	if w == nil {
		return p
	}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				p.show()
			}
		}
	}()
	return p
}

// begin records that type r's testing started, with its deadline.
func (p *progress) begin(r *typeRun, deadline time.Time) {
	p.mu.Lock()
	p.running[r] = deadline
	p.mu.Unlock()
	p.show()
}

// end records that type r ended with n violations.
func (p *progress) end(r *typeRun, n int) {
	p.mu.Lock()
	delete(p.running, r)
	p.done++
	p.found += n
	p.mu.Unlock()
	p.show()
}

// line returns the progress line at now.
func (p *progress) line(now time.Time) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lineLocked(now)
}

// lineLocked is line, p.mu held.
func (p *progress) lineLocked(now time.Time) string {
	var left time.Duration
	for _, d := range p.running {
		left = max(left, d.Sub(now))
	}
	if waiting := p.total - p.done - len(p.running); waiting > 0 {
		left += time.Duration((waiting+p.parallel-1)/p.parallel) * p.budget
	}
	return fmt.Sprintf("%d of %d %s done, %d %s, %s elapsed, at most %s left", p.done, p.total,
		plural(p.total, "type", "types"), p.found, plural(p.found, "violation", "violations"),
		now.Sub(p.start).Round(time.Second), left.Round(time.Second))
}

// show rewrites the line; p.mu serialises the writes of the types'
// goroutines and the ticker.
func (p *progress) show() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\033[K%s", p.lineLocked(time.Now()))
}

// close stops the line and clears it.
func (p *progress) close() {
	if p.w == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}
