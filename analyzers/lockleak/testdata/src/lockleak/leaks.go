package lockleak

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("closed")

type Store struct {
	mu     sync.Mutex
	rw     sync.RWMutex
	closed bool
	m      map[string]int
	items  []int
}

func (s *Store) Put(k string, v int) error {
	s.mu.Lock()
	if s.closed {
		return ErrClosed // want `s.mu is still locked at this return \(locked at leaks.go:19\), but the other returns of Put release it`
	}
	s.m[k] = v
	s.mu.Unlock()
	return nil
}

func (s *Store) Get(k string) (int, error) {
	s.rw.RLock()
	v, ok := s.m[k]
	if !ok {
		return 0, errors.New("missing") // want `s.rw is still locked at this return \(read-locked at`
	}
	s.rw.RUnlock()
	return v, nil
}

// Inc has no results: the early return leaks.
func (s *Store) Inc(k string) {
	s.mu.Lock()
	if s.closed {
		return // want `s.mu is still locked at this return`
	}
	s.m[k]++
	s.mu.Unlock()
}

func (s *Store) lock()   { s.mu.Lock() }
func (s *Store) unlock() { s.mu.Unlock() }

// Through helpers: lock returns holding s.mu, unlock releases it.
func (s *Store) Delete(k string) error {
	s.lock()
	if _, ok := s.m[k]; !ok {
		return ErrClosed // want `s.mu is still locked at this return \(locked by lock at leaks.go:53\)`
	}
	delete(s.m, k)
	s.unlock()
	return nil
}

// A cached value returned without unlocking, a success on both returns.
func (s *Store) Cached(k string) (int, bool) {
	s.mu.Lock()
	if v, ok := s.m[k]; ok {
		return v, true // want `s.mu is still locked at this return`
	}
	v := len(k)
	s.m[k] = v
	s.mu.Unlock()
	return v, true
}

// An error checked against nil is returned holding the lock.
func (s *Store) Load(f func() (int, error)) (int, error) {
	s.mu.Lock()
	v, err := f()
	if err != nil {
		return 0, err // want `s.mu is still locked at this return`
	}
	s.mu.Unlock()
	return v, nil
}

// A lock of a package variable.
var (
	regMu sync.Mutex
	reg   = map[string]int{}
)

func Register(name string) bool {
	regMu.Lock()
	if _, dup := reg[name]; dup {
		return false // want `regMu is still locked at this return`
	}
	reg[name] = 1
	regMu.Unlock()
	return true
}

// A continue skips the unlock: the next iteration locks again.
func (s *Store) SumPositive() int {
	n := 0
	for _, v := range s.items {
		s.mu.Lock()
		if v < 0 {
			continue // want `s.mu is still locked \(locked at leaks.go:105\) when the loop continues to the next iteration, but other iterations release it; the next iteration locks it again at leaks.go:105`
		}
		n += v
		s.mu.Unlock()
	}
	return n
}

// The same with a three-clause loop, whose continue goes through i++.
func (s *Store) Scan(n int) {
	for i := 0; i < n; i++ {
		s.mu.Lock()
		if s.closed {
			continue // want `s.mu is still locked .* when the loop continues to the next iteration`
		}
		s.m["x"] = i
		s.mu.Unlock()
	}
}

// The unlock is on one branch only: the body's end is reached holding
// the lock.
func (s *Store) Drain(keys []string) {
	for _, k := range keys {
		s.mu.Lock()
		if v, ok := s.m[k]; ok {
			s.m[k] = v - 1
			s.mu.Unlock()
			continue
		}
		s.m[k] = 0
	} // want `s.mu is still locked .* when the loop reaches the end of the loop body`
}

// A break leaves the loop holding the lock, and nothing after the loop
// releases it.
func (s *Store) Find(x int) int {
	found := -1
	for i, v := range s.items {
		s.mu.Lock()
		if v == x {
			found = i
			break // want `s.mu is still locked \(locked at leaks.go:146\) when this break leaves the loop`
		}
		s.mu.Unlock()
	}
	return found
}

