package contract

import "testing"

// TestRead checks the phrases of method documentation that forbid
// concurrent calls, and that ordinary documentation forbids nothing.
func TestRead(t *testing.T) {
	docs := map[string]string{
		"SetLimit": "SetLimit limits the number of active goroutines.\n\nThe limit must not be modified while any goroutines in the group are active.",
		"Go":       "Go calls the given function in a new goroutine.\n\nThe first call to Go must happen before a Wait.",
		"Wait":     "Wait blocks until all function calls from the Go method have returned.",
		"Next":     "Next advances the iterator. It is not safe for concurrent use.",
		"Reset":    "Reset must not be called\nconcurrently with other methods.",
		"Get":      "Get returns the value. It is safe for concurrent use.",
		"Put":      "Put stores a value; it must be called before Close returns, or it panics.",
	}
	c := Read(docs, "", "", []string{"SetLimit", "Go", "Wait", "Next", "Reset", "Get", "Put"})
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
		if got := c.Allows(tc.m1, tc.m2); got != tc.ok {
			t.Errorf("Allows(%s, %s) = %v, want %v", tc.m1, tc.m2, got, tc.ok)
		}
	}
	if (*Rules)(nil).Allows("A", "B") != true {
		t.Error("no documentation must allow everything")
	}
}

// TestGroups checks the concurrency a connection package's
// documentation gives its methods in groups: pairs within a group are
// forbidden, and with "no other concurrency" every pair but those across
// groups and those of methods said to run with all others; a type that
// lacks the methods named is not bound.
func TestGroups(t *testing.T) {
	redigo := "Package redis is a client. Connections support one concurrent caller to the Receive method and one " +
		"concurrent caller to the Send and Flush methods. No other concurrency is supported including concurrent calls " +
		"to the Do and Close methods. For full concurrent access to Redis, use the thread-safe Pool."
	conn := []string{"Close", "Do", "DoWithTimeout", "Err", "Flush", "Receive", "Send"}
	c := Read(nil, "", redigo, conn)
	for _, tc := range []struct {
		m1, m2    string
		forbidden bool
	}{
		{"Receive", "Send", false}, {"Receive", "Flush", false},
		{"Receive", "Receive", true}, {"Send", "Flush", true}, {"Send", "Send", true},
		{"Do", "DoWithTimeout", true}, {"Do", "Send", true}, {"DoWithTimeout", "Flush", true}, {"Close", "Err", true},
	} {
		if got := c.Forbids(tc.m1, tc.m2) != ""; got != tc.forbidden {
			t.Errorf("redigo %s ∥ %s: forbidden %v, want %v (%q)", tc.m1, tc.m2, got, tc.forbidden, c.Forbids(tc.m1, tc.m2))
		}
	}
	if c := Read(nil, "", redigo, []string{"Get", "Close", "Stats"}); c.Forbids("Get", "Close") != "" {
		t.Errorf("the Pool is bound: %q", c.Forbids("Get", "Close"))
	}
	websocket := "Connections support one concurrent reader and one concurrent writer. Applications are responsible " +
		"for ensuring that no more than one goroutine calls the write methods (NextWriter, WriteMessage) concurrently " +
		"and that no more than one goroutine calls the read methods (NextReader, ReadMessage) concurrently. The Close " +
		"and WriteControl methods can be called concurrently with all other methods."
	ws := []string{"Close", "NextReader", "NextWriter", "ReadMessage", "WriteControl", "WriteMessage"}
	c = Read(nil, "", websocket, ws)
	for _, tc := range []struct {
		m1, m2    string
		forbidden bool
	}{
		{"WriteMessage", "NextWriter", true}, {"ReadMessage", "ReadMessage", true},
		{"ReadMessage", "WriteMessage", false}, {"Close", "WriteMessage", false}, {"WriteControl", "WriteControl", false},
	} {
		if got := c.Forbids(tc.m1, tc.m2) != ""; got != tc.forbidden {
			t.Errorf("websocket %s ∥ %s: forbidden %v, want %v", tc.m1, tc.m2, got, tc.forbidden)
		}
	}
	plain := "Package cache is safe for concurrent use. Only one goroutine may hold a Handle at a time."
	if c := Read(nil, "", plain, []string{"Get", "Put"}); c.Forbids("Get", "Put") != "" || c.Forbids("Get", "Get") != "" {
		t.Errorf("a sentence naming no method of the type binds it")
	}
}
