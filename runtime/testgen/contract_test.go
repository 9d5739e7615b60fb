package testgen

import "testing"

// TestContract checks the phrases of method documentation that forbid
// concurrent calls, and that ordinary documentation forbids nothing.
func TestContract(t *testing.T) {
	docs := map[string]string{
		"SetLimit": "SetLimit limits the number of active goroutines.\n\nThe limit must not be modified while any goroutines in the group are active.",
		"Go":       "Go calls the given function in a new goroutine.\n\nThe first call to Go must happen before a Wait.",
		"Wait":     "Wait blocks until all function calls from the Go method have returned.",
		"Next":     "Next advances the iterator. It is not safe for concurrent use.",
		"Reset":    "Reset must not be called\nconcurrently with other methods.",
		"Get":      "Get returns the value. It is safe for concurrent use.",
		"Put":      "Put stores a value; it must be called before Close returns, or it panics.",
	}
	c := readContract(docs)
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"SetLimit", "Go", false},
		{"Go", "Wait", false},
		{"Wait", "Go", false},
		{"Go", "Go", true},
		{"Next", "Get", false},
		{"Reset", "Get", false},
		{"Get", "Wait", true},
		{"Get", "Get", true},
		{"Put", "Get", true}, // "before Close": Close is not a method here
	} {
		if got := c.allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	if (*contract)(nil).allows("A", "B") != true {
		t.Error("no documentation must allow everything")
	}
}
