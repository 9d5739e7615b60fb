//go:build depcondriver

package tickets

import "testing"

// TestDriver forces the interleaving (see forced in repeat_test.go).
func TestDriver(t *testing.T) {
	if r := forced(); r != nil {
		t.Fatalf("panic: %v", r)
	}
	t.Log("no panic observed")
}
