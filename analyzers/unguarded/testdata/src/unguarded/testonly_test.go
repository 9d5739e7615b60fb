package unguarded

// A test of the executor reads its registry through the test-only
// accessor.
func registered(e *executor) int { return len(e.Registry()) }
