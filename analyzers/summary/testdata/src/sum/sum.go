// want package:"Reader.Read: "
package sum

import (
	"os"
	"sync"
	"sync/atomic"
)

type Reader struct {
	mu  sync.Mutex
	buf []byte
	pos int
	n   atomic.Int64
	m   map[string]int
	rw  sync.RWMutex
	sm  sync.Map
	ch  chan int
}

func (r *Reader) Read() byte { // fact Read:`^L \$0\.mu:W; R \$0\.buf \{\$0\.mu:W\}; R \$0\.buf\->\[\*\] \{\$0\.mu:W\}; R \$0\.pos \{\$0\.mu:W\}; W \$0\.pos \{\$0\.mu:W\}$`
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.buf[r.pos]
	r.pos++
	return b
}

func (r *Reader) Close() { r.buf = nil } // fact Close:`^W \$0\.buf$`

func (r *Reader) Count() int64 { return r.n.Add(1) } // fact Count:`^W \$0\.n \(atomic\)$`

func (r *Reader) Put(k string) { // fact Put:`^L \$0\.rw:W; R \$0\.m \{\$0\.rw:W\}; W \$0\.m\->\[\*\] \(map\) \{\$0\.rw:W\}$`
	r.rw.Lock()
	r.m[k] = 1
	r.rw.Unlock()
}

func (r *Reader) Get(k string) int { // fact Get:`^L \$0\.rw:R; R \$0\.m \{\$0\.rw:R\}; R \$0\.m\->\[\*\] \(map\) \{\$0\.rw:R\}$`
	r.rw.RLock()
	defer r.rw.RUnlock()
	return r.m[k]
}

func (r *Reader) Twice() { // fact Twice:`^L \$0\.mu:W; W \$0\.pos \{\$0\.mu:W!\}; W \$0\.pos \{\$0\.mu:W\}$`
	r.mu.Lock()
	r.pos = 1
	r.mu.Unlock()
	r.mu.Lock()
	r.pos = 2
	r.mu.Unlock()
}

func (r *Reader) Loop() { // fact Loop:`^L \$0\.mu:W; R \$0\.pos \{\$0\.mu:W!\*\}; W \$0\.pos \{\$0\.mu:W!\*\}$`
	for i := 0; i < 3; i++ {
		r.mu.Lock()
		r.pos++
		r.mu.Unlock()
	}
}

func (r *Reader) Len() int { // fact Len:`^L \$0\.mu:W; R \$0\.buf \{\$0\.mu:W\}$`
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.buf)
}

func (r *Reader) Equal(o *Reader) bool { // fact Equal:`^L \$0\.mu:W; L \$1\.mu:W \{\$0\.mu:W\}; R \$0\.buf \{\$0\.mu:W\}; R \$1\.buf \{\$0\.mu:W,\$1\.mu:W\}$`
	r.mu.Lock()
	defer r.mu.Unlock()
	return o.Len() == len(r.buf)
}

func (r *Reader) Async() { // fact Async:`^L \$0\.mu:W; W \$0\.pos \(goroutine\); W \$0\.pos \{\$0\.mu:W\}$`
	r.mu.Lock()
	defer r.mu.Unlock()
	go func() { r.pos = 3 }()
	func() { r.pos = 4 }()
}

// Spawn runs f in a goroutine it starts: a function its caller passes
// runs there, without the caller's locks.
func Spawn(f func()) { // fact Spawn:`^go \$0$`
	go func() { f() }()
}

// Run calls f, in its caller's goroutine.
func Run(f func()) { f() } // fact Run:`^call \$0$`

// Spawned starts through Spawn a goroutine that writes r.pos, as Async
// does with a go statement; the function Run calls is not applied.
func (r *Reader) Spawned() { // fact Spawned:`^L \$0\.mu:W; W \$0\.pos \(goroutine\)$`
	r.mu.Lock()
	defer r.mu.Unlock()
	Spawn(func() { r.pos = 3 })
	Run(func() { r.pos = 4 })
}

