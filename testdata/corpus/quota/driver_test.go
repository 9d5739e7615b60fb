//go:build depcondriver

package quota

import "testing"

// TestDriver forces the interleaving (see forced in repeat_test.go); the
// race detector reports the race.
func TestDriver(t *testing.T) {
	forced()
}
