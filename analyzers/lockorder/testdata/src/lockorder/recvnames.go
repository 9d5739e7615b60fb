package lockorder

import "sync"

// Gates' methods call their receiver g, but for Reverse's h: the message
// about the two methods names it g, as the type's methods mostly do.
type Gates struct {
	in, out sync.Mutex
}

func (g *Gates) Forward() {
	g.in.Lock()
	g.out.Lock()
	g.out.Unlock()
	g.in.Unlock()
}

func (g *Gates) Reset() {}

func (h *Gates) Reverse() {
	h.out.Lock()
	h.in.Lock() // want `lock order inversion: Reverse locks g.in while holding g.out, but Forward \(at recvnames.go:\d+:\d+\) locks them in the opposite order`
	h.in.Unlock()
	h.out.Unlock()
}
