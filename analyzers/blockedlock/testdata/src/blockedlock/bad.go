package blockedlock

import "sync"

// Server sends to its loop under mu; the loop receives under mu.
type Server struct {
	mu       sync.Mutex
	quit     chan struct{}
	stopping bool
}

func NewServer() *Server {
	s := &Server{quit: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quit <- struct{}{} // want `send on s.quit blocks while holding s.mu \(locked at bad.go:19\), but the receive that would unblock it \(in loop at bad.go:28\) happens with s.mu held: neither side can proceed`
}

func (s *Server) loop() {
	for {
		s.mu.Lock()
		select {
		case <-s.quit:
			s.mu.Unlock()
			return
		default:
		}
		s.mu.Unlock()
	}
}

// Queue receives under mu; the only sender locks mu before sending.
type Queue struct {
	mu    sync.Mutex
	items chan int
	n     int
}

func NewQueue() *Queue {
	return &Queue{items: make(chan int)}
}

func (q *Queue) Take() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n--
	return <-q.items // want `receive from q.items blocks while holding q.mu .*, but the send that would unblock it \(in produce at bad.go:59\) happens only after locking q.mu`
}

func (q *Queue) produce(v int) {
	q.mu.Lock()
	q.n++
	q.mu.Unlock()
	q.items <- v
}

func (q *Queue) Start() { go q.produce(1) }

// Pool waits for its workers holding mu; the workers lock mu before Done.
type Pool struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	jobs []int
}

func (p *Pool) Start(n int) {
	p.wg.Add(n)
	for i := 0; i < n; i++ {
		go p.work()
	}
}

func (p *Pool) work() {
	defer p.wg.Done()
	p.mu.Lock()
	p.jobs = p.jobs[1:]
	p.mu.Unlock()
}

func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wg.Wait() // want `Wait on p.wg blocks while holding p.mu .*, but the Done that would unblock it \(in work at bad.go:79\) happens only after locking p.mu`
}

// Through callers: notify is only called with b.mu held, and deliver is
// only called by Send, which holds b.mu.
type Bus struct {
	mu     sync.Mutex
	events chan string
	subs   int
}

func NewBus() *Bus { return &Bus{events: make(chan string)} }

func (b *Bus) Send(e string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deliver(e)
}

func (b *Bus) deliver(e string) {
	b.events <- e // want `send on b.events blocks while holding b.mu \(locked at bad.go:102\), but the receive that would unblock it \(in next at bad.go:119\) happens with b.mu held`
}

func (b *Bus) Subscribe() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs++
	return b.next()
}

func (b *Bus) next() string {
	return <-b.events // want `receive from b.events blocks while holding b.mu \(locked at bad.go:112\), but the send that would unblock it \(in deliver at bad.go:108\)`
}

// A select whose every case blocks on an operation needing mu.
type Mux struct {
	mu   sync.Mutex
	a, b chan int
}

func NewMux() *Mux { return &Mux{a: make(chan int), b: make(chan int)} }

func (m *Mux) Get() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	select { // want `select blocks while holding m.mu`
	case v := <-m.a:
		return v
	case v := <-m.b:
		return v
	}
}

func (m *Mux) PutA(v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.a <- v // want `send on m.a blocks while holding m.mu`
}

func (m *Mux) PutB(v int) {
	m.mu.Lock()
	m.b <- v // want `send on m.b blocks while holding m.mu`
	m.mu.Unlock()
}

// The only sender offers in a select with a default, but it has to take
// mu first: Poll, holding mu, waits forever.
type Offer struct {
	mu sync.Mutex
	ch chan int
}

func NewOffer() *Offer { return &Offer{ch: make(chan int)} }

func (o *Offer) Try(v int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case o.ch <- v:
		return true
	default:
		return false
	}
}

func (o *Offer) Poll() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return <-o.ch // want `receive from o.ch blocks while holding o.mu .*, but the send that would unblock it \(in Try at bad.go:1[0-9][0-9]\) happens with o.mu held`
}

// The receiver must lock mu before it receives (it unlocks before the
// receive, but the sender may come first and hold mu).
type Handoff struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func NewHandoff() *Handoff { return &Handoff{ch: make(chan int)} }

func (h *Handoff) Put(v int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ch <- v // want `send on h.ch blocks while holding h.mu .*, but the receive that would unblock it \(in Get at bad.go:[0-9]+\) happens only after locking h.mu`
}

func (h *Handoff) Get() int {
	h.mu.Lock()
	h.n++
	h.mu.Unlock()
	return <-h.ch
}

// Package variables: one lock, one channel.
var (
	regMu  sync.Mutex
	regReq = make(chan string)
)

func Lookup(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	regReq <- name // want `send on regReq blocks while holding regMu`
}

func serve() {
	for {
		regMu.Lock()
		name := <-regReq // want `receive from regReq blocks while holding regMu`
		_ = name
		regMu.Unlock()
	}
}

func init() { go serve() }

// Waiting on a Cond releases only the Cond's lock: state stays locked,
// and Signal needs it.
type Gate struct {
	mu    sync.Mutex
	state sync.Mutex
	cond  *sync.Cond
	open  bool
}

func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *Gate) Pass() {
	g.state.Lock()
	defer g.state.Unlock()
	g.mu.Lock()
	for !g.open {
		g.cond.Wait() // want `Wait on g.cond \(which releases only its own lock, mu\) blocks while holding g.state .*, but the Signal or Broadcast that would unblock it \(in Open at bad.go:[0-9]+\) happens with g.state held`
	}
	g.mu.Unlock()
}

func (g *Gate) Open() {
	g.state.Lock()
	defer g.state.Unlock()
	g.mu.Lock()
	g.open = true
	g.cond.Broadcast()
	g.mu.Unlock()
}
