package deps

import (
	"fmt"
	"strings"

	"github.com/depcon/depcon/analyzers/summary"
)

// Contracts written down in the code, in Go's directive style, in the
// doc comment of a type or a method:
//
//	//depcon:setup [reason]
//	    on a method: a set-up method (see Method.SetUp), called before
//	    the object is shared, in prefixes only;
//	//depcon:single-goroutine [reason]
//	    on a type: meant for one goroutine at a time (see
//	    TypePlan.NotShared), not tested unless asked for;
//	//depcon:ignore pair=A,B [reason]
//	    on a type: the pair A ∥ B is not dependent, whatever the analysis
//	    finds (see TypePlan.Ignored).
const (
	DirSetUp           = "setup"
	DirSingleGoroutine = "single-goroutine"
	DirIgnore          = "ignore"
)

// directive returns the arguments of the first //depcon:name directive
// of doc (see summary.DocText), and whether there is one.
func directive(doc, name string) (string, bool) {
	all := directives(doc, name)
	if len(all) == 0 {
		return "", false
	}
	return all[0], true
}

// directives returns the arguments of every //depcon:name directive of
// doc.
func directives(doc, name string) []string {
	var out []string
	for _, line := range strings.Split(doc, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), summary.DirectivePrefix+name)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		out = append(out, strings.TrimSpace(rest))
	}
	return out
}

// annotated says that a directive decided, with its reason if any.
func annotated(name, args string) string {
	if args == "" {
		return "annotated //depcon:" + name
	}
	return fmt.Sprintf("annotated //depcon:%s (%s)", name, args)
}

// ignore takes out of the plan the pairs the //depcon:ignore directives
// of the type's doc comment name, recording them in Ignored.
func (t *TypePlan) ignore(doc string) {
	for _, args := range directives(doc, DirIgnore) {
		spec, reason, _ := strings.Cut(args, " ")
		names, ok := strings.CutPrefix(spec, "pair=")
		m1, m2, ok2 := strings.Cut(names, ",")
		if !ok || !ok2 {
			continue
		}
		m1, m2 = strings.TrimSpace(m1), strings.TrimSpace(m2)
		if m1 > m2 {
			m1, m2 = m2, m1
		}
		for i, p := range t.Pairs {
			if p.M1 != m1 || p.M2 != m2 {
				continue
			}
			if p.Has(DepPC) {
				t.PairsPC--
			}
			if p.Has(DepD) || p.Has(DepRWR) || p.Has(DepSelf) {
				t.PairsD--
			}
			t.Pairs = append(t.Pairs[:i], t.Pairs[i+1:]...)
			note := m1 + " ∥ " + m2
			if reason = strings.TrimSpace(reason); reason != "" {
				note += ": " + reason
			}
			t.Ignored = append(t.Ignored, note)
			break
		}
	}
}
