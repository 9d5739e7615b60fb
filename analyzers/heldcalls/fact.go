package heldcalls

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// Fact records, for an exported function, the calls of its function
// parameters in its goroutine, with the locks it holds at each, so that a
// caller in another package passing a closure sees that the closure runs
// under the caller's locks and the function's.
type Fact struct {
	Calls []FactCall
}

// A FactCall is a call of parameter Param with Held held; Args are the
// paths of the call's arguments in the function's frame (without their
// classes).
type FactCall struct {
	Param int
	Args  [][]lockstate.Path
	Held  []Lock
}

func (*Fact) AFact() {}

func (f *Fact) String() string {
	var s []string
	for _, c := range f.Calls {
		var hs []string
		for _, h := range c.Held {
			hs = append(hs, h.Lock+":"+h.Mode.String())
		}
		s = append(s, "call $"+strconv.Itoa(c.Param)+" {"+strings.Join(hs, ",")+"}")
	}
	return strings.Join(s, "; ")
}

// fact returns the calls of fi's function parameters with locks held.
func (a *analyzer) fact(fi *funcInfo) *Fact {
	var f Fact
	for _, e := range a.effective(fi, 0) {
		// Calls without a lock held count too: the caller's locks are
		// held while the function runs its argument (sort.Slice).
		if e.targets != nil || e.anon != nil || len(e.fnval) != 1 || !isParam(e.fnval[0]) {
			continue
		}
		c := FactCall{Param: lockstate.ParseIndex(e.fnval[0].Str[1:])}
		for _, vs := range e.args {
			var fs []lockstate.Path
			for _, v := range vs {
				fs = append(fs, lockstate.Path{Str: v.Str, Loaded: v.Loaded})
			}
			c.Args = append(c.Args, fs)
		}
		for _, h := range e.held {
			l := h.Lock
			l.Pos = token.NoPos
			c.Held = append(c.Held, l)
		}
		f.Calls = append(f.Calls, c)
	}
	if len(f.Calls) == 0 {
		return nil
	}
	return &f
}

// imported returns the entries of a function of another package, from its
// fact.
func (a *analyzer) imported(fn *ssa.Function) []*entry {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == a.pass.Pkg {
		return nil
	}
	var f Fact
	if !a.pass.ImportObjectFact(obj, &f) {
		return nil
	}
	var out []*entry
	for _, c := range f.Calls {
		e := &entry{fnval: []lockstate.Path{{Str: "$" + strconv.Itoa(c.Param)}}}
		for _, ps := range c.Args {
			e.args = append(e.args, append([]lockstate.Path(nil), ps...))
		}
		for _, h := range c.Held {
			h.Pos = token.NoPos
			e.held = append(e.held, heldLock{Lock: h})
		}
		out = append(out, e)
	}
	return out
}
