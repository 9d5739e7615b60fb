package victim

import "testing"

// TestMain would stop the harness: the overlay hides this file.
func TestMain(m *testing.M) { panic("user tests must be hidden") }
