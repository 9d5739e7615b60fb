package unguarded

import "sync"

// Pump's loop goroutine owns cur until it ends, with a last send on
// syncCh; Close reads cur under the lock only after receiving it: the
// handshake orders them, not the lock.
type Pump struct {
	sync.Mutex
	cur    int
	exitCh chan int
	syncCh chan int
}

func NewPump() *Pump {
	p := &Pump{exitCh: make(chan int), syncCh: make(chan int)}
	go p.loop()
	return p
}

func (p *Pump) loop() {
	for {
		select {
		case <-p.exitCh:
			goto exit
		default:
			p.cur++
		}
	}
exit:
	p.syncCh <- 1
}

// Close stops the loop and returns its count.
func (p *Pump) Close() int {
	p.Lock()
	defer p.Unlock()
	close(p.exitCh)
	<-p.syncCh
	n := p.cur
	p.cur = 0
	return n
}

// LoopPump's loop sends at every turn, and writes cur again after the
// send while Take reads it.
type LoopPump struct {
	sync.Mutex
	cur    int
	syncCh chan int
}

func NewLoopPump() *LoopPump {
	p := &LoopPump{syncCh: make(chan int)}
	go p.loop()
	return p
}

func (p *LoopPump) loop() {
	for {
		p.cur++ // want `p.cur is written in loop without p.Mutex, which is held at its 2 other accesses`
		p.syncCh <- 1
	}
}

// Take waits for a turn and returns the count.
func (p *LoopPump) Take() int {
	p.Lock()
	defer p.Unlock()
	<-p.syncCh
	n := p.cur
	p.cur = 0
	return n
}

// Super writes its report under the lock before its deferred close of
// done; Report reads it after receiving from done. (Stop's closure
// captures its receiver.)
type Super struct {
	m      sync.Mutex
	report []string
	stops  int
	done   chan struct{}
}

func NewSuper() *Super { return &Super{done: make(chan struct{})} }

// Stop stops the supervisor.
func (s *Super) Stop() {
	defer func() {
		s.m.Lock()
		s.stops++
		s.m.Unlock()
	}()
	s.stop()
}

func (s *Super) stop() {
	defer close(s.done)
	s.m.Lock()
	s.report = []string{"stopped"}
	s.m.Unlock()
}

// Report waits for the end and returns the report.
func (s *Super) Report() []string {
	<-s.done
	return s.report
}

// Len returns the report's length.
func (s *Super) Len() int {
	s.m.Lock()
	defer s.m.Unlock()
	return len(s.report)
}

// EarlySuper closes done before it writes its report.
type EarlySuper struct {
	m      sync.Mutex
	report []string
	done   chan struct{}
}

func NewEarlySuper() *EarlySuper { return &EarlySuper{done: make(chan struct{})} }

// Stop stops the supervisor.
func (s *EarlySuper) Stop() {
	close(s.done)
	s.m.Lock()
	s.report = []string{"stopped"}
	s.m.Unlock()
}

// Report waits for the end and returns the report.
func (s *EarlySuper) Report() []string {
	<-s.done
	return s.report // want `s.report is read in Report without s.m, which is held at its 2 other accesses`
}

// Len returns the report's length.
func (s *EarlySuper) Len() int {
	s.m.Lock()
	defer s.m.Unlock()
	return len(s.report)
}
