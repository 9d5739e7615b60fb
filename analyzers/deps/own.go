package deps

import (
	"strings"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// own reports whether the normalized location loc counts as state of the
// type under test self ("pkg/path.T"): a location rooted at the type (its
// receiver and parameters of the type, "T…") or at a package variable of
// the type's own package.
//
// Package variables of other packages — the caches of reflect and
// encoding/json, the internals of fmt, time or sync.Pool, reached through
// calls into those packages — are the private state of the package that
// declares them, synchronised (or not) by it: they do not make two methods
// of the type dependent. The type's own fields reached through calls into
// other packages are rooted at the receiver and still count.
func own(self, loc string) bool {
	if !strings.HasPrefix(loc, "@") {
		return true
	}
	return lockstate.GlobalPkg(loc) == typePkg(self)
}

// typePkg returns the package path of a type class "pkg/path.T".
func typePkg(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[:i]
	}
	return ""
}
