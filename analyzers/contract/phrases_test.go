package contract

import (
	"strings"
	"testing"
)

// TestUnshared checks the documentation classifier on sentences that
// restrict a type to one goroutine and on sentences that mention
// goroutines, readers or writers without restricting its use.
func TestUnshared(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{"A Reader must be used from a single goroutine.", "must be used from a single goroutine"},
		{"Writer is meant for one goroutine at a time.", "one goroutine at a time"},
		{"A Buffer is not safe for concurrent use.", "is not safe for concurrent use"},
		{"Queue is a lock-free single-producer queue.", "single-producer"},
		{"Log is a single-writer, multi-reader log: only one goroutine may append.", "single-writer"},
		{"It is intended for use by a single goroutine.", "single goroutine"},
		// Sentences that restrict nothing.
		{"The callback is invoked from a single goroutine at a time.", ""},
		{"Each call returns in a single goroutine at a time.", ""},
		{"Handlers run in one goroutine at a time, in the order of the events.", ""},
		{"New starts a single goroutine that flushes the buffer.", ""},
		{"Lock is a reader-writer lock: any number of readers or a single writer may hold it.", ""},
		{"Thread-safe. The flush runs on a single goroutine in the background.", ""},
		{"Cache is safe for concurrent use by multiple goroutines.", ""},
		{"If your writer is not thread safe, wrap it with SyncWriter.", ""},
		{"A Logger is not safe for concurrent use if its Writer is not.", "is not safe for concurrent use"},
	} {
		if got := Unshared(tc.doc); got != tc.want {
			t.Errorf("Unshared(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestSafe checks the phrases that say a type is safe for concurrent
// use, negated ones left out.
func TestSafe(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{"Thread-safe.", "thread-safe"},
		{"Package cache provides a thread-safe LRU cache.", "thread-safe"},
		{"A Pool is safe for concurrent use by multiple goroutines.", "safe for concurrent use by multiple goroutines"},
		{"It is not thread-safe.", ""},
		{"Handle must not be copied. Thread-safe.", "thread-safe"},
		{"A non-thread safe buffer.", ""},
		{"Calls from several goroutines must be serialised by the caller.", ""},
		{"It is safe to use one Client from multiple goroutines simultaneously.",
			"safe to use one client from multiple goroutines"},
		{"The cache is safe to call concurrently.", "safe to call concurrently"},
		{"It is not safe to use one Client from multiple goroutines.", ""},
		{"It is safe to use once the Start method has returned.", ""},
	} {
		if got := Safe(tc.doc); got != tc.want {
			t.Errorf("Safe(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestSequential checks that documentation requiring a single call,
// or one goroutine at a time, forbids concurrent calls of the method,
// and that documentation about what the method runs does not.
func TestSequential(t *testing.T) {
	for doc, want := range map[string]string{
		"Stop stops the timer; user must call it just once.":                                         "must call it just once",
		"Init must be called only once.":                                                             "must be called only once",
		"Stop may be called any number of times.":                                                    "",
		"Add moves the clock forward. This should only be called from a single goroutine at a time.": "should only be called from a single goroutine at a time",
		"Flush must be used by one goroutine at a time.":                                             "must be used by one goroutine at a time",
		"Get may be called from any goroutine.":                                                      "",
		"The callback is called from a single goroutine at a time.":                                  "",
	} {
		if got := Sequential(doc); got != want {
			t.Errorf("Sequential(%q) = %q, want %q", doc, got, want)
		}
	}
}

// TestSetUp checks the phrases that make a method a set-up method, and
// that one whose subject is a parameter or a function the method runs
// does not.
func TestSetUp(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"Configure names the server. It must be called before using the server.", "must be called before using"},
		{"Init should only be called once.", "only be called once"},
		{"This method must only be called once, during setup.", "only be called once"},
		{"LoadOrStoreLazy returns the value; f will only be called once.", ""},
		{"Do runs fn; the callback is only called once.", ""},
		{"Go activates the pool. Must be called before submitting items.", "must be called before submitting"},
		{"Flush writes the buffer. It must be called before closing the file.", ""},
	} {
		if got := SetUp(tc.doc); got != tc.want {
			t.Errorf("SetUp(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestCallerOrdered checks the sentences that leave the ordering of the
// calls to their callers, of a type's doc and of its package's.
func TestCallerOrdered(t *testing.T) {
	for _, tc := range []struct {
		doc, typ, want string
	}{
		{"Package cron implements a cron spec parser. All cron methods are designed to be correctly synchronized as long as the caller ensures that invocations have a clear happens-before ordering between them.",
			"Cron", "caller ensures that invocations have a clear happens-before"},
		{"Callers must synchronize access to a Buffer.", "", "callers must synchronize"},
		{"The user must serialize calls of Write.", "", "user must serializ"},
		{"Callers must synchronize access to a Buffer.", "Cron", ""}, // the package doc speaks of another type
		{"Users must ensure the directory exists.", "", ""},
		{"The caller must ensure that f does not block.", "", ""},
		{"A Pool is safe for concurrent use. Callbacks must ensure their own synchronization.", "", ""},
		{"The user provides the synchronization of the writer.", "", ""},
	} {
		if got := CallerOrdered(tc.doc, tc.typ); got != tc.want {
			t.Errorf("CallerOrdered(%q, %q) = %q, want %q", tc.doc, tc.typ, got, tc.want)
		}
	}
}

// TestInexactAndConsumes checks the phrases that take a method's result
// out of the linearizability oracle and those that forbid sharing what
// it is given.
func TestInexactAndConsumes(t *testing.T) {
	for doc, want := range map[string]bool{
		"Len returns an approximate count of the items.":               true,
		"Pop removes and returns an arbitrary item.":                   true,
		"Submit returns a future that can be used to wait for it.":     true,
		"Len returns the number of items.":                             false,
		"Get returns the value stored for key, or false if it is not.": false,
	} {
		if got := Inexact(doc); got != want {
			t.Errorf("Inexact(%q) = %v, want %v", doc, got, want)
		}
	}
	for doc, want := range map[string]bool{
		"Put returns b to the pool. The buffer mustn't be accessed after returning to the pool.": true,
		"Write takes ownership of p.":             true,
		"Write writes p; it does not retain p.":   false,
		"Add adds the item to the set, by value.": false,
	} {
		if got := Consumes(doc); got != want {
			t.Errorf("Consumes(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestReadDoc checks that a doc read once (a package's, long) gives
// the phrases Safe and CallerOrdered find in it.
func TestReadDoc(t *testing.T) {
	filler := strings.Repeat("The package keeps its entries in a table. ", 20)
	safeDoc := filler + "A Cache is safe for concurrent use."
	orderedDoc := filler + "Callers must synchronize access to a Ring."
	for _, doc := range []string{safeDoc, orderedDoc, ""} {
		d := ReadDoc(doc)
		if got, want := d.Safe(), Safe(doc); got != want {
			t.Errorf("ReadDoc(%.20q).Safe() = %q, Safe = %q", doc, got, want)
		}
		for _, typ := range []string{"Ring", "Cache"} {
			if got, want := d.CallerOrdered(typ), CallerOrdered(doc, typ); got != want {
				t.Errorf("ReadDoc(%.20q).CallerOrdered(%s) = %q, CallerOrdered = %q", doc, typ, got, want)
			}
		}
	}
	if got := ReadDoc(safeDoc).Safe(); got != "safe for concurrent use" {
		t.Errorf("Safe() = %q", got)
	}
	if got := ReadDoc(orderedDoc).CallerOrdered("Ring"); got != "callers must synchronize" {
		t.Errorf("CallerOrdered(Ring) = %q", got)
	}
	if got := ReadDoc(orderedDoc).CallerOrdered("Cache"); got != "" {
		t.Errorf("CallerOrdered(Cache) = %q, want none", got)
	}
}
