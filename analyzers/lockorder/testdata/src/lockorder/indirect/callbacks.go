// want package:"indirect.A.mu -> indirect.B.mu; indirect.B.mu -> indirect.C.mu; indirect.Bus.mu -> indirect.logSink.mu; indirect.Bus.mu -> indirect.sink2.mu; indirect.C.mu -> indirect.A.mu; indirect.Cache.mu -> indirect.Sched.mu; indirect.Conn.mu -> indirect.Pool.mu; indirect.DB.mu -> indirect.Driver.mu; indirect.DevInfo.lock -> indirect.DeviceSet.Mutex; indirect.DeviceSet.Mutex -> indirect.DevInfo.lock; indirect.FIFO.mu -> indirect.Informer.mu; indirect.FIFO.mu -> indirect.Stats.mu; indirect.Informer.mu -> indirect.FIFO.mu; indirect.Lease.mu -> indirect.NameCache.mu; indirect.Manager.mu -> indirect.Session.mu; indirect.NameCache.mu -> indirect.Lease.mu; indirect.Plugin.mu -> indirect.registryMu; indirect.Pool.mu -> indirect.Conn.mu; indirect.R1.mu -> indirect.R2.mu; indirect.R2.mu -> indirect.R3.mu; indirect.R3.mu -> indirect.R1.mu; indirect.Route.mu -> indirect.Router.mu; indirect.Router.mu -> indirect.Route.mu; indirect.Sched.mu -> indirect.Store.mu; indirect.Sched2.mu -> indirect.Store2.mu; indirect.Session.mu -> indirect.Manager.mu; indirect.Store.mu -> indirect.Cache.mu; indirect.Store2.mu -> indirect.Cache2.mu; indirect.Timer.mu -> indirect.Watchdog.mu; indirect.Watchdog.mu -> indirect.Timer.mu; indirect.gate -> indirect.A.mu; indirect.gate -> indirect.B.mu; indirect.gate -> indirect.C.mu; indirect.logSink.mu -> indirect.Bus.mu; indirect.registryMu -> indirect.Plugin.mu; indirect.sink2.mu -> indirect.Bus2.mu"

package indirect

import "sync"

// Across types through callees several calls deep: Close holds Pool.mu
// and, through closeAll and Conn.close, locks Conn.mu; Release holds
// Conn.mu and, through put, locks Pool.mu.
type Pool struct {
	mu    sync.Mutex
	conns []*Conn
}

type Conn struct {
	mu     sync.Mutex
	pool   *Pool
	closed bool
}

func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closeAll()
}

func (p *Pool) closeAll() {
	for _, c := range p.conns {
		c.close()
	}
}

func (c *Conn) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

func (p *Pool) put(c *Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

func (c *Conn) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.pool.put(c) // want `lock order inversion: Release locks c.pool.mu \(in put\) while holding c.mu, but Close \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
	}
}

// An interface method called with a lock held: Publish holds Bus.mu and
// calls the subscribers' OnEvent, which locks logSink.mu; Close holds
// logSink.mu and unsubscribes, which locks Bus.mu.
type Subscriber interface{ OnEvent(string) }

type Bus struct {
	mu   sync.Mutex
	subs []Subscriber
}

func (b *Bus) Subscribe(s Subscriber) {
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
}

func (b *Bus) Unsubscribe(s Subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, x := range b.subs {
		if x == s {
			b.subs = append(b.subs[:i], b.subs[i+1:]...)
			return
		}
	}
}

func (b *Bus) Publish(ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		s.OnEvent(ev)
	}
}

type logSink struct {
	mu    sync.Mutex
	bus   *Bus
	lines []string
}

func NewLogSink(b *Bus) *logSink {
	l := &logSink{bus: b}
	b.Subscribe(l)
	return l
}

func (l *logSink) OnEvent(ev string) {
	l.mu.Lock()
	l.lines = append(l.lines, ev)
	l.mu.Unlock()
}

func (l *logSink) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bus.Unsubscribe(l) // want `lock order inversion: Close locks l.bus.mu \(in Unsubscribe\) while holding l.mu, but Publish \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// A method value stored in a field and called with a lock held: fire
// holds Timer.mu and calls onFire, Watchdog.expire, which locks
// Watchdog.mu; Stop holds Watchdog.mu and stops the timer (Timer.mu).
type Timer struct {
	mu     sync.Mutex
	onFire func()
	armed  bool
}