// A local mutex held by pointer.
func Local(work []func() error) error {
	mu := new(sync.Mutex)
	for _, w := range work {
		mu.Lock()
		if err := w(); err != nil {
			return err // want `mu is still locked at this return`
		}
		mu.Unlock()
	}
	return nil
}

// Two objects of the same type: the lock of b leaks, not a's.
func Swap(a, b *Store) {
	a.mu.Lock()
	b.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return // want `b.mu is still locked at this return`
	}
	a.m, b.m = b.m, a.m
	b.mu.Unlock()
	a.mu.Unlock()
}

// A helper pair on a value made here: the early return leaves it in
// write mode.
type buffer struct{ mu sync.Mutex }

func newBuffer() *buffer      { return &buffer{} }
func (b *buffer) writeMode()  { b.mu.Lock() }
func (b *buffer) readMode()   { b.mu.Unlock() }
func (b *buffer) write() bool { return true }

func UseBuffer() {
	buf := newBuffer()
	buf.writeMode()
	if !buf.write() {
		return // want `buf.mu is still locked at this return \(locked by writeMode at`
	}
	buf.readMode()
}

// A goroutine started under the lock that takes the lock itself does not
// release the starter's: the early return still leaks it.
type Sender struct {
	mu   sync.Mutex
	hits int
	out  chan int
}

func (s *Sender) send() {
	s.mu.Lock()
	n := s.hits
	s.mu.Unlock()
	s.out <- n
}

func (s *Sender) Kick() {
	s.mu.Lock()
	go s.send()
	if s.hits > 0 {
		return // want `s.mu is still locked at this return \(locked at leaks.go:\d+\), but the other returns of Kick release it`
	}
	s.mu.Unlock()
}

// A continue under a condition with no position of its own (!ok of a
// comma-ok, a bool parameter) keeps the lock the next iteration takes.
type Watch struct {
	mu    sync.Mutex
	state map[string]int
}

func (w *Watch) Poll(paths []string) int {
	n := 0
	for _, p := range paths {
		w.mu.Lock()
		v, ok := w.state[p]
		if !ok {
			continue // want `w.mu is still locked`
		}
		w.state[p] = v + 1
		n++
		w.mu.Unlock()
	}
	return n
}

func (w *Watch) Skip(paths []string, skip bool) {
	for _, p := range paths {
		w.mu.Lock()
		if skip {
			continue // want `w.mu is still locked`
		}
		w.state[p]++
		w.mu.Unlock()
	}
}

func (w *Watch) PollOK(paths []string) int {
	n := 0
	for _, p := range paths {
		w.mu.Lock()
		v, ok := w.state[p]
		if !ok {
			w.mu.Unlock()
			continue
		}
		w.state[p] = v + 1
		n++
		w.mu.Unlock()
	}
	return n
}

// A continue of the enclosing loop leaves the inner loop holding the
// lock, which the inner loop of the next outer iteration takes again.
func (w *Watch) Sweep(groups [][]string) {
outer:
	for _, g := range groups {
		for _, p := range g {
			w.mu.Lock()
			if w.state[p] < 0 {
				continue outer // want `w.mu is still locked \(locked at leaks.go:\d+\) when this continue leaves the loop, and the enclosing loop locks it again`
			}
			delete(w.state, p)
			w.mu.Unlock()
		}
	}
}

func (w *Watch) SweepOK(groups [][]string) {
outer:
	for _, g := range groups {
		for _, p := range g {
			w.mu.Lock()
			if w.state[p] < 0 {
				w.mu.Unlock()
				continue outer
			}
			delete(w.state, p)
			w.mu.Unlock()
		}
	}
}

// A read lock behind an interface of the package's own (not a
// sync.Locker): the same rule as for a sync.RWMutex.
type readLocker interface {
	RLock()
	RUnlock()
}

type View struct {
	l readLocker
	m map[string]int
}

