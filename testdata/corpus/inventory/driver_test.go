//go:build depcondriver

package inventory

import (
	"testing"
	"time"
)

func TestDriver(t *testing.T) {
	inv := NewInventory(10)
	done := make(chan struct{})
	go func() {
		defer close(done)
		inv.Add("a", 1)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("self-deadlock: Add(\"a\", 1) did not return after 2s")
	}
}
