package external

import "testing"

// TestMain must never run under depcon test: the overlay hides the
// package's own tests.
func TestMain(m *testing.M) { panic("the package's own tests ran") }