func (v *View) Get(k string) (int, error) {
	v.l.RLock()
	n, ok := v.m[k]
	if !ok {
		return 0, ErrClosed // want `v.l is still locked at this return \(read-locked at`
	}
	v.l.RUnlock()
	return n, nil
}

// A file lock that can fail is no mutex: Lock returns an error.
type fileLock interface {
	Lock() error
	Unlock() error
}

type Journal struct {
	fl fileLock
	m  map[string]int
}

func (j *Journal) Get(k string) (int, error) {
	if err := j.fl.Lock(); err != nil {
		return 0, err
	}
	n, ok := j.m[k]
	if !ok {
		return 0, ErrClosed
	}
	j.fl.Unlock()
	return n, nil
}

// A conditional lock helper's shape (held on a nil error), but its only
// caller never releases the lock: a goroutine that locks and unlocks it
// on its own hands nothing back.
type Devices struct {
	sync.Mutex
	deleted int
}

func (d *Devices) cleanup() error {
	d.Lock()
	if d.deleted == 0 {
		return nil // want `d.Mutex is still locked at this return`
	}
	d.Unlock()
	return errors.New("busy")
}

func useDevices(d *Devices, done chan bool) {
	d.cleanup()
	go func() {
		d.Lock()
		defer d.Unlock()
		done <- true
	}()
}

// A continue holding the lock that no iteration releases: the lock is
// released after the loop, but the next iteration locks it again first.
func (w *Watch) Retry(try func() error) {
	for {
		w.mu.Lock()
		if err := try(); err != nil {
			continue // want `w.mu is still locked \(locked at leaks.go:\d+\) when the loop continues to the next iteration, and no iteration releases it before the next iteration locks it again`
		}
		break
	}
	w.mu.Unlock()
}

// A loop that never iterates (every path ends in a break) has no back
// edge; its breaks are checked all the same.
func (w *Watch) Probe(p string) {
	for {
		w.mu.Lock()
		if w.state[p] < 0 {
			break // want `w.mu is still locked \(locked at leaks.go:\d+\) when this break leaves the loop, and no path after the loop releases it`
		}
		w.mu.Unlock()
		break
	}
}

// The loop runs at least once (its test holds on entry), so the unlock
// after it releases the loop's lock, not one the caller holds: the
// continue holding it is reported.
func (w *Watch) Dial(dial func() error) {
	for i := 0; i < 3; i++ {
		w.mu.Lock()
		if err := dial(); err != nil {
			continue // want `w.mu is still locked \(locked at leaks.go:\d+\) when the loop continues to the next iteration, and no iteration releases it`
		}
		break
	}
	w.mu.Unlock()
}

// Every return is in the loop and leaves the read lock held, and the
// error return says no lock is handed over: the loop's next iteration
// shows the function means to release it.
type Remote struct {
	mu     sync.RWMutex
	closed bool
}

func (r *Remote) acquire(wait func()) error {
	for {
		r.mu.RLock()
		closed := r.closed
		if closed {
			return ErrClosed // want `r.mu is still locked at this return \(read-locked at leaks.go:\d+\), which reports an error, but acquire releases it on its other paths`
		}
		r.mu.RUnlock()
		wait()
	}
}

// A channel of one slot used as a mutex, taken in a select that also
// waits for the ledger to close: the return on the close holds nothing
// (the lock is taken on the branch of the case that sent), the return
// on an empty entry holds the lock.
type Ledger struct {
	lockC   chan struct{}
	closeC  chan struct{}
	entries []string
}

var ErrEmpty = errors.New("empty entry")

func NewLedger() *Ledger {
	return &Ledger{lockC: make(chan struct{}, 1), closeC: make(chan struct{})}
}

func (j *Ledger) Append(e string) error {
	select {
	case j.lockC <- struct{}{}:
	case <-j.closeC:
		return ErrClosed
	}
	if e == "" {
		return ErrEmpty // want `j.lockC is still locked at this return \(locked at leaks.go:\d+\), but the other returns of Append release it`
	}
	j.entries = append(j.entries, e)
	<-j.lockC
	return nil
}

func (j *Ledger) Close() { close(j.closeC) }
