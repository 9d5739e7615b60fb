package summary_test

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/depcon/depcon/analyzers/summary"
)

// TestFacts checks the exported summaries: accesses with the locks held,
// acquisitions, defer, TryLock, closures, goroutines, helpers, atomics,
// sync.Map, maps and channels. A comment "// fact Name:`regexp`" on the
// line of a function's declaration gives its summary in the package's
// fact; every summary of the fact has one.
func TestFacts(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), summary.Analyzer, "sum")
	res := results[0].Result.(*summary.Result)
	var fact summary.Fact
	if !results[0].Action.PackageFact(res.SSA.Pkg.Pkg, &fact) {
		t.Fatal("no summary fact")
	}
	want := map[string]string{} // fact name → regexp
	fset := res.SSA.Pkg.Prog.Fset
	expect := regexp.MustCompile("// fact ([A-Za-z_0-9]+):`([^`]*)`")
	for _, fn := range res.SSA.SrcFuncs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil {
			continue
		}
		pos := fset.Position(fn.Pos())
		data, err := os.ReadFile(pos.Filename)
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Split(string(data), "\n")[pos.Line-1]
		if m := expect.FindStringSubmatch(line); m != nil && m[1] == fn.Name() {
			want[summary.FactName(obj)] = m[2]
		}
	}
	if len(want) == 0 {
		t.Fatal("no expectations")
	}
	for name, re := range want {
		s := fact.Funcs[name]
		if s == nil {
			t.Errorf("%s: no summary in the fact, want %s", name, re)
		} else if !regexp.MustCompile(re).MatchString(s.String()) {
			t.Errorf("%s: summary %s, want %s", name, s, re)
		}
	}
	for name, s := range fact.Funcs {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected summary %s", name, s)
		}
	}
}

// TestOwnGlobals checks that a summary lists the package variables of its
// own package (Lookup's table, published by a sync.Once) and leaves out
// those of other packages (os.Args), marking them Foreign.
func TestOwnGlobals(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), summary.Analyzer, "sum")
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
// encoding of the fact, and that the encoding knows every field of a
// summary: a field added must be added to codec.go too, and counted here.
func TestFactCodec(t *testing.T) {
	for _, c := range []struct {
		v any
		n int
	}{{summary.Summary{}, 7}, {summary.Access{}, 7}, {summary.Acquire{}, 8}, {summary.Held{}, 9}} {
		if got := reflect.TypeOf(c.v).NumField(); got != c.n {
			t.Errorf("%T has %d fields, the fact encoding knows %d", c.v, got, c.n)
		}
	}
	results := analysistest.Run(t, analysistest.TestData(), summary.Analyzer, "sum")
	res := results[0].Result.(*summary.Result)
	f := &summary.Fact{Funcs: map[string]*summary.Summary{}}
	for _, fn := range res.SSA.SrcFuncs {
		if s := res.Of(fn); s != nil {
			f.Funcs[fn.String()] = s
		}
	}
	if len(f.Funcs) == 0 {
		t.Fatal("no summaries")
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		t.Fatal(err)
	}
	var g summary.Fact
	if err := gob.NewDecoder(&buf).Decode(&g); err != nil {
		t.Fatal(err)
	}
	if len(g.Funcs) != len(f.Funcs) {
		t.Errorf("decoded %d summaries, want %d", len(g.Funcs), len(f.Funcs))
	}
	for name, s := range f.Funcs {
		if d := g.Funcs[name]; d == nil || !reflect.DeepEqual(normal(*s), normal(*d)) {
			t.Errorf("%s: decoded summary\n%+v\nwant\n%+v", name, d, *s)
		}
	}
	data, _ := f.GobEncode()
	for k := range data {
		if g.GobDecode(data[:k]) == nil {
			t.Errorf("a fact cut at %d of %d bytes decodes", k, len(data))
			break
		}
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
	if len(s.FuncCalls) == 0 {
		s.FuncCalls = nil
	}
	return s
}