// Respawn's worker starts itself again: its accesses are Respawn's once.
func (r *Reader) Respawn() { // fact Respawn:`^W \$0\.pos \(goroutine\)$`
	var work func()
	work = func() {
		r.pos = 6
		Spawn(work)
	}
	Spawn(work)
}

func (r *Reader) Try() { // fact Try:`^W \$0\.pos \{\$0\.mu:W\}$`
	if r.mu.TryLock() {
		r.pos = 5
		r.mu.Unlock()
	}
}

func (r *Reader) lock()   { r.mu.Lock() }
func (r *Reader) unlock() { r.mu.Unlock() }

func (r *Reader) Helpers() { // fact Helpers:`^L \$0\.mu:W; W \$0\.pos \{\$0\.mu:W\}$`
	r.lock()
	r.pos = 6
	r.unlock()
}

// LoopHelpers locks through helpers in a loop: the critical section
// repeats (the * of the held lock).
func (r *Reader) LoopHelpers() { // fact LoopHelpers:`^L \$0\.mu:W; W \$0\.pos \{\$0\.mu:W!\*\}$`
	for i := 0; i < 3; i++ {
		r.lock()
		r.pos = i
		r.unlock()
	}
}

func (r *Reader) Store(k string) { r.sm.Store(k, 1) } // fact Store:`^W \$0\.sm \(sync\.Map\)$`

func (r *Reader) Send(v int) { r.ch <- v } // fact Send:`^R \$0\.ch; R \$0\.ch\-> \(chan\)$`

func (r *Reader) Shut() { close(r.ch) } // fact Shut:`^R \$0\.ch; W \$0\.ch\-> \(chan,close\)$`

type Lazy struct {
	once  sync.Once
	parts []string
}

func (l *Lazy) compile() { l.parts = []string{"a"} }

func (l *Lazy) Parts() []string { // fact Parts:`^R \$0\.once \(atomic\); R \$0\.parts; W \$0\.parts \(once\)$`
	l.once.Do(l.compile)
	return l.parts
}

func (l *Lazy) Reset() { l.once = sync.Once{} } // fact Reset:`^W \$0\.once$`

var (
	tableOnce sync.Once
	table     map[string]int
)

func initTable() { table = map[string]int{"a": 1} }

// Lookup initialises a package table under a sync.Once: the Once publishes
// it, so the write is no shared access (TestOwnGlobals). Its fact is
// empty: to a caller in another package, the table is that package's.
func Lookup(k string) int {
	tableOnce.Do(initTable)
	return table[k]
}

// Node is a tree whose Depth recurses into the children while holding the
// node's lock: its summary, computed to a fixed point, acquires the
// children's locks with the node's held.
type Node struct {
	mu   sync.Mutex
	kids []*Node
}

func (n *Node) Depth() int { // fact Depth:`L \$0\.kids->\[\*\]->mu:W \{\$0\.mu:W\}`
	n.mu.Lock()
	defer n.mu.Unlock()
	d := 0
	for _, k := range n.kids {
		d = max(d, k.Depth())
	}
	return d + 1
}

// Args reads a package variable of another package: os's state, not
// recorded (TestOwnGlobals).
func Args() int { return len(os.Args) }

// waitFrame is called with r.mu held, and releases it while it waits for
// a frame: it is entered holding r.mu, and holds it again on return.
func (r *Reader) waitFrame(ch chan int) {
	r.pos = 7
	for r.buf == nil {
		r.mu.Unlock()
		<-ch
		r.mu.Lock()
	}
	r.pos = 8
}

// WaitRead holds r.mu across waitFrame: the helper's writes, before and
// after its wait, are guarded, and so is the read after the call.
func (r *Reader) WaitRead(ch chan int) int { // fact WaitRead:`^L \$0\.mu:W; R \$0\.buf \{\$0\.mu:W!\}; R \$0\.pos \{\$0\.mu:W!\}; R \$1 \(chan\); W \$0\.pos \{\$0\.mu:W!\}; W \$0\.pos \{\$0\.mu:W\}$`
	r.mu.Lock()
	r.waitFrame(ch)
	n := r.pos
	r.mu.Unlock()
	return n
}
