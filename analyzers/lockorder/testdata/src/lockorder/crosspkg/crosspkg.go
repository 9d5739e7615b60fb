// want package:"locklib.Pair.Second -> locklib.Pair.First"

// Package crosspkg inverts, in another package, the order of
// locklib.Pair's locks.
package crosspkg

import "locklib"

func Swap(p *locklib.Pair) {
	p.Second.Lock()
	defer p.Second.Unlock()
	p.First.Lock() // want `lock order inversion: Swap locks p.First while holding p.Second, but locklib.Both \(at locklib.go:\d+:\d+\) locks locklib.Pair.Second while holding locklib.Pair.First`
	defer p.First.Unlock()
}

// Correct: one lock at a time.
func One(p *locklib.Pair) {
	p.Second.Lock()
	p.Second.Unlock()
	p.First.Lock()
	p.First.Unlock()
}