func (t *Timer) fire() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.armed {
		t.onFire()
	}
}

func (t *Timer) Stop() {
	t.mu.Lock()
	t.armed = false
	t.mu.Unlock()
}

type Watchdog struct {
	mu      sync.Mutex
	timer   *Timer
	expired bool
}

func NewWatchdog() *Watchdog {
	w := &Watchdog{}
	w.timer = &Timer{onFire: w.expire, armed: true}
	return w
}

func (w *Watchdog) expire() {
	w.mu.Lock()
	w.expired = true
	w.mu.Unlock()
}

func (w *Watchdog) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer.Stop() // want `lock order inversion: Stop locks w.timer.mu \(in Stop\) while holding w.mu, but fire \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// A closure passed to a helper that calls it with the lock held: Each
// holds Router.mu while it calls f, which locks Route.mu; Route.Detach
// holds Route.mu and locks Router.mu.
type Router struct {
	mu     sync.Mutex
	routes []*Route
}

type Route struct {
	mu     sync.Mutex
	router *Router
	hits   int
}

func (r *Router) each(f func(*Route)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rt := range r.routes {
		f(rt)
	}
}

func (r *Router) Reset() {
	r.each(func(rt *Route) {
		rt.mu.Lock()
		rt.hits = 0
		rt.mu.Unlock()
	})
}

func (r *Router) remove(rt *Route) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.routes {
		if x == rt {
			r.routes = append(r.routes[:i], r.routes[i+1:]...)
			return
		}
	}
}

func (rt *Route) Detach() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.router.remove(rt) // want `lock order inversion: Detach locks rt.router.mu \(in remove\) while holding rt.mu, but Reset \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// Correct variants: the subscribers are notified after the bus lock is
// released, and a callback that takes no lock.
type Bus2 struct {
	mu   sync.Mutex
	subs []Subscriber
}

func (b *Bus2) Subscribe(s Subscriber) {
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
}

func (b *Bus2) Unsubscribe(s Subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = nil
}

func (b *Bus2) Publish(ev string) {
	b.mu.Lock()
	subs := append([]Subscriber(nil), b.subs...)
	b.mu.Unlock()
	for _, s := range subs {
		s.OnEvent(ev)
	}
}

type sink2 struct {
	mu  sync.Mutex
	bus *Bus2
	n   int
}

func NewSink2(b *Bus2) *sink2 {
	s := &sink2{bus: b}
	b.Subscribe(s)
	return s
}

func (s *sink2) OnEvent(string) {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *sink2) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bus.Unsubscribe(s)
}

func (r *Router) Count() int {
	n := 0
	r.each(func(*Route) { n++ })
	return n
}

// Locks of objects returned by calls: Close holds Manager.mu and locks
// each Session's mu through lookup; Expire holds Session.mu and locks
// Manager.mu in forget.
type Manager struct {
	mu       sync.Mutex
	sessions map[int]*Session
}

type Session struct {
	mu   sync.Mutex
	id   int
	mgr  *Manager
	open bool
}

func (m *Manager) lookup(id int) *Session { return m.sessions[id] }

func (m *Manager) closeOne(id int) {
	s := m.lookup(id)
	s.mu.Lock()
	s.open = false
	s.mu.Unlock()
}

func (m *Manager) Close(ids []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		m.closeOne(id)
	}
}

func (m *Manager) forget(id int) {
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
}

func (s *Session) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open = false
	s.mgr.forget(s.id) // want `lock order inversion: Expire locks s.mgr.mu \(in forget\) while holding s.mu, but Close \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// A lock of an object found with a comma-ok lookup, and one of an object
// returned by a call held while calling a method of another type.
type Lease struct {
	mu sync.Mutex
	id int
}

type NameCache struct {
	mu     sync.Mutex
	leases map[int]*Lease
}

type LeaseTable struct {
	mu     sync.Mutex
	names  *NameCache
	active []*Lease
}

func (c *NameCache) Get(id int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.leases[id]
	if !ok {
		return
	}
	l.mu.Lock()
	l.id++
	l.mu.Unlock()
}

