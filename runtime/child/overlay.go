// Package child builds and runs the child processes of depcon test.
//
// A child is the test binary of the package under test, compiled once
// with -race and with the harness added through go test -overlay, so
// that the user's tree is never written.
package child

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
)

// Names are the identifiers the overlay adds to the package under test.
type Names struct {
	Prefix string // prepended to every package-level name of the harness
	Test   string // the test function that serves requests
}

// ChooseNames returns names that collide with nothing declared in pkg:
// "depconH" and "TestDepconHarness", or the same with a number.
func ChooseNames(pkg *types.Package) Names {
	for i := 1; ; i++ {
		n := Names{Prefix: "depconH", Test: "TestDepconHarness"}
		if i > 1 {
			n = Names{Prefix: fmt.Sprintf("depconH%d", i), Test: fmt.Sprintf("TestDepconHarness%d", i)}
		}
		if !slices.ContainsFunc(pkg.Scope().Names(), func(s string) bool {
			return strings.HasPrefix(s, n.Prefix) || s == n.Test
		}) {
			return n
		}
	}
}

// Rewrite returns the harness source files as files of package pkgName,
// every package-level identifier prefixed, keyed by file name.
func Rewrite(pkgName, prefix string) (map[string][]byte, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	err := fs.WalkDir(harness.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := harness.Files.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the harness: %w", err)
	}
	top := map[string]bool{}
	for _, f := range files {
		for name := range f.Scope.Objects {
			top[name] = true
		}
	}
	out := map[string][]byte{}
	for _, f := range files {
		rename(f, top, prefix)
		f.Name.Name = pkgName
		if f.Doc != nil { // the package documentation is not the user's
			f.Comments = slices.DeleteFunc(f.Comments, func(c *ast.CommentGroup) bool { return c == f.Doc })
			f.Doc = nil
		}
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, f); err != nil {
			return nil, fmt.Errorf("printing the harness: %w", err)
		}
		out[path.Base(fset.File(f.Pos()).Name())] = buf.Bytes()
	}
	return out, nil
}

// rename prefixes the identifiers of f that denote package-level objects:
// those the parser resolved to the file scope, and the unresolved ones
// declared at package level in another file. It also imports every
// package under a prefixed name, so that no name the user's package
// declares collides with an import. Composite literal keys are left
// alone: they are field names (the harness uses no package-level name as
// a key).
func rename(f *ast.File, top map[string]bool, prefix string) {
	imported := map[string]bool{}
	for _, spec := range f.Imports {
		name := path.Base(strings.Trim(spec.Path.Value, "`\""))
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		imported[name] = true
		spec.Name = &ast.Ident{Name: prefix + name, NamePos: spec.Path.Pos()}
	}
	keys := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.CompositeLit); ok {
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						keys[id] = true
					}
				}
			}
		}
		return true
	})
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || keys[id] {
			return true
		}
		if imported[id.Name] && id.Obj == nil && unresolved[id] {
			id.Name = prefix + id.Name
			return true
		}
		if !top[id.Name] {
			return true
		}
		if id.Obj != nil && f.Scope.Lookup(id.Name) == id.Obj || id.Obj == nil && unresolved[id] {
			id.Name = prefix + id.Name
		}
		return true
	})
}

