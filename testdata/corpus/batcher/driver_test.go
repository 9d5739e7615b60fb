//go:build depcondriver

package batcher

import "testing"

// TestDriver forces the interleaving (see forced in repeat_test.go); the
// race detector reports the race.
func TestDriver(t *testing.T) {
	forced()
}