func (c *NameCache) drop(id int) {
	c.mu.Lock()
	delete(c.leases, id)
	c.mu.Unlock()
}

func (t *LeaseTable) find(id int) *Lease { return t.active[id] }

func (t *LeaseTable) Release(id int) {
	l := t.find(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	t.names.drop(l.id) // want `lock order inversion: Release locks t.names.mu \(in drop\) while holding indirect.Lease.mu, but Get \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// Correct: the lease is unlocked before the cache is.
func (t *LeaseTable) Release2(id int) {
	l := t.find(id)
	l.mu.Lock()
	n := l.id
	l.mu.Unlock()
	t.names.drop(n)
}

// A callee that drops the set's lock and takes it again while the
// caller holds a device's lock: two deletions of one device deadlock.
type DeviceSet struct {
	sync.Mutex
	infos map[string]*DevInfo
}

type DevInfo struct {
	lock sync.Mutex
	name string
}

func (d *DeviceSet) lookup(hash string) *DevInfo { return d.infos[hash] }

func (d *DeviceSet) removeAndWait(name string) {
	d.Unlock()
	defer d.Lock()
	_ = name
}

func (d *DeviceSet) Delete(hash string) {
	d.Lock()
	defer d.Unlock()
	info := d.lookup(hash)
	info.lock.Lock()
	defer info.lock.Unlock()
	d.removeAndWait(info.name) // want `lock order inversion: Delete locks d.Mutex \(in removeAndWait\) while holding indirect.DevInfo.lock, but Delete \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}

// Correct: a lock of an object returned by a call, captured by a
// closure, locked and unlocked through two loads of the variable.
type Driver struct {
	mu    sync.Mutex
	opens int
}

type DB struct {
	mu     sync.Mutex
	driver *Driver
	hook   func()
}

func (db *DB) Driver() *Driver { return db.driver }

func (db *DB) conn() {
	db.mu.Lock()
	db.mu.Unlock()
}

func (db *DB) open() {
	db.mu.Lock()
	defer db.mu.Unlock()
	d := db.Driver()
	d.mu.Lock()
	d.opens++
	d.mu.Unlock()
}

func Count(db *DB) int {
	d := db.Driver()
	db.hook = func() { d.opens = 0 }
	d.mu.Lock()
	n := d.opens
	d.mu.Unlock()
	db.hook = db.conn
	db.hook()
	return n
}

// Callbacks several calls deep: the queue holds its lock while it runs
// the function its controller passes, which calls a handler, whose
// function locks the informer; the informer holds its lock while it asks
// the queue.
type Queue3 interface {
	Pop(func())
	Synced() bool
}

type FIFO struct {
	mu    sync.Mutex
	items []int
}

func (f *FIFO) Pop(process func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	process()
}

func (f *FIFO) Synced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.items) == 0
}

type Handler interface{ OnAdd() }

type HandlerFuncs struct{ AddFunc func() }

func (h HandlerFuncs) OnAdd() {
	if h.AddFunc != nil {
		h.AddFunc()
	}
}

type Controller struct {
	queue   Queue3
	process func()
}

func (c *Controller) loop() { c.queue.Pop(c.process) }

func NewController(h Handler) *Controller {
	return &Controller{queue: &FIFO{}, process: func() { h.OnAdd() }}
}

type Stats struct {
	mu sync.Mutex
	n  int
}

type Informer struct {
	mu    sync.Mutex
	ctrl  *Controller
	n     int
	stats *Stats
}

func (i *Informer) add() {
	i.mu.Lock()
	i.n++
	i.mu.Unlock()
}

func (i *Informer) statsOf() *Stats { return i.stats }

func NewInformer() *Informer {
	i := &Informer{stats: &Stats{}}
	i.ctrl = NewController(HandlerFuncs{AddFunc: func() {
		i.add()
		s := i.statsOf()
		s.mu.Lock()
		s.n++
		s.mu.Unlock()
	}})
	return i
}

func (i *Informer) Synced() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.ctrl.queue.Synced() // want `lock order inversion: Synced locks i.ctrl.queue.mu \(in Synced, called through an interface or a method value\) while holding i.mu, but loop \(at callbacks.go:\d+:\d+\) locks them in the opposite order`
}
