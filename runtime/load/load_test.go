package load_test

import (
	"slices"
	"testing"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
)

const wholeprog = "github.com/depcon/depcon/testdata/src/wholeprog"

func pairs(t *testing.T, plans map[string]*deps.Plan) []string {
	t.Helper()
	tp := plans[wholeprog].Type("Buffer")
	if tp == nil {
		t.Fatalf("no plan for Buffer: %v", plans)
	}
	var out []string
	for _, p := range tp.Pairs {
		out = append(out, p.M1+"~"+p.M2)
	}
	return out
}

// TestPlansProgram compares the modular plans (dynamic calls are unknown
// code, which may write what they are passed) with the whole-program
// ones, where the call graph resolves Flush's call to a sink that writes
// nothing: Add and Flush then touch the items only under the lock.
func TestPlansProgram(t *testing.T) {
	pkgs, err := load.Packages("../..", []string{"./testdata/src/wholeprog"})
	if err != nil {
		t.Fatal(err)
	}
	modular, _, err := load.Plans(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	// Flush ∥ Flush: both call the package's Sink, held in a field,
	// without the lock (deps.InterfaceCalls).
	if got, want := pairs(t, modular), []string{"Add~Flush", "Add~Sum", "Flush~Flush", "Flush~Sum"}; !slices.Equal(got, want) {
		t.Errorf("modular pairs %v, want %v", got, want)
	}
	for _, algo := range []string{load.CallGraphCHA, load.CallGraphVTA} {
		plans, err := load.PlansProgram(pkgs, algo)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := pairs(t, plans), []string{"Add~Sum"}; !slices.Equal(got, want) {
			t.Errorf("%s pairs %v, want %v", algo, got, want)
		}
	}
	if _, err := load.PlansProgram(pkgs, "rta"); err == nil {
		t.Error("unknown call graph: no error")
	}
}

// TestExpand checks that testdata patterns are expanded by walking, and
// that a pattern matching nothing is an error.
func TestExpand(t *testing.T) {
	got, err := load.Expand("../..", []string{"./testdata/src/wholeprog/...", "fmt", "./testdata/corpus/hashtable/..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"./testdata/src/wholeprog", "fmt", "./testdata/corpus/hashtable"}
	if !slices.Equal(got, want) {
		t.Errorf("Expand = %v, want %v", got, want)
	}
	if _, err := load.Expand("../..", []string{"./testdata/nothing/..."}); err == nil {
		t.Error("no error for a pattern matching nothing")
	}
}
