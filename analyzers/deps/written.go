package deps

import (
	"strings"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// normalize maps a location of method m onto the shared locations of the
// type under test self: the receiver and the parameters of the type itself
// become "T" (exception mode passes the shared object for them), package
// variables stay; it reports false for the locations of other parameters.
func normalize(m *summary.Method, self, loc string) (string, bool) {
	root := lockstate.Root(loc)
	if strings.HasPrefix(root, "@") {
		return loc, true
	}
	fn := m.Func
	i := lockstate.ParamIndex(loc)
	if i < 0 || i >= len(fn.Params) {
		return "", false
	}
	if i > 0 && lockstate.TypeClass(fn.Params[i].Type()) != self {
		return "", false
	}
	return "T" + loc[len(root):], true
}

// writtenBy returns a predicate telling whether some method of ms writes
// a location compatible with the normalized location loc.
//
// A location that no method of the type writes is not shared mutable
// state as far as the type's API goes: a package variable holding an
// error value or a table, or a field set once by the constructor, such as
// the pointer to the embedded struct a promoted method goes through
// (recv.cache in type Cache struct{ *cache }). Reading it can conflict
// with nothing, so it neither counts in AS(m) nor empties LS(m).
func writtenBy(ms []*summary.Method, self string) func(loc string) bool {
	var writes []string
	for _, m := range ms {
		for _, a := range m.Summary.Accesses {
			if !a.Write {
				continue
			}
			if loc, ok := normalize(m, self, a.Loc); ok && own(self, loc) {
				writes = append(writes, loc)
			}
		}
	}
	return func(loc string) bool {
		for _, w := range writes {
			if lockstate.Compatible(w, loc) {
				return true
			}
		}
		return false
	}
}
