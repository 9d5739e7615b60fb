// want package:"published.Feed.mu -> published.follower.mu; published.Sub.mu -> published.watcher.mu; published.follower.mu -> published.Feed.mu; published.watcher.mu -> published.Sub.mu"

// Package published has a callback that locks the object it was made
// for and is installed in a subscription only after its maker's own
// nested acquisitions: the maker's order and the callback's cannot
// overlap on one object.
package published

import "sync"

// Sub calls its done callback with its lock held when it is removed.
type Sub struct {
	mu   sync.Mutex
	done func()
}

func (s *Sub) Remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done != nil {
		s.done()
	}
}

type watcher struct {
	mu sync.Mutex
	n  int
}

// Watch holds the new watcher's lock while it sets up the subscription,
// and installs the callback only then: a callback of an earlier Watch
// locks an earlier watcher, never the one Watch holds.
func Watch(s *Sub) *watcher {
	w := &watcher{}
	w.mu.Lock()
	defer w.mu.Unlock()
	s.mu.Lock()
	w.n = 1
	s.done = func() {
		w.mu.Lock()
		w.n++
		w.mu.Unlock()
	}
	s.mu.Unlock()
	return w
}

// Feed is Sub's twin whose callback is installed before its maker takes
// the two locks: Remove may run it, holding the feed's lock and waiting
// for this very watcher's, while Follow holds the watcher's and waits for
// the feed's.
type Feed struct {
	mu   sync.Mutex
	done func()
}

func (f *Feed) Remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done != nil {
		f.done()
	}
}

type follower struct {
	mu sync.Mutex
	n  int
}

func Follow(f *Feed) *follower {
	w := &follower{}
	f.done = func() {
		w.mu.Lock()
		w.n++
		w.mu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	f.mu.Lock() // want `lock order inversion: Follow locks published.Feed.mu while holding published.follower.mu`
	w.n = 1
	f.mu.Unlock()
	return w
}
