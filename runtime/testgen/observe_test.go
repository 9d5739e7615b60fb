package testgen

import (
	"testing"

	"github.com/depcon/depcon/runtime/harness"
)

// TestLin checks how the linearizability oracle is set up for a test:
// the read-only methods whose parameters the suffixes fill observe each
// object, and calls whose outcome depends on timing turn it off.
func TestLin(t *testing.T) {
	g := newGen(t, Config{Seed: 1, Iters: 10})
	put := harness.Call{Fn: "Put", Args: []harness.Value{{K: harness.KLit, Lit: "k"}, {K: harness.KLit, Lit: "1"}}}
	test := harness.Test{Type: "Map", Objects: []harness.Call{{}, {}}, Suffix: []harness.Call{put, {Fn: "Len"}}}
	lin := g.Lin(test)
	if lin == nil {
		t.Fatal("no oracle for Put ∥ Len")
	}
	// Len on both objects; not Bytes, whose parameters no suffix fills,
	// nor Get, which writes.
	if len(lin.Observers) != 2 || lin.Observers[0].Fn != "Len" || lin.Observers[1].Recv != 1 {
		t.Errorf("observers %+v, want Len on a and b", lin.Observers)
	}
	for _, suffix := range [][]harness.Call{
		{put, {Fn: "TryLock"}},
		{put, {Fn: "Each", Args: []harness.Value{{K: harness.KCtx, Lit: "timeout"}, {K: harness.KFunc}}}},
	} {
		if lin := g.Lin(harness.Test{Type: "Map", Objects: []harness.Call{{}}, Suffix: suffix}); lin != nil {
			t.Errorf("%s ∥ %s: oracle %+v, want none", suffix[0].Fn, suffix[1].Fn, lin)
		}
	}
	g.s.Docs = map[string]string{"Len": "Len returns the approximate number of entries."}
	if lin := g.Lin(test); lin != nil {
		t.Errorf("an approximate Len in the suffix: oracle %+v, want none", lin)
	}
	test.Suffix = []harness.Call{put, put}
	if lin := g.Lin(test); lin == nil || len(lin.Observers) != 0 {
		t.Errorf("Put ∥ Put with an approximate Len: oracle %+v, want one without observers", lin)
	}
}
