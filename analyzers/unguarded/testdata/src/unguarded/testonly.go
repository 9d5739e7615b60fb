package unguarded

import "sync"

// executor dispatches events under its lock; registry is the state its
// tests inspect.
type executor struct {
	mu       sync.Mutex
	registry map[string]int
	queue    []string
}

func newExecutor() *executor { return &executor{registry: map[string]int{}} }

func (e *executor) Register(k string) {
	e.mu.Lock()
	e.registry[k]++
	e.mu.Unlock()
}

func (e *executor) Unregister(k string) {
	e.mu.Lock()
	delete(e.registry, k)
	e.registry = map[string]int{}
	e.mu.Unlock()
}

// Registry is an accessor only the package's tests call
// (testonly_test.go): a test helper, not a way the type's users reach
// the registry.
func (e *executor) Registry() map[string]int { return e.registry }

// Queue is the same accessor, which Dispatcher's code calls: reported.
func (e *executor) Queue() []string {
	return e.queue // want `e.queue is read in Queue without e.mu`
}

func (e *executor) Push(s string) {
	e.mu.Lock()
	e.queue = append(e.queue, s)
	e.mu.Unlock()
}

func (e *executor) Drain() {
	e.mu.Lock()
	e.queue = nil
	e.mu.Unlock()
}

// Dispatcher uses an executor.
type Dispatcher struct{ e *executor }

// Pending returns the events not yet dispatched.
func (d *Dispatcher) Pending() int { return len(d.e.Queue()) }

// Use registers, queues and drains, so that each field has its guard.
func (d *Dispatcher) Use() {
	d.e.Register("a")
	d.e.Unregister("a")
	d.e.Push("a")
	d.e.Drain()
}
