package contract

import (
	"fmt"
	"strings"
)

// Contracts written down in the code, in Go's directive style, in the
// doc comment of a type or a method:
//
//	//depcon:setup [reason]
//	    on a method: a set-up method (see deps.Method.SetUp), called before
//	    the object is shared, in prefixes only;
//	//depcon:single-goroutine [reason]
//	    on a type: meant for one goroutine at a time (see
//	    deps.TypePlan.NotShared), not tested unless asked for;
//	//depcon:ignore pair=A,B [reason]
//	    on a type: the pair A ∥ B is not dependent, whatever the analysis
//	    finds (see deps.TypePlan.Ignored).
const (
	DirSetUp           = "setup"
	DirSingleGoroutine = "single-goroutine"
	DirIgnore          = "ignore"
)

// Directive returns the arguments of the first //depcon:name directive
// of doc (see DocText), and whether there is one.
func Directive(doc, name string) (string, bool) {
	all := Directives(doc, name)
	if len(all) == 0 {
		return "", false
	}
	return all[0], true
}

// Directives returns the arguments of every //depcon:name directive of
// doc.
func Directives(doc, name string) []string {
	var out []string
	for _, line := range strings.Split(doc, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), DirectivePrefix+name)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		out = append(out, strings.TrimSpace(rest))
	}
	return out
}

// Annotated says that a directive decided, with its reason if any.
func Annotated(name, args string) string {
	if args == "" {
		return "annotated //depcon:" + name
	}
	return fmt.Sprintf("annotated //depcon:%s (%s)", name, args)
}
