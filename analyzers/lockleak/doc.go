// Package lockleak defines an Analyzer that reports locks left held on some paths.
//
// # Analyzer lockleak
//
// lockleak: report a lock left held on an early return, continue or break
//
// A function that locks a sync.Mutex or sync.RWMutex, or a channel of
// one slot used as a mutex (see lockflow), named by its access path
// (c.mu, p.mu, a package variable, a local), and releases it on some
// paths but not on others (an early return, a continue, a break) has
// usually forgotten an Unlock on an error branch. The lock stays held:
// every later Lock of it blocks forever.
//
//	func (s *Store) Put(k string, v []byte) error {
//		s.mu.Lock()
//		if s.closed {
//			return ErrClosed // s.mu is never unlocked
//		}
//		s.m[k] = v
//		s.mu.Unlock()
//		return nil
//	}
//
// Release the lock on every path, most simply with defer:
//
//	func (s *Store) Put(k string, v []byte) error {
//		s.mu.Lock()
//		defer s.mu.Unlock()
//		if s.closed {
//			return ErrClosed
//		}
//		s.m[k] = v
//		return nil
//	}
//
// The analyzer reports:
//
//   - a return where the lock is held on every path that reaches it,
//     while another return of the function releases it;
//   - a return that holds the lock and returns an error, in a function
//     whose returns all hold it but which releases it elsewhere (a loop
//     that releases it before its next iteration), when no caller
//     releases it after the call: a lock helper hands its caller the
//     lock with a success, not with a failure;
//   - a continue (also in a case of a switch) where the lock is held
//     when the next iteration locks it again (a sure self-deadlock for a
//     Mutex), and the end of a loop body likewise when other iterations
//     release the lock;
//   - a break that leaves the loop holding the lock when no path after
//     the loop releases it, while the loop's other exits do, or when
//     other iterations release it and an enclosing loop comes back to
//     the acquisition before any release. A loop whose every iteration
//     ends in a break or a return (for { …; break }) counts as a loop.
//
// A three-clause loop whose test holds for its initial values
// (for i := 0; i < 3; i++) runs its body at least once: an unlock after
// it releases the loop's lock, not one held on entry.
//
// Locks are followed through fields, elements and map values of other
// objects, also through a local variable that holds one
// (d := m.devices[kind]; d.Lock()), whatever the lock's type embeds.
//
// It does not report: lock and unlock helpers (functions that return
// holding the lock on every path, or that release a lock held on entry);
// locks released by defer; the false branch of TryLock; locks handed to
// a goroutine (one that releases a lock it did not take: not one that
// locks and unlocks it itself) or to a returned or stored function
// (return mu.Unlock);
// paths that end in a panic or a call that does not return (os.Exit,
// log.Fatal, t.Fatal); a lock taken and released on the same condition
// (if x { mu.Lock() } ... if x { mu.Unlock() }), where the paths merge
// and the analysis cannot tell them apart; and functions that signal
// with a result that they return holding the lock (a lockIfOpen() bool
// or acquire() error that returns true or nil holding it, and false or
// an error after releasing it), unless the package shows otherwise: such
// a function is reported when it has callers in the package and none of
// them releases the lock after the call (or passes the result on to
// callers of its own that do), or, exported and not called in the
// package, when other packages can neither name the lock nor release it
// with an exported function:
//
//	func (c *Catalog) first(keys []string) (string, bool) {
//		c.main.mu.RLock()
//		for _, k := range keys {
//			if c.main.keys[k] {
//				return k, true // reported: First never releases c.main.mu
//			}
//		}
//		c.main.mu.RUnlock()
//		return "", false
//	}
//
//	func (c *Catalog) First(keys []string) string { k, _ := c.first(keys); return k }
//
// Calls of functions of the same package
// count with their net effect (a helper that unlocks releases the lock);
// functions of other packages are assumed to leave the caller's locks
// alone.
package lockleak
