package testgen

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/contract"
)

// An object that keeps what it serves in one field serves one at a
// time: a Serve(ln) that stores ln in s.ln (redcon's Server), a
// Serve(ctx) that stores its context or its cancel function (suture's
// Supervisor, which panics when a second Serve starts). Two such calls
// on one object, with the same field, are the caller's error, not a
// concurrent use of the type; a server that keeps its listeners in a
// map or a slice (http.Server) serves several, and its calls are
// tested.

// servingSlot reports whether t is the type of a field that keeps what a
// method serves: a net.Listener, a context.Context or a
// context.CancelFunc.
func servingSlot(t types.Type) bool {
	return isNamed(t, "net", "Listener") || isNamed(t, "context", "Context") || isNamed(t, "context", "CancelFunc")
}

// servingSlots returns the fields of the type under test ("T.ln") of a
// serving-slot type that method m writes, when m serves: it takes a
// net.Listener or a context.Context, or its name says so
// (ListenAndServe).
func (g *Generator) servingSlots(m string) []string {
	sig := g.s.Methods[m]
	pm := g.s.Plan.Method(m)
	if sig == nil || pm == nil {
		return nil
	}
	takes := false
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		takes = takes || isNamed(t, "net", "Listener") || isContext(t)
	}
	// ListenAndServe makes its listener itself: "Serve" in its name, as
	// in net/http's, says it serves; it counts with a listener field
	// only (a ServeHTTP that keeps a request's context races).
	named := strings.Contains(m, "Serve")
	if !takes && !named {
		return nil
	}
	var out []string
	for _, loc := range pm.WriteLocs {
		t := fieldType(g.s.Type, loc)
		if t != nil && servingSlot(t) && (takes || isNamed(t, "net", "Listener")) && !slices.Contains(out, loc) {
			out = append(out, loc)
		}
	}
	return out
}

// fieldType returns the type of the field at loc ("T.ln",
// "T.Server->ln": through an embedded pointer) in values of type t, or
// nil when loc names no field, or an element.
func fieldType(t types.Type, loc string) types.Type {
	rest, ok := strings.CutPrefix(loc, "T")
	if !ok || rest == "" || strings.Contains(rest, "[") {
		return nil
	}
	rest = strings.ReplaceAll(rest, "->", ".")
	for _, name := range strings.Split(strings.TrimPrefix(rest, "."), ".") {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || name == "" {
			return nil
		}
		var next types.Type
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				next = st.Field(i).Type()
			}
		}
		if next == nil {
			return nil
		}
		t = next
	}
	return t
}

// oneServer adds to the contract the pairs of methods that keep what
// they serve in the same field (see servingSlots), self pairs included.
func (g *Generator) oneServer() {
	slots := map[string][]string{}
	for _, m := range g.s.Names {
		if s := g.servingSlots(m); len(s) > 0 {
			slots[m] = s
		}
	}
	for m1, s1 := range slots {
		for m2, s2 := range slots {
			for _, loc := range s1 {
				if slices.Contains(s2, loc) {
					who := m1 + " and " + m2
					if m1 == m2 {
						who = "two calls of " + m1
					}
					g.rules.Ordered[contract.PairKey(m1, m2)] = fmt.Sprintf("%s keep what they serve in the field %s: "+
						"the object serves one at a time", who, strings.TrimPrefix(loc, "T."))
					break
				}
			}
		}
	}
}
