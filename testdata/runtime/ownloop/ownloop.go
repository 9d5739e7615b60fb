// Package ownloop holds a type with no synchronisation of its own whose
// Start runs a loop in a goroutine that counts its runs: Runs, called
// after Start, reads the count while the loop writes it, although the
// caller makes its calls one after the other. Two calls of Reset at once
// would race too, but nothing says a Scheduler may be shared between
// goroutines: only what the loop does is reported.
package ownloop

import "time"

// Scheduler runs its jobs every millisecond, three times, once started.
type Scheduler struct {
	jobs  []func()
	runs  int
	label string
}

// NewScheduler returns a scheduler without jobs.
func NewScheduler() *Scheduler { return &Scheduler{} }

// Add adds a job.
func (s *Scheduler) Add(f func()) { s.jobs = append(s.jobs, f) }

// Runs returns how many times the jobs have run.
func (s *Scheduler) Runs() int { return s.runs }

// Reset names the scheduler and forgets its runs.
func (s *Scheduler) Reset(label string) {
	s.label = label
	s.runs = 0
}

// Label returns the scheduler's name.
func (s *Scheduler) Label() string { return s.label }

// Start runs the jobs in a goroutine, counting the runs.
func (s *Scheduler) Start() {
	jobs := s.jobs
	go func() {
		for range 3 {
			time.Sleep(time.Millisecond)
			for _, j := range jobs {
				j()
			}
			s.runs++
		}
	}()
}
