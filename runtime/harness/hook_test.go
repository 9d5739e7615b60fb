package harness

import (
	"sync/atomic"
	"testing"
)

// BenchmarkHookOff measures a hook in a process where no scheduler was
// ever installed: the cost the rewritten package pays outside a test.
func BenchmarkHookOff(b *testing.B) {
	if atomic.LoadInt32(&hooked) != 0 {
		b.Skip("a scheduler was installed by an earlier test of this run (use -run '^$')")
	}
	for i := 0; i < b.N; i++ {
		Point(1)
	}
}

// BenchmarkHookIdle measures a hook once a scheduler was installed and
// stopped: the cost in a stress test of a child that ran scheduled ones.
func BenchmarkHookIdle(b *testing.B) {
	setSink(nil)
	for i := 0; i < b.N; i++ {
		Point(1)
	}
}

// BenchmarkHookUnmanaged measures a hook in a goroutine the current
// scheduler does not manage (a goroutine the type started).
func BenchmarkHookUnmanaged(b *testing.B) {
	s := newScheduler(Schedule{Kind: SchedPCT})
	defer s.stop()
	for i := 0; i < b.N; i++ {
		Point(1)
	}
}

func TestHookOffCallsNothing(t *testing.T) {
	// With no sink, a hook returns and Wait takes the lock itself.
	setSink(nil)
	Point(1)
	Locked(2)
	Unlocked(3)
	n := 0
	Wait(4, func() { n++ })
	Unlock(func() { n++ }, 5)
	if n != 2 {
		t.Errorf("Wait and Unlock called their functions %d times, want 2", n)
	}
}
