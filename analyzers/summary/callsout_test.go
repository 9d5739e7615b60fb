package summary_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/depcon/depcon/analyzers/summary"
)

// TestCallsOut checks which methods run a function they are given
// between critical sections: Execute (unlocked, between two), not
// Update (under the lock), Apply (no lock at all) or Reset (no function).
func TestCallsOut(t *testing.T) {
	pkgs := loadTestPkgs(t, "callsout")
	g, err := checker.Analyze([]*analysis.Analyzer{summary.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := g.Roots[0].Result.(*summary.Result)
	got := map[string]bool{}
	for _, typ := range res.Types {
		for _, m := range typ.Methods {
			got[typ.Obj.Name()+"."+m.Name] = m.CallsOut
		}
	}
	want := map[string]bool{"Breaker.Execute": true, "Breaker.Update": false, "Breaker.Apply": false, "Breaker.Reset": false}
	for m, w := range want {
		if v, ok := got[m]; !ok || v != w {
			t.Errorf("%s: CallsOut %v (listed %v), want %v", m, v, ok, w)
		}
	}
}
