package testgen

import (
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
)

// TestCallersDataNotShared checks that the two concurrent calls share an
// object of another type with synchronisation (two Transfers naming the
// same account), never a plain struct the test made for the call (an
// out-parameter that Stats fills): their race would be on the caller's
// memory.
func TestCallersDataNotShared(t *testing.T) {
	pkg, err := loadSrc(t, `package p

import "sync"

type Account struct {
	mu sync.Mutex
	n  int
}

type Stats struct{ Hits int }

type Bank struct{ mu sync.Mutex }

func (b *Bank) Transfer(from, to *Account, n int) {}
func (b *Bank) Stats(s *Stats)                    {}
`)
	if err != nil {
		t.Fatal(err)
	}
	plan := &deps.TypePlan{Name: "Bank", Concurrent: true,
		Methods: []deps.Method{{Name: "Transfer", Writes: 1}, {Name: "Stats", Writes: 1}},
		Pairs: []deps.Pair{{M1: "Transfer", M2: "Transfer", Deps: []string{deps.DepD}},
			{M1: "Stats", M2: "Stats", Deps: []string{deps.DepPC}}}}
	s, err := NewSubject(pkg, plan)
	if err != nil {
		t.Fatal(err)
	}
	g := New(s, Config{Seed: 1, Find: FindAll, Pairs: PairsDependent, MaxLen: 2})
	shared := map[string]int{}
	for range 400 {
		c := g.Next()
		if c == nil {
			break
		}
		for _, call := range c.Test.Suffix {
			for _, a := range call.Args {
				if a.K == harness.KShared {
					shared[call.Fn]++
				}
			}
		}
	}
	if shared["Transfer"] == 0 || shared["Stats"] != 0 {
		t.Errorf("shared arguments by method %v, want Transfer's and never Stats'", shared)
	}
}
