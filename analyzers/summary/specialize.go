package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// specialized returns the summary of callee specialised for the
// constant bool arguments among args (see lockstate.BoolArgs): computed
// from its body with the branches they rule out left out. It reports
// false when the call has the callee's general summary: no such
// argument, a callee analysed elsewhere or whose general summary is not
// final yet (a recursion), or one specialised too often already
// (lockstate.Specs).
//
// A specialised summary is memoised unless it was computed from a
// summary that was not final (one of the recursion in progress): it is
// then computed again at the next call. A specialisation that calls
// itself is computed to a fixed point, its recursive calls having the
// previous round's summary (none at first; see lockstate.Specs); the
// summary it returns is then nil while it is being computed.
func (b *builder) specialized(callee *ssa.Function, args []ssa.Value) (*Summary, bool) {
	fn := origin(callee)
	if fn.Blocks == nil || !b.here(fn) {
		return nil, false
	}
	if _, final := b.sums[fn]; !final {
		return nil, false
	}
	if b.specs.Same == nil {
		b.specs.Same = func(x, y *Summary) bool { return key(x) == key(y) }
	}
	k := lockstate.BoolArgs(fn, args)
	return b.specs.Get(k, func() (*Summary, bool) {
		used := b.rec.used
		s := b.walk(fn, k)
		return s, b.rec.used == used
	})
}
