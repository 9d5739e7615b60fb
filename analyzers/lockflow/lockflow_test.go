package lockflow_test

import (
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/lockflow"
)

// probe reports, at each return of each function, the locks held there
// on every path, those held on some, and those released, once the
// deferred calls have run. It asks from two goroutines at once, as two
// analyzers reading the flows in parallel do; the race detector checks
// that the Program is safe for that.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "report the lock states at each return",
	Requires: []*analysis.Analyzer{buildssa.Analyzer, lockflow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		prog := pass.ResultOf[lockflow.Analyzer].(*lockflow.Program)
		funcs := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
		var wg sync.WaitGroup
		texts := make([]map[token.Pos]string, 2)
		for i := range texts {
			wg.Go(func() { texts[i] = states(prog, funcs) })
		}
		wg.Wait()
		if !reflect.DeepEqual(texts[0], texts[1]) {
			return nil, fmt.Errorf("two readers saw different states: %v and %v", texts[0], texts[1])
		}
		for pos, text := range texts[0] {
			pass.Reportf(pos, "%s", text)
		}
		return nil, nil
	},
}

func states(prog *lockflow.Program, funcs []*ssa.Function) map[token.Pos]string {
	out := map[token.Pos]string{}
	for _, fn := range funcs {
		f := prog.Flow(fn)
		if f == nil {
			continue
		}
		for _, ret := range f.Returns() {
			s := f.Before(ret)
			if s == nil || s.Dead() {
				continue
			}
			var words []string
			for _, k := range f.Keys() {
				v := s.Exit(k)
				disp := f.Path(k).Display
				switch {
				case v == lockflow.Held:
					words = append(words, "held "+disp)
				case v&lockflow.Held != 0:
					words = append(words, "may hold "+disp)
				case lockflow.Releasing(v):
					words = append(words, "released "+disp)
				}
			}
			if len(words) == 0 {
				continue
			}
			slices.Sort(words)
			pos := ret.Pos()
			if !pos.IsValid() {
				pos = fn.Syntax().End() - 1
			}
			out[pos] = strings.Join(words, ", ")
		}
	}
	return out
}

// Test checks the states at returns: an early return holding a lock, a
// deferred unlock, a lock taken on one branch only, a helper's net
// effect mapped onto its caller, exact indices, TryLock's true branch, a
// local mutex, a release of the caller's lock, a channel used as a
// mutex, taken in a select's case, and helpers called with a constant
// for the bool parameter that decides whether they lock.
func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), probe, "lockflow")
}
