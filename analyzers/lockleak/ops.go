package lockleak

import (
	"golang.org/x/tools/go/ssa"
)

// staticCallee returns the function a call statically calls, with the
// values bound to its free variables (a closure called where it is made).
func staticCallee(c *ssa.CallCommon) (*ssa.Function, []ssa.Value) {
	if c.IsInvoke() {
		return nil, nil
	}
	switch v := c.Value.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return fn, v.Bindings
		}
	}
	return nil, nil
}