// Registration returns the source of the file that registers the types
// under test and the constructors with the harness, declares the stubs
// of their interface parameters (testgen.StubSource) and the test
// function that serves the driver. It compiles at every language version
// from go 1.13 and whatever the package declares: it names no builtin but
// nil outside the stubs' method signatures (which are the interfaces'),
// imports under a prefixed name and declares only prefixed names besides
// the test function.
func Registration(pkgName string, names Names, subjects []*testgen.Subject) []byte {
	p := names.Prefix
	var b bytes.Buffer
	funcs := map[string]string{}
	adapters := map[string]bool{} // the function types KFunc values may name
	// imports names the packages of the other modules' constructors
	// (testgen.Func.Pkg), by path, under prefixed names.
	imports := map[string]string{}
	for _, s := range subjects {
		for _, f := range s.Funcs {
			if f.Pkg != nil && imports[f.Pkg.Path()] == "" {
				imports[f.Pkg.Path()] = fmt.Sprintf("%simport%d", p, len(imports))
			}
		}
	}
	stubs, stubNames := stubDecls(p, subjects, imports)
	fmt.Fprintf(&b, "// Code generated by depcon test; DO NOT EDIT.\n\npackage %s\n\nimport %stesting \"testing\"\n", pkgName, p)
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&b, "import %s %q\n", imports[path], path)
	}
	fmt.Fprintf(&b, "\nfunc init() {\n")
	for _, s := range subjects {
		fmt.Fprintf(&b, "\t%sRegisterTypeOf(%q, (*%s)(nil))\n", p, s.Plan.Name, s.TypeExpr())
		for _, a := range s.Adapters() {
			adapters[a] = true
		}
		exprs := s.MethodExprs() // methods reflection cannot call by name
		for _, m := range slices.Sorted(maps.Keys(exprs)) {
			fmt.Fprintf(&b, "\t%sRegisterMethod(%q, %q, %s)\n", p, s.Plan.Name, m, exprs[m])
		}
		for _, f := range s.Funcs {
			funcs[f.Name] = f.Expr
			if f.Pkg != nil {
				funcs[f.Name] = imports[f.Pkg.Path()] + "." + f.Expr
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(funcs)) {
		fmt.Fprintf(&b, "\t%sRegisterFunc(%q, %s)\n", p, name, funcs[name])
	}
	for _, name := range slices.Sorted(maps.Keys(adapters)) {
		fmt.Fprintf(&b, "\t%sRegisterTypeOf(%q, (*%s)(nil))\n", p, name, name)
	}
	for _, key := range slices.Sorted(maps.Keys(stubNames)) {
		fmt.Fprintf(&b, "\t%sRegisterTypeOf(%q, (*%s)(nil))\n", p, key, stubNames[key])
	}
	fmt.Fprintf(&b, "}\n\nfunc %s(%st *%stesting.T) {\n\tif %serr := %sServe(); %serr != nil {\n\t\t%st.Fatal(%serr)\n\t}\n}\n",
		names.Test, p, p, p, p, p, p, p)
	b.WriteString(stubs)
	return b.Bytes()
}

// stubDecls returns the declarations of the subjects' stub types (see
// testgen.StubSource), named with prefix p, and their names by key. It
// adds the packages their signatures name to imports, under prefixed
// names.
func stubDecls(p string, subjects []*testgen.Subject, imports map[string]string) (string, map[string]string) {
	names := map[string]string{}
	ifaces := map[string]*types.Named{}
	var pkg *types.Package
	for _, s := range subjects {
		pkg = s.Pkg
		for _, key := range s.StubKeys() {
			if names[key] == "" {
				names[key] = fmt.Sprintf("%sStub%d", p, len(names))
				ifaces[key] = s.Stub(key)
			}
		}
	}
	qual := func(q *types.Package) string {
		if q.Path() == pkg.Path() {
			return ""
		}
		if imports[q.Path()] == "" {
			imports[q.Path()] = fmt.Sprintf("%simport%d", p, len(imports))
		}
		return imports[q.Path()]
	}
	stubName := func(n *types.Named) string { return names[testgen.StubKey(n)] }
	var b strings.Builder
	for _, key := range slices.Sorted(maps.Keys(names)) {
		b.WriteString(testgen.StubSource(ifaces[key], names[key], qual, stubName))
	}
	return b.String(), names
}

// HarnessFiles returns the files a child adds to package pkgName: the
// harness and the registration file, keyed by their names in the package
// directory.
func HarnessFiles(pkgName string, names Names, subjects []*testgen.Subject) (map[string][]byte, error) {
	files, err := Rewrite(pkgName, names.Prefix)
	if err != nil {
		return nil, err
	}
	files["register.go"] = Registration(pkgName, names, subjects)
	out := map[string][]byte{}
	for name, src := range files {
		if name == harness.HookFile {
			out["zz_depcon_"+name] = src
			continue
		}
		out["zz_depcon_"+strings.TrimSuffix(name, ".go")+"_test.go"] = src
	}
	return out, nil
}

// WriteOverlay writes in work the files, keyed by their names in the
// package directory dir, and the overlay file that adds them to the
// package and hides the package's own test files, which play no part.
// It returns the overlay file's path.
func WriteOverlay(work, dir string, files map[string][]byte) (string, error) {
	stage := filepath.Join(work, "overlay")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return "", fmt.Errorf("writing the overlay: %w", err)
	}
	replace := map[string]string{}
	for name, src := range files {
		if name != filepath.Base(name) || !strings.HasSuffix(name, ".go") {
			return "", fmt.Errorf("writing the overlay: %q is not the name of a Go file", name)
		}
		tmp := filepath.Join(stage, name)
		if err := os.WriteFile(tmp, src, 0o644); err != nil {
			return "", fmt.Errorf("writing the overlay: %w", err)
		}
		replace[filepath.Join(dir, name)] = tmp
	}
	tests, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", fmt.Errorf("listing the tests of %s: %w", dir, err)
	}
	for _, t := range tests {
		if _, ours := replace[t]; !ours {
			replace[t] = "" // hidden
		}
	}
	b, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "\t")
	if err != nil {
		return "", fmt.Errorf("writing the overlay: %w", err)
	}
	ov := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(ov, b, 0o644); err != nil {
		return "", fmt.Errorf("writing the overlay: %w", err)
	}
	return ov, nil
}
