package heldcalls

import (
	"testing"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// TestOwnerOf checks the object and field a loaded function value comes
// from, and that a package variable, whatever its package's path, has
// none.
func TestOwnerOf(t *testing.T) {
	for _, tc := range []struct{ path, owner, field string }{
		{"$0.onChange", "$0", "onChange"},
		{"$0.h->cb", "$0.h", "cb"},
		{"@example.com/p.Hook", "", ""},
		{"@github.com/x/y.Hook", "", ""},
		{`@"gopkg.in/x.v2".Hook`, "", ""},
		{"@github.com/x/y.Reg.cb", "@github.com/x/y.Reg", "cb"},
	} {
		owner, field := ownerOf([]lockstate.Path{{Str: tc.path, Loaded: true}})
		if owner.Str != tc.owner || field != tc.field {
			t.Errorf("ownerOf(%s) = %q, %q; want %q, %q", tc.path, owner.Str, field, tc.owner, tc.field)
		}
	}
}
