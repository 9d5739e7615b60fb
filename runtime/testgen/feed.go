package testgen

import (
	"go/types"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
)

// Feedback-directed arguments (Randoop's principle): a value only an
// earlier call can make — the subscription a Subscribe returned, for an
// Unsubscribe; the encoding a MarshalJSON returned, for an
// UnmarshalJSON; an ID, a handle — is taken from such a call, made in
// the prefix on the same object, rather than generated: a generated one
// fails the method's first check and never reaches the code that races.

// maxFed bounds the producer calls added to one test's prefix.
const maxFed = 2

// A producer is a method whose result Result can be passed to a
// parameter.
type producer struct {
	method string
	result int
}

// producers returns the methods of the subject whose result can be
// passed to parameter type p of method consumer: methods a prefix may
// call (not excluded, not kept out of prefixes), with a result assignable
// to p (not an error) when p is a value only the package makes (see
// feedable).
func (g *Generator) producers(p types.Type, consumer string) []producer {
	var out []producer
	for _, m := range g.s.Names {
		if g.excluded[m] || g.noPrefix[m] || g.endsUse[m] {
			continue
		}
		res := g.s.Methods[m].Results()
		for k := range res.Len() {
			rt := res.At(k).Type()
			if isError(rt) || !types.AssignableTo(rt, p) || !feedable(p, rt, consumer, m) {
				continue
			}
			out = append(out, producer{m, k})
			break
		}
	}
	return out
}

// feedable reports whether a parameter of type p of method consumer
// should take the result of type r of method producer: p is a named type
// or a pointer to one (not of package time or context: their values are
// generated), an interface the package's own values implement, or, for a
// decoding method (Unmarshal..., Decode..., GobDecode), the []byte or
// string an encoding method (Marshal..., Encode..., GobEncode, String,
// Bytes) returns.
func feedable(p, r types.Type, consumer, producer string) bool {
	if isCodec(consumer, "Unmarshal", "Decode", "GobDecode", "Parse") &&
		isCodec(producer, "Marshal", "Encode", "GobEncode", "String", "Bytes", "Append") {
		return true
	}
	t := types.Unalias(p)
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "time", "context":
		return false
	}
	if iface, ok := n.Underlying().(*types.Interface); ok && iface.Empty() {
		return false
	}
	return true
}

// isCodec reports whether method name m starts with one of prefixes.
func isCodec(m string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// isError reports whether t is the error interface.
func isError(t types.Type) bool { return types.Identical(t, errorType) }

// feed gives parameters of the suffix calls of test the results of
// producer calls it adds at the end of the prefix, on the same object,
// at most maxFed of them, each parameter that has producers with an even
// chance (the generated value tests the method's checks; the produced
// one what they guard).
func (g *Generator) feed(test *harness.Test) {
	fed := 0
	for i := range test.Suffix {
		c := &test.Suffix[i]
		sig := g.s.Methods[c.Fn]
		if sig == nil {
			continue
		}
		for j := range min(sig.Params().Len(), len(c.Args)) {
			if fed == maxFed || c.Args[j].K == harness.KObj {
				continue
			}
			pt := sig.Params().At(j).Type()
			if sig.Variadic() && j == sig.Params().Len()-1 {
				continue
			}
			ps := g.producers(pt, c.Fn)
			if len(ps) == 0 || g.rng.IntN(2) == 0 {
				continue
			}
			pr := ps[g.rng.IntN(len(ps))]
			others := []int{(c.Recv + 1) % len(test.Objects)}
			call := g.call(c.Recv, pr.method, others)
			test.Prefix = append(test.Prefix, call)
			c.Args[j] = harness.Value{K: harness.KResult, Prefix: len(test.Prefix) - 1, Result: pr.result}
			fed++
		}
	}
}
