//go:build depcondriver

package hashring

import "testing"

// TestDriver forces the deadlock (see forced in repeat_test.go).
func TestDriver(t *testing.T) {
	if forced() {
		t.Fatalf("deadlock: Add ∥ Lookup still blocked after 1s")
	}
	t.Log("no deadlock observed")
}
