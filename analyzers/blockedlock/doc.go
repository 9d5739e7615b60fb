// Package blockedlock defines an Analyzer that reports lock-and-channel deadlocks.
//
// # Analyzer blockedlock
//
// blockedlock: report blocking on a channel, WaitGroup or Cond while holding a lock the other side needs
//
// A send on an unbuffered channel waits for a receiver; a receive waits
// for a sender or a close; WaitGroup.Wait waits for Done; Cond.Wait waits
// for Signal or Broadcast. If the goroutine that blocks holds a lock, and
// the only code in the package that would unblock it does so holding that
// lock (or only after locking it), neither side can proceed: a deadlock
// between a channel (or WaitGroup, or Cond) and a mutex.
//
//	func (s *Server) Stop() {
//		s.mu.Lock()
//		defer s.mu.Unlock()
//		s.quit <- struct{}{} // blocks with s.mu held
//	}
//
//	func (s *Server) loop() {
//		for {
//			s.mu.Lock()
//			select {
//			case <-s.quit: // needs s.mu to get here
//				s.mu.Unlock()
//				return
//			default:
//			}
//			s.mu.Unlock()
//		}
//	}
//
// Release the lock before blocking (or close the channel, or make it
// buffered where one message is all there is):
//
//	func (s *Server) Stop() {
//		s.mu.Lock()
//		s.stopping = true
//		s.mu.Unlock()
//		s.quit <- struct{}{}
//	}
//
// Locks are compared by class (the same field of the same type), and
// operations by the field or package variable that holds the channel,
// WaitGroup or Cond; the lock and the channel must be fields of the same
// object on both sides (or the lock a package variable). The analyzer
// reports a send, a receive, a WaitGroup.Wait, a Cond.Wait made while
// holding a lock other than the Cond's own (Wait releases only that
// one), or a select without default all of whose cases block that way,
// made while the lock is held on every path (in the function itself or
// in every caller of an unexported function), when every operation of
// the package that would unblock it (receive or close for a send, a
// close ending it with a panic; send or close for a receive; Done for a
// WaitGroup.Wait, deferred or not; Signal or Broadcast for a Cond.Wait)
// happens with the same lock held or after acquiring it on every path,
// directly or through every caller, or may wait for the lock instead of
// reaching the operation: in a loop whose body locks before it comes
// back, after the operation in a function called in a loop (receive,
// then lock, then receive again), or, for a deferred close, in a loop
// before the function returns. A goroutine does not inherit the locks of
// the function that starts it.
//
// An unbuffered channel a function makes and hands only to goroutines it
// starts (as an argument or a captured variable), using it otherwise only
// by channel operations, is followed too: its operations are those of the
// function and of those goroutines, and the lock must be the very same
// one on both sides, named through the go statement (not one of its
// class):
//
//	func (s *Store) Snapshot() map[string]int {
//		s.mu.Lock()
//		defer s.mu.Unlock()
//		done := make(chan struct{})
//		go s.compact(done) // compact locks s.mu, then closes done
//		<-done             // blocks with s.mu held
//		...
//	}
//
// It stays silent for operations after the unlock, selects with a
// default, channels made with a buffer (or of unknown origin: passed in,
// stored from elsewhere, exported fields; the elements of a slice field
// are the channels appended to it), WaitGroups whose Add may be
// negative or that run goroutines with Go, two read locks, and when any
// operation that would unblock the blocked side does not need the lock.
package blockedlock
