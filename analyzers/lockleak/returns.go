package lockleak

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/lockflow"
)

// returns reports the returns that leave a lock held while other
// returns of the function release it.
func (r *reporter) returns() {
	rets := r.f.Returns()
	states := make([]*lockflow.State, len(rets))
	for i, ret := range rets {
		states[i] = r.f.Before(ret)
	}
	for _, k := range r.keys() {
		var leak, rel []int
		for i, s := range states {
			if s == nil || s.Dead() {
				continue
			}
			switch v := s.Exit(k); {
			case v == lockflow.Held:
				leak = append(leak, i)
			case lockflow.Releasing(v):
				rel = append(rel, i)
			}
		}
		if len(leak) > 0 && len(rel) == 0 {
			r.failures(k, rets, states, leak)
			continue
		}
		if len(leak) == 0 {
			continue
		}
		for _, i := range leak {
			if r.protocol(rets[i], rets, rel) && !r.refuted(k) {
				continue
			}
			a := states[i].Site(k)
			pos := rets[i].Pos()
			if !pos.IsValid() && r.sx != nil {
				pos = r.sx.body.Rbrace
			}
			r.report(pos,
				fmt.Sprintf("%s is still locked at this return (%s), but the other returns of %s release it: unlock it on this path too",
					a.Path.Display, r.acqText(a), r.f.Fn.Name()),
				analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
				analysis.RelatedInformation{Pos: rets[rel[0]].Pos(), Message: "a return that releases it"})
		}
	}
}

// failures reports the returns that leave lock k held while returning an
// error, in a function whose returns all leave it held but which releases
// it on other paths (a loop's next iteration), when no caller releases it
// after the call: a lock helper hands its caller the lock with a
// success, not with a failure.
func (r *reporter) failures(k string, rets []*ssa.Return, states []*lockflow.State, leak []int) {
	rel := r.releaseIn(k)
	if rel == nil || r.callerMayRelease(k) {
		return
	}
	for _, i := range leak {
		if !slices.ContainsFunc(rets[i].Results, func(v ssa.Value) bool {
			return typeIsError(v.Type()) && r.signal(rets[i], v) == sigFail
		}) {
			continue
		}
		a := states[i].Site(k)
		r.report(rets[i].Pos(),
			fmt.Sprintf("%s is still locked at this return (%s), which reports an error, but %s releases it on its other paths: unlock it on this path too",
				a.Path.Display, r.acqText(a), r.f.Fn.Name()),
			analysis.RelatedInformation{Pos: a.Pos, Message: a.Path.Display + " acquired here"},
			analysis.RelatedInformation{Pos: rel.Pos(), Message: "released here"})
	}
}

// releaseIn returns an instruction of the function that releases lock k,
// or nil.
func (r *reporter) releaseIn(k string) ssa.Instruction {
	for _, b := range r.f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op := lockstate.LockCall(&call.Call); op.Kind == lockstate.OpUnlock {
				if p, ok := r.f.Name(op.Lock); !ok || p.Key() != k {
					continue // another lock, or one without a name
				}
			}
			if r.f.Releases(instr, k) {
				return instr
			}
		}
	}
	return nil
}
