package lockstate

import (
	"go/types"
	"slices"
	"testing"
)

func TestLocationStep(t *testing.T) {
	for _, tt := range []struct {
		p             Path
		loc, f, index string
	}{
		// An address in hand: steps stay in place.
		{Path{Str: "$0"}, "$0", "$0.mu", "$0[*]"},
		{Path{Str: "$0.inner"}, "$0.inner", "$0.inner.mu", "$0.inner[*]"},
		// A reference read from memory: steps go through it.
		{Path{Str: "$0.ptr", Loaded: true}, "$0.ptr->", "$0.ptr->mu", "$0.ptr->[*]"},
		{Path{Str: "@p.G", Loaded: true}, "@p.G->", "@p.G->mu", "@p.G->[*]"},
	} {
		if got := tt.p.Location(); got != tt.loc {
			t.Errorf("%+v.Location() = %q, want %q", tt.p, got, tt.loc)
		}
		if got := tt.p.Step(".mu"); got != tt.f {
			t.Errorf("%+v.Step(.mu) = %q, want %q", tt.p, got, tt.f)
		}
		if got := tt.p.Step("[*]"); got != tt.index {
			t.Errorf("%+v.Step([*]) = %q, want %q", tt.p, got, tt.index)
		}
	}
}

func TestCompatible(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"$0", "$0", true},
		{"$0", "$0.x", true}, // copying the receiver reads x
		{"$0.x", "$0", true}, // either order
		{"$0.x", "$0.x.y", true},
		{"$0.a", "$0.a[*]", true}, // an array's element is in place
		{"$0.a[*]", "$0.a[*].mu", true},
		{"$0.buf->", "$0.buf->[*]", true}, // the whole object behind buf
		{"$0.p->", "$0.p->x", true},
		{"$0.buf", "$0.buf->[*]", false}, // the slice header, not its elements
		{"$0.p", "$0.p->x", false},
		{"$0.p->", "$0.p", false},
		{"$0.x", "$0.xy", false}, // another field
		{"$0.x", "$0.y", false},
		{"$1", "$10", false}, // another parameter
		{"$0", "$f0", false},
		{"@p.G", "@p.G.mu", true},
		{"@p.G", "@p.GP", false},
		{`@"p.v2".G`, `@"p.v2".G.mu`, true},
		{`@"p.v2".G`, `@"p.v2".GP`, false},
		{`@"p.v2".G`, "@p.v2", false}, // package p.v2's G and package p's v2
		{"", "$0", false},
	} {
		if got := Compatible(tt.a, tt.b); got != tt.want {
			t.Errorf("Compatible(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRoot(t *testing.T) {
	for _, tt := range []struct {
		loc, root, pkg string
		param          int
	}{
		{"$0", "$0", "", 0},
		{"$0.x.y", "$0", "", 0},
		{"$12[*]", "$12", "", 12},
		{"$3->x", "$3", "", 3},
		{"$f1", "$f1", "", -1},
		{"$f1->x", "$f1", "", -1},
		{"%t3.mu", "%t3", "", -1},
		{"@p.G", "@p.G", "p", -1},
		{"@p.G.mu", "@p.G", "p", -1},
		{"@p.G->mu", "@p.G", "p", -1},
		{"@p.G[*]", "@p.G", "p", -1},
		{"@net/http.DefaultClient", "@net/http.DefaultClient", "net/http", -1},
		{"@net/http.DefaultClient.Transport", "@net/http.DefaultClient", "net/http", -1},
		{"@example.com/a/b.V->x.y", "@example.com/a/b.V", "example.com/a/b", -1},
		// A package path whose last element has a dot is quoted.
		{`@"gopkg.in/yaml.v3".V`, `@"gopkg.in/yaml.v3".V`, "gopkg.in/yaml.v3", -1},
		{`@"gopkg.in/yaml.v3".V.mu`, `@"gopkg.in/yaml.v3".V`, "gopkg.in/yaml.v3", -1},
		{`@"example.com/m/lib.v2".count->x[*]`, `@"example.com/m/lib.v2".count`, "example.com/m/lib.v2", -1},
		{`@"example.com".V[*]`, `@"example.com".V`, "example.com", -1},
		{`@"a.b/c.d".V`, `@"a.b/c.d".V`, "a.b/c.d", -1},
	} {
		if got := Root(tt.loc); got != tt.root {
			t.Errorf("Root(%q) = %q, want %q", tt.loc, got, tt.root)
		}
		if got := GlobalPkg(tt.loc); got != tt.pkg {
			t.Errorf("GlobalPkg(%q) = %q, want %q", tt.loc, got, tt.pkg)
		}
		if got := ParamIndex(tt.loc); got != tt.param {
			t.Errorf("ParamIndex(%q) = %d, want %d", tt.loc, got, tt.param)
		}
	}
}

// TestGlobalRoot checks the roots of package variables: the package path
// is quoted when its last element has a dot, which would be taken for the
// one before the name, and Root, GlobalPkg and globalClass take both
// forms back apart.
func TestGlobalRoot(t *testing.T) {
	for _, tt := range []struct{ pkg, name, root, class string }{
		{"p", "G", "@p.G", "@p.G"},
		{"net/http", "DefaultClient", "@net/http.DefaultClient", "@net/http.DefaultClient"},
		{"example.com/m/lib", "count", "@example.com/m/lib.count", "@example.com/m/lib.count"},
		{"example.com/m/lib.v2", "count", `@"example.com/m/lib.v2".count`, "@example.com/m/lib.v2.count"},
		{"gopkg.in/yaml.v3", "V", `@"gopkg.in/yaml.v3".V`, "@gopkg.in/yaml.v3.V"},
		{"example.com", "V", `@"example.com".V`, "@example.com.V"},
	} {
		root := GlobalRoot(tt.pkg, tt.name)
		if root != tt.root {
			t.Errorf("GlobalRoot(%q, %q) = %q, want %q", tt.pkg, tt.name, root, tt.root)
		}
		for _, loc := range []string{root, root + ".mu", root + "->x", root + "[*].y"} {
			if got := Root(loc); got != root {
				t.Errorf("Root(%q) = %q, want %q", loc, got, root)
			}
			if got := GlobalPkg(loc); got != tt.pkg {
				t.Errorf("GlobalPkg(%q) = %q, want %q", loc, got, tt.pkg)
			}
			if got, want := globalClass(loc), tt.class+loc[len(root):]; got != want {
				t.Errorf("globalClass(%q) = %q, want %q", loc, got, want)
			}
		}
	}
	for _, loc := range []string{"$0.x", "%t3.mu", "T.x"} {
		if got := globalClass(loc); got != loc {
			t.Errorf("globalClass(%q) = %q, want it unchanged", loc, got)
		}
	}
}

func TestParseIndex(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "7": 7, "12": 12, "007": 7, "": -1, "f0": -1, "1a": -1, "-1": -1} {
		if got := ParseIndex(s); got != want {
			t.Errorf("ParseIndex(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestDisplay(t *testing.T) {
	names := []string{"s", "other"}
	for _, tt := range []struct{ loc, want string }{
		{"$0", "s"},
		{"$0.mu", "s.mu"},
		{"$1.inner.mu", "other.inner.mu"},
		{"$0.buf->[*]", "s.buf[*]"},
		{"$0.next->val", "s.next.val"},
		{"$0.p->", "s.p"},
		{"$0.arr[*].mu", "s.arr[*].mu"},
		{"$2.x", "$2.x"}, // no name
		{"$f0->mu", "$f0.mu"},
		{"@p.G.mu", "p.G.mu"},
		{"@net/http.DefaultClient->mu", "http.DefaultClient.mu"},
		{`@"gopkg.in/yaml.v3".V.mu`, "yaml.v3.V.mu"},
		{`@"example.com/m/lib.v2".count->x`, "lib.v2.count.x"},
		{`@"example.com".V`, "example.com.V"},
	} {
		if got := Display(tt.loc, names); got != tt.want {
			t.Errorf("Display(%q) = %q, want %q", tt.loc, got, tt.want)
		}
	}
}

// TestExtend checks how a callee's location tail is appended to the
// caller's path of the argument.
func TestExtend(t *testing.T) {
	addr := Path{Str: "$0.inner"}
	ref := Path{Str: "$0.ptr", Loaded: true}
	for _, tt := range []struct {
		p          Path
		tail, want string
	}{
		{addr, "", "$0.inner"},
		{ref, "", "$0.ptr->"},
		{addr, ".mu", "$0.inner.mu"},
		{ref, ".mu", "$0.ptr->mu"},
		{ref, ".mu.x", "$0.ptr->mu.x"},
		{ref, ".next->val", "$0.ptr->next->val"},
		{addr, "[*].mu", "$0.inner[*].mu"},
		{ref, "[*]", "$0.ptr->[*]"},
		{ref, "->", "$0.ptr->->"},
	} {
		if got := extendTail(tt.p, tt.tail); got != tt.want {
			t.Errorf("extendTail(%+v, %q) = %q, want %q", tt.p, tt.tail, got, tt.want)
		}
	}
	for _, tt := range []struct {
		p          Path
		rest, want string
	}{
		{ref, "", "$0.ptr->"},
		{ref, "mu", "$0.ptr->mu"},
		{addr, "mu", "$0.inner.mu"},
		{addr, "[*]", "$0.inner[*]"},
	} {
		if got := extend(tt.p, tt.rest); got != tt.want {
			t.Errorf("extend(%+v, %q) = %q, want %q", tt.p, tt.rest, got, tt.want)
		}
	}
	for tail, want := range map[string]int{".x": 2, ".mu.x": 3, ".next->val": 5, "[*]": 3, "[*].mu": 3} {
		if got := stepLen(tail); got != want {
			t.Errorf("stepLen(%q) = %d, want %d", tail, got, want)
		}
	}
}

func TestAppendPaths(t *testing.T) {
	a := Path{Str: "$0.x"}
	la := Path{Str: "$0.x", Loaded: true}
	b := Path{Str: "$1", Class: "c"}
	got := AppendPaths([]Path{a}, la, a, b, Path{Str: "$0.x", Class: "other"}, b)
	if want := []Path{a, la, b}; !slices.Equal(got, want) {
		t.Errorf("AppendPaths = %+v, want %+v", got, want)
	}
}

func TestTypeClass(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	tn := types.NewTypeName(0, pkg, "T", nil)
	named := types.NewNamed(tn, types.NewStruct([]*types.Var{
		types.NewField(0, pkg, "mu", types.Typ[types.Int], false),
		types.NewField(0, pkg, "n", types.Typ[types.Int], false),
	}, nil), nil)
	alias := types.NewAlias(types.NewTypeName(0, pkg, "A", nil), named)
	for _, tt := range []struct {
		t    types.Type
		want string
	}{
		{named, "example.com/p.T"},
		{types.NewPointer(types.NewPointer(named)), "example.com/p.T"},
		{alias, "example.com/p.T"},
		{types.Typ[types.Int], "int"},
		{types.NewSlice(named), "[]example.com/p.T"},
	} {
		if got := TypeClass(tt.t); got != tt.want {
			t.Errorf("TypeClass(%s) = %q, want %q", tt.t, got, tt.want)
		}
	}
	for _, tt := range []struct {
		t           types.Type
		i           int
		name, class string
	}{
		{named, 1, "n", "example.com/p.T.n"},
		{types.NewPointer(named), 0, "mu", "example.com/p.T.mu"},
		{named, 2, "?", ""},
		{types.Typ[types.Int], 0, "?", ""},
	} {
		if name, class := FieldOf(tt.t, tt.i); name != tt.name || class != tt.class {
			t.Errorf("FieldOf(%s, %d) = %q, %q; want %q, %q", tt.t, tt.i, name, class, tt.name, tt.class)
		}
	}
}

func TestPrivate(t *testing.T) {
	for loc, want := range map[string]bool{
		"$0.mu":                    true,
		"$0.Mu":                    false,
		"$0.Mutex":                 false,
		"$0.s->stNextFileNum":      true,
		"$0.S->Mu":                 false,
		"$0.S->mu":                 true,
		"$0.Locks[*].Mu":           false,
		"$0.writeLockC->":          true,
		"$0":                       false,
		"$1->":                     false,
		"@example.com/p.mu":        true,
		"@example.com/p.Mu.state":  true,
		"@example.com/p.Mu":        false,
		`@"gopkg.in/yaml.v3".V.Mu`: false,
		`@"gopkg.in/yaml.v3".v.Mu`: true,
	} {
		if got := Private(loc); got != want {
			t.Errorf("Private(%q) = %v, want %v", loc, got, want)
		}
	}
}
