package testgen

import (
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
)

// TestOneServer checks that two methods that keep what they serve (a
// listener, in an embedded struct; a context's cancel function) in the
// same field are not
// tested concurrently, self pairs included, and that a method keeping
// its listeners in a map, or one that serves nothing, still is.
func TestOneServer(t *testing.T) {
	pkg, err := loadSrc(t, `package p

import (
	"context"
	"net"
	"sync"
)

type base struct{ ln net.Listener }

type Server struct {
	*base
	mu     sync.Mutex
	lns    map[net.Listener]bool
	cancel context.CancelFunc
	n      int
}

func (s *Server) Serve(ln net.Listener) error        { return nil }
func (s *Server) ListenAndServe(addr string) error   { return nil }
func (s *Server) Run(ctx context.Context) error      { return nil }
func (s *Server) ServeMany(ln net.Listener) error    { return nil }
func (s *Server) Count() int                          { return 0 }
func (s *Server) Close() error                        { return nil }
`)
	if err != nil {
		t.Fatal(err)
	}
	plan := &deps.TypePlan{Name: "Server", Concurrent: true, Methods: []deps.Method{
		{Name: "Serve", Writes: 2, WriteLocs: []string{"T.base->ln", "T.n"}},
		{Name: "ListenAndServe", Writes: 1, WriteLocs: []string{"T.base->ln"}},
		{Name: "Run", Writes: 1, WriteLocs: []string{"T.cancel"}},
		{Name: "ServeMany", Writes: 1, WriteLocs: []string{"T.lns[*]"}},
		{Name: "Count", Accesses: 1, ReadLocs: []string{"T.n"}},
		{Name: "Close", Writes: 1, WriteLocs: []string{"T.base->ln"}},
	}}
	for _, m := range []string{"Serve", "ListenAndServe", "Run", "ServeMany", "Count", "Close"} {
		for _, m2 := range []string{"Serve", "ListenAndServe", "Run", "ServeMany", "Count", "Close"} {
			plan.Pairs = append(plan.Pairs, deps.Pair{M1: m, M2: m2, Deps: []string{deps.DepPC}})
		}
	}
	s, err := NewSubject(pkg, plan)
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 2})
	for _, tc := range []struct {
		m1, m2 string
		ok     bool
	}{
		{"Serve", "Serve", false},
		{"Run", "Run", false},
		{"Serve", "Run", true},             // different fields
		{"ListenAndServe", "Serve", false}, // it makes its listener itself
		{"Close", "Serve", true},           // Close writes the listener too, but serves nothing
		{"ServeMany", "ServeMany", true},   // a map of listeners: several at a time
		{"Count", "Serve", true},
	} {
		if got := g.Forbidden(tc.m1, tc.m2) == ""; got != tc.ok {
			t.Errorf("%s ∥ %s tested = %v, want %v (%q)", tc.m1, tc.m2, got, tc.ok, g.Forbidden(tc.m1, tc.m2))
		}
	}
}
