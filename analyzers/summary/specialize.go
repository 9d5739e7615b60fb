package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// specialized returns the summary of callee specialised for the
// constant bool arguments among args (see lockstate.BoolArgs): computed
// from its body with the branches they rule out left out. It reports
// false when the call has the callee's general summary: no such
// argument whose if decides a lock operation (see deciding), a callee
// analysed elsewhere or whose general summary is not final yet (a
// recursion), one that takes and releases no lock, or one specialised
// too often already (lockstate.Specs).
//
// A specialised summary is memoised unless it was computed from a
// summary that was not final (one of the recursion in progress): it is
// then kept while those summaries stay the same (recursion.holds), and
// computed again at the next call after that. A specialisation that
// calls itself is computed to a fixed point, its recursive calls having
// the previous round's summary (none at first; see lockstate.Specs);
// the summary it returns is then nil while it is being computed.
func (b *builder) specialized(callee *ssa.Function, args []ssa.Value) (*Summary, bool) {
	fn := origin(callee)
	if fn.Blocks == nil || !b.here(fn) {
		return nil, false
	}
	general, final := b.sums[fn]
	if !final || !general.locks() {
		return nil, false
	}
	if b.specs.Same == nil {
		b.specs.Same = func(x, y *Summary) bool { return key(x) == key(y) }
	}
	k := lockstate.BoolArgs(fn, args)
	if !k.IsZero() {
		decides := b.deciding(fn)
		k = k.Only(func(i int) bool { return decides[i] })
	}
	if e, ok := b.roundSpecs[specKey{fn, k.Key}]; ok && b.rec.holds(e.v) {
		b.rec.reuse(e.low)
		return e.sum, true
	}
	outermost, v := b.specs.Depth() == 0, b.rec.version()
	low, final := -1, true
	s, ok := b.specs.Get(k, func() (*Summary, bool) {
		used, saved := b.rec.used, b.rec.track()
		s := b.walk(fn, k)
		if l := b.rec.untrack(saved); low < 0 || l < low {
			low = l
		}
		final = final && b.rec.used == used
		return s, b.rec.used == used
	})
	// A specialisation computed within another's may use that one's
	// previous round (see lockstate.Specs): only the outermost are kept.
	if ok && !final && outermost && b.rec.holds(v) {
		if b.roundSpecs == nil {
			b.roundSpecs = map[specKey]roundSpec{}
		}
		b.roundSpecs[specKey{fn, k.Key}] = roundSpec{sum: s, v: v, low: low}
	}
	return s, ok
}

// A specKey names a specialisation: the function and its
// lockstate.Consts key.
type specKey struct {
	fn  *ssa.Function
	key string
}

// A roundSpec is a specialised summary computed from summaries that are
// not final: valid while they stay the same (v holds), and depending on
// those of the frame low and above (see recursion.track).
type roundSpec struct {
	sum *Summary
	v   version
	low int
}

// deciding returns, for each parameter of fn, whether an if on it
// decides whether a lock operation runs (see lockstate.Deciding): a
// specialisation only for the others would have fn's general effect on
// the locks held, and is not computed. A lock operation is a call that
// takes or releases a lock, or of a function whose summary does (one
// not summarised yet counts), a sync.Once's Do, a call the builder
// resolves dynamically, and a channel operation in a package with
// channels used as mutexes.
func (b *builder) deciding(fn *ssa.Function) []bool {
	if d, ok := b.decides[fn]; ok {
		return d
	}
	d := lockstate.Deciding(fn, func(instr ssa.Instruction) bool {
		switch instr := instr.(type) {
		case ssa.CallInstruction:
			c := instr.Common()
			if lockstate.LockCall(c).Kind != lockstate.OpNone {
				return true
			}
			callee := c.StaticCallee()
			if callee == nil {
				return b.dynamic != nil
			}
			if lockstate.SyncMethod(callee) == "(*sync.Once).Do" {
				return true
			}
			s, final := b.sums[origin(callee)]
			return !final || s.locks()
		case *ssa.Send, *ssa.Select:
			return len(b.chanLocks) > 0
		case *ssa.UnOp:
			return instr.Op == token.ARROW && len(b.chanLocks) > 0
		}
		return false
	})
	if b.decides == nil {
		b.decides = map[*ssa.Function][]bool{}
	}
	b.decides[fn] = d
	return d
}
