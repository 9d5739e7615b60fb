// Package checks records the outcomes of health checks.
package checks

import "sync"

// Results counts passed and failed checks. A Results is safe for
// concurrent use by multiple goroutines.
type Results struct {
	mu     sync.Mutex
	passed int
	failed int
	total  int
}

// NewResults returns a Results with no checks recorded.
func NewResults() *Results {
	return &Results{}
}

// Pass records a check that passed.
func (r *Results) Pass() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.passed++
	r.total++
}

// Fail records a check that failed.
func (r *Results) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed++
	r.total++
}

// Passed returns the number of checks that passed.
func (r *Results) Passed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.passed
}

// Failed returns the number of checks that failed.
func (r *Results) Failed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// Total returns the number of checks recorded.
func (r *Results) Total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Summary returns the numbers of passed, failed and all checks.
func (r *Results) Summary() (passed, failed, total int) {
	return r.Passed(), r.Failed(), r.Total()
}

// Reset forgets all recorded checks.
func (r *Results) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.passed, r.failed, r.total = 0, 0, 0
}
