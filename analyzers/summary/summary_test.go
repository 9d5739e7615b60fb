package summary_test

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"

	"github.com/depcon/depcon/analyzers/summary"
)

// TestFacts checks the exported summaries: accesses with the locks held,
// acquisitions, defer, TryLock, closures, goroutines, helpers, atomics,
// sync.Map, maps and channels.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testpkgs.Dir(t), summary.Analyzer, "sum")
}

// TestOwnGlobals checks that a summary lists the package variables of its
// own package (Lookup's table, published by a sync.Once) and leaves out
// those of other packages (os.Args), marking them Foreign.
func TestOwnGlobals(t *testing.T) {
	results := analysistest.Run(t, testpkgs.Dir(t), summary.Analyzer, "sum")
	res := results[0].Result.(*summary.Result)
	got := map[string]*summary.Summary{}
	for _, fn := range res.SSA.SrcFuncs {
		got[fn.Name()] = res.Of(fn)
	}
	if s := got["Lookup"]; s == nil || s.String() != "R @sum.table; R @sum.table->[*] (map); R @sum.tableOnce (atomic)" || s.Foreign {
		t.Errorf("Lookup: %v", s)
	}
	if s := got["Args"]; s == nil || len(s.Accesses) != 0 || !s.Foreign {
		t.Errorf("Args: %+v", s)
	}
}

// TestFactCodec checks that the summaries of package sum survive the
// encoding of facts, and that the encoding knows every field of a
// summary: a field added must be added to codec.go too, and counted here.
func TestFactCodec(t *testing.T) {
	for _, c := range []struct {
		v any
		n int
	}{{summary.Summary{}, 6}, {summary.Access{}, 7}, {summary.Acquire{}, 8}, {summary.Held{}, 9}} {
		if got := reflect.TypeOf(c.v).NumField(); got != c.n {
			t.Errorf("%T has %d fields, the fact encoding knows %d", c.v, got, c.n)
		}
	}
	results := analysistest.Run(t, testpkgs.Dir(t), summary.Analyzer, "sum")
	res := results[0].Result.(*summary.Result)
	n := 0
	for _, fn := range res.SSA.SrcFuncs {
		s := res.Of(fn)
		if s == nil {
			continue
		}
		f := &summary.Fact{Summary: *s}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(f); err != nil {
			t.Fatal(err)
		}
		var g summary.Fact
		if err := gob.NewDecoder(&buf).Decode(&g); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(normal(f.Summary), normal(g.Summary)) {
			t.Errorf("%s: decoded fact\n%+v\nwant\n%+v", fn.Name(), g.Summary, f.Summary)
		}
		data, _ := f.GobEncode()
		for k := range data {
			if g.GobDecode(data[:k]) == nil {
				t.Errorf("%s: a fact cut at %d of %d bytes decodes", fn.Name(), k, len(data))
				break
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("no summaries")
	}
}

// normal returns s with its empty slices nil, as a decoding has them.
func normal(s summary.Summary) summary.Summary {
	held := func(hs []summary.Held) []summary.Held {
		if len(hs) == 0 {
			return nil
		}
		return hs
	}
	s.Accesses = slices.Clone(s.Accesses)
	for i := range s.Accesses {
		s.Accesses[i].Held = held(s.Accesses[i].Held)
	}
	s.Acquires = slices.Clone(s.Acquires)
	for i := range s.Acquires {
		s.Acquires[i].Held = held(s.Acquires[i].Held)
	}
	if len(s.Accesses) == 0 {
		s.Accesses = nil
	}
	if len(s.Acquires) == 0 {
		s.Acquires = nil
	}
	s.Exit = held(s.Exit)
	if len(s.Released) == 0 {
		s.Released = nil
	}
	return s
}
