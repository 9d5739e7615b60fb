package lockstate

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// A Path is an SSA value expressed as an access path: Str is the path,
// Loaded reports whether the value was read from memory (a reference held
// in a field), as opposed to an address in hand (a parameter, &x.f):
// steps from a loaded value go through the reference. Class is the
// compatibility class of the location, for locks.
type Path struct {
	Str    string
	Loaded bool
	Class  string
}

// Location returns the location that a load or store through the value
// (an address) accesses.
func (p Path) Location() string {
	if p.Loaded {
		return p.Str + "->"
	}
	return p.Str
}

// Step extends the address p with a field or element step ("." + name, or
// "[*]").
func (p Path) Step(s string) string {
	if p.Loaded {
		return p.Str + "->" + strings.TrimPrefix(s, ".")
	}
	return p.Str + s
}

// Compatible reports whether locations a and b may overlap.
func Compatible(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if !strings.HasPrefix(b, a) {
		return false
	}
	if len(a) == len(b) || strings.HasSuffix(a, "->") {
		return true
	}
	c := b[len(a)]
	return c == '.' || c == '['
}

// GlobalRoot returns the root of the package variable name of the
// package with import path pkg: "@pkg.Name" ("@net/http.DefaultClient"),
// or, when the last element of pkg has a dot, with pkg quoted
// (`@"gopkg.in/yaml.v3".Name`). The dot that ends an unquoted path is the
// first after its last slash: a dot of the last element would be taken
// for it (and the package for another, "gopkg.in/yaml" with variable v3).
// The quotes are only added where they are needed, so that the other
// paths stay as they read in Go ("net/http.DefaultClient").
func GlobalRoot(pkg, name string) string {
	if strings.Contains(pkg[strings.LastIndexByte(pkg, '/')+1:], ".") {
		return "@" + strconv.Quote(pkg) + "." + name
	}
	return "@" + pkg + "." + name
}

// global splits a location rooted at a package variable into the
// variable's package path and the length of its root; ok is false for
// another location. A root with no name ("@pkg") is the whole location.
func global(loc string) (pkg string, n int, ok bool) {
	if loc == "" || loc[0] != '@' {
		return "", 0, false
	}
	rest := loc[1:]
	if rest != "" && rest[0] == '"' {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return rest, len(loc), true
		}
		pkg, _ = strconv.Unquote(q)
		rest = rest[len(q):]
	} else {
		slash := strings.LastIndexByte(rest, '/')
		dot := strings.IndexByte(rest[slash+1:], '.')
		if dot < 0 {
			return rest, len(loc), true
		}
		pkg, rest = rest[:slash+1+dot], rest[slash+1+dot:]
	}
	// rest is ".Name" followed by the steps.
	if rest == "" {
		return pkg, len(loc), true
	}
	j := strings.IndexAny(rest[1:], ".[-")
	if j < 0 {
		return pkg, len(loc), true
	}
	return pkg, len(loc) - len(rest) + 1 + j, true
}

// Root returns the root of a location: "$0", "$f1", "@pkg.V",
// `@"pkg.v2".V`.
func Root(loc string) string {
	if _, n, ok := global(loc); ok {
		return loc[:n]
	}
	if i := strings.IndexAny(loc, ".[-"); i >= 0 {
		return loc[:i]
	}
	return loc
}

// GlobalPkg returns the package path of a location rooted at a package
// variable ("net/http" for "@net/http.DefaultClient.Transport",
// "gopkg.in/yaml.v3" for `@"gopkg.in/yaml.v3".V`), "" for another
// location.
func GlobalPkg(loc string) string {
	pkg, _, _ := global(loc)
	return pkg
}

// globalClass returns a location rooted at a package variable with its
// package path unquoted, the variable as Go spells it with the package
// path ("@gopkg.in/yaml.v3.V.mu" for `@"gopkg.in/yaml.v3".V.mu`): the
// class of a lock in it, which is compared and shown, never split.
// Another location is returned unchanged.
func globalClass(loc string) string {
	if len(loc) < 2 || loc[0] != '@' || loc[1] != '"' {
		return loc
	}
	pkg, n, _ := global(loc)
	q := strconv.Quote(pkg)
	if n < 1+len(q) {
		return loc
	}
	return "@" + pkg + loc[1+len(q):]
}

// ParamIndex returns i for a location rooted at parameter $i, or -1.
func ParamIndex(loc string) int {
	r := Root(loc)
	if len(r) < 2 || r[0] != '$' || r[1] == 'f' {
		return -1
	}
	return ParseIndex(r[1:])
}

