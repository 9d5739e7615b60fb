//go:build depcondriver

package profile

import "testing"

// TestDriver forces the interleaving (see forced in repeat_test.go).
func TestDriver(t *testing.T) {
	if forced() {
		t.Fatalf("deadlock: Export ∥ Set still blocked after 1s")
	}
	t.Log("no deadlock observed")
}
