package unguarded

import "sync"

// Unexported methods that goroutines of the package run are entry points.

type Hub struct {
	mu      sync.Mutex
	clients int
	pending []string
	ticks   int
	wg      sync.WaitGroup
}

func NewHub() *Hub {
	h := &Hub{}
	go h.loop()
	h.wg.Go(h.tick)
	return h
}

func (h *Hub) loop() {
	h.clients = 0 // want `h.clients is written in loop without h.mu, which is held at its 3 other accesses in Hub's methods`
}

func (h *Hub) tick() {
	h.ticks++ // want `h.ticks is written in tick without h.mu`
}

func (h *Hub) Join() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients++
	h.ticks++
}

func (h *Hub) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.clients + h.ticks
}

func (h *Hub) Post(s string) {
	h.mu.Lock()
	h.pending = append(h.pending, s)
	h.mu.Unlock()
}

func (h *Hub) Pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.pending)
}

func (h *Hub) Start() {
	go func() {
		h.flush()
	}()
}

func (h *Hub) flush() {
	h.pending = nil // want `h.pending is written in flush without h.mu`
}

// Correct code: no diagnostics.

type Farm struct {
	mu      sync.Mutex
	results []int
	jobs    int
}

// Run's goroutines work within its critical section: it waits for them
// before unlocking.
func (f *Farm) Run(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go f.work(&wg)
	}
	wg.Wait()
}

func (f *Farm) work(wg *sync.WaitGroup) {
	defer wg.Done()
	f.results = append(f.results, 1)
}

func (f *Farm) Results() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.results)
}

func (f *Farm) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.results = nil
}

// Submit's goroutine takes the lock before calling the helper.
func (f *Farm) Submit() {
	go func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.addJobLocked()
	}()
}

func (f *Farm) addJobLocked() { f.jobs++ }

func (f *Farm) Jobs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.jobs
}

func (f *Farm) ClearJobs() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs = 0
}