// ParseIndex returns the number s spells in decimal digits ("0" in "$0"),
// or -1.
func ParseIndex(s string) int {
	n := 0
	if s == "" {
		return -1
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Display renders a location for people, naming the roots with names[i]
// for parameter $i (e.g. "recv", "other").
func Display(loc string, names []string) string {
	root := Root(loc)
	rest := loc[len(root):]
	name := root
	if i := ParamIndex(loc); i >= 0 && i < len(names) {
		name = names[i]
	} else if strings.HasPrefix(root, "@") {
		// The last element of the package path and the name:
		// "http.DefaultClient", "yaml.v3.V".
		name = globalClass(root)[1:]
		if slash := strings.LastIndexByte(GlobalPkg(root), '/'); slash >= 0 {
			name = name[slash+1:]
		}
	}
	rest = strings.ReplaceAll(rest, "->[", "[")
	rest = strings.ReplaceAll(rest, "->", ".")
	rest = strings.TrimSuffix(rest, ".")
	if rest == "" {
		return name
	}
	return name + rest
}

// extendTail appends a callee's path tail (".x", "[*]", "->y", "") to p,
// the caller's path of the argument the callee's root stands for: how a
// callee's location is mapped onto its caller's.
func extendTail(p Path, tail string) string {
	switch {
	case tail == "":
		return p.Location()
	case strings.HasPrefix(tail, "->"):
		// The root (a pointer parameter) is itself a reference: only
		// happens for the whole object ("$1->") of a pointer to pointer.
		return p.Location() + tail
	}
	return p.Step(tail[:stepLen(tail)]) + tail[stepLen(tail):]
}

// extend appends rest, the steps after a cell's dereference, to the path p
// of the value held in the cell.
func extend(p Path, rest string) string {
	if rest == "" {
		return p.Location()
	}
	if rest[0] != '[' {
		rest = "." + rest
	}
	return extendTail(p, rest)
}

// stepLen returns the length of the first step of a location's tail
// (".x" or "[*]").
func stepLen(tail string) int {
	if strings.HasPrefix(tail, "[*]") {
		return 3
	}
	i := strings.IndexAny(tail[1:], ".[-")
	if i < 0 {
		return len(tail)
	}
	return i + 1
}

// AppendPaths appends to out the paths of ps it does not hold yet.
func AppendPaths(out []Path, ps ...Path) []Path {
next:
	for _, p := range ps {
		for _, q := range out {
			if q.Str == p.Str && q.Loaded == p.Loaded {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

func mapPaths(ps []Path, f func(Path) Path) []Path {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Path, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out
}

// FieldOf returns the name of field i of the struct t (or *t) points to,
// and its class "pkg.Type.field".
func FieldOf(t types.Type, i int) (name, class string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "?", ""
	}
	name = st.Field(i).Name()
	return name, TypeClass(t) + "." + name
}

// TypeClass names a type for lock compatibility and for comparing types
// under test: its origin's qualified name ("pkg/path.T"), pointers removed.
func TypeClass(t types.Type) string {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		n = n.Origin()
		if n.Obj().Pkg() != nil {
			return n.Obj().Pkg().Path() + "." + n.Obj().Name()
		}
		return n.Obj().Name()
	}
	return types.TypeString(t, nil)
}

// Deref returns the type t points to, or t when it is no pointer.
func Deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// namedClass is the class of the (pointed-to) named type of t, or "".
func namedClass(t types.Type) string {
	t = types.Unalias(Deref(t))
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	}
	return ""
}

// Private reports whether code of another package cannot name the
// location loc: it steps through an unexported field, or is rooted at an
// unexported package variable. A lock there can be held only by code of
// the package that declares it.
func Private(loc string) bool {
	rest := loc
	if _, n, ok := global(loc); ok {
		name := loc[strings.LastIndexByte(loc[:n], '.')+1 : n]
		if !token.IsExported(name) {
			return true
		}
		rest = loc[n:]
	} else if i := strings.IndexAny(loc, ".[-"); i >= 0 {
		rest = loc[i:]
	} else {
		return false
	}
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "[*]"):
			rest = rest[3:]
			continue
		case strings.HasPrefix(rest, "->"):
			rest = rest[2:]
		case rest[0] == '.':
			rest = rest[1:]
		default:
			return false
		}
		n := strings.IndexAny(rest, ".[-")
		if n < 0 {
			n = len(rest)
		}
		if n > 0 && !token.IsExported(rest[:n]) {
			return true
		}
		rest = rest[n:]
	}
	return false
}
