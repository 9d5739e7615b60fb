package unguarded

import (
	"strings"
	"sync"
)

// Rotator resolves its configuration once, under a sync.Once, and reads
// it under its lock or after a Do of the Once; its background mill
// resolves it too, without the lock. Only Peek reads the configuration
// with nothing to order it after the Once's writes.
type Rotator struct {
	mu      sync.Mutex
	cfgOnce sync.Once
	layout  string
	local   bool
	n       int
}

func (r *Rotator) resolve() {
	r.cfgOnce.Do(func() {
		r.layout = "2006-01-02"
		r.local = true
	})
}

// Write resolves the configuration under the lock.
func (r *Rotator) Write(p []byte) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resolve()
	r.n += len(p)
	if r.local {
		return len(r.layout)
	}
	return r.n
}

// Rotate reads the configuration under the lock.
func (r *Rotator) Rotate() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resolve()
	r.n = 0
	return r.layout
}

// Mill resolves the configuration without the lock, as a background
// goroutine does, and reads it after the Do: ordered by the Once.
func (r *Rotator) Mill() string {
	r.resolve()
	if r.local {
		return r.layout + "-local"
	}
	return r.layout
}

// Peek reads the configuration with no lock and no Do: a Write's Do may
// be writing it.
func (r *Rotator) Peek() string {
	return r.layout // want `r.layout is read in Peek with no lock and no Do of the sync.Once whose function writes it \(in \w+, at once.go:\d+:\d+\): the first Do may be writing it: data race`
}

// state is configuration of which the Once writes one part.
type state struct {
	dir    string
	failed bool
}

// Fuzzer's Once resolves state.dir; Fail and Failed read state.failed,
// which only the lock guards: no read of what the Once writes.
type Fuzzer struct {
	mu      sync.Mutex
	dirOnce sync.Once
	state   state
}

// Dir resolves the directory once.
func (f *Fuzzer) Dir() string {
	f.dirOnce.Do(func() { f.state.dir = "/tmp" })
	return f.state.dir
}

// Failed reads the failure flag.
func (f *Fuzzer) Failed() bool { return f.state.failed }

// LazyWriter starts its writing goroutine from the function its Once
// runs, after setting the file the goroutine reads: the go statement
// orders the read after the write. Silent.
type LazyWriter struct {
	once sync.Once
	ch   chan []byte
	file *strings.Builder
}

func (w *LazyWriter) init() {
	w.ch = make(chan []byte, 8)
	w.file = new(strings.Builder)
	go w.loop()
}

func (w *LazyWriter) loop() {
	for p := range w.ch {
		w.file.Write(p)
	}
}

func (w *LazyWriter) Write(p []byte) {
	w.once.Do(w.init)
	w.ch <- p
}

// LateWriter sets the file after starting the goroutine that reads it:
// the read races with the write.
type LateWriter struct {
	once sync.Once
	ch   chan []byte
	file *strings.Builder
}

func (w *LateWriter) init() {
	w.ch = make(chan []byte, 8)
	go w.loop()
	w.file = new(strings.Builder)
}

func (w *LateWriter) loop() {
	for p := range w.ch {
		w.file.Write(p) // want `w.file is read in loop with no lock and no Do of the sync.Once whose function writes it`
	}
}

func (w *LateWriter) Write(p []byte) {
	w.once.Do(w.init)
	w.ch <- p
}
