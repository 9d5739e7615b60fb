// Package instrument rewrites the source of a package under test with scheduling hooks.
//
// The hooks are the harness's: they let it decide, while a test runs,
// which of its two goroutines goes on. The rewritten files exist only in
// the overlay of the child's build: the user's tree is never written.
//
// The rewriting places calls of the harness's hooks at scheduling points:
//
//   - before every statement that contains an access to a field or
//     package-level variable the pairs share, one of the sites their
//     evidence names, a channel operation or an operation of
//     sync/atomic, in every function of the package (a point): a window
//     inside a callee of the calls under test lies between such points;
//   - around every acquisition of a sync.Mutex or sync.RWMutex: a point
//     before it, and a Locked hook after it; the acquisition itself is
//     rewritten as a TryLock that, when it fails, tells the harness that
//     the goroutine is about to block before blocking in Lock, so that a
//     goroutine waiting for a lock is seen as blocked, not as running;
//   - after every release (an Unlocked hook), deferred ones included.
//
// Every edit keeps the statement on its line, so that line numbers in
// stacks and reports are those of the user's files, and the code
// compiles at every language version from go1.13 (TryLock is a method of
// the standard library, not a language feature).
//
// Outside a test, or in a goroutine the harness does not manage, a hook
// returns after loading one atomic flag.
package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// Kinds of sites.
const (
	KindPoint    = "point"    // before a statement
	KindLock     = "lock"     // before an acquisition (a point too)
	KindLocked   = "locked"   // right after an acquisition
	KindUnlocked = "unlocked" // right after a release
	KindWait     = "wait"     // an acquisition that found the lock taken
)

// A Site is one hook call placed in the package.
type Site struct {
	ID   int    `json:"id"`
	Kind string `json:"kind"`
	Pos  string `json:"pos"`  // file:line:col of the statement, file as a base name
	Func string `json:"func"` // the enclosing declared function or method, "(*T).M" or "f"
	// Op is the lock operation of a lock site: "Lock", "RLock",
	// "Unlock", "RUnlock".
	Op string `json:"op,omitempty"`
	// Fields are the wanted fields and package-level variables the
	// statement of a point accesses.
	Fields []string `json:"fields,omitempty"`
	// Calls are the functions and methods of the package the statement
	// of a point calls ("(*T).M" or "f"): a window inside them lies
	// between hooks of theirs.
	Calls []string `json:"calls,omitempty"`
}

// Hooks are the names of the hook functions in the package, as the
// harness declares them once prefixed (see runtime/harness/hook.go).
type Hooks struct {
	Point, Locked, Unlocked, Wait, Unlock string
}

// HooksWithPrefix returns the hook names the harness gets with prefix.
func HooksWithPrefix(prefix string) Hooks {
	return Hooks{Point: prefix + "Point", Locked: prefix + "Locked", Unlocked: prefix + "Unlocked",
		Wait: prefix + "Wait", Unlock: prefix + "Unlock"}
}

// Want says where points go besides the lock operations.
type Want struct {
	// Fields are the names of the struct fields, of types declared in
	// the package, whose accesses get a point.
	Fields map[string]bool
	// Positions are file:line:col positions (file as a base name or a
	// path) of accesses or calls: the statement containing each gets a
	// point.
	Positions []string
}

// Result is the rewritten package.
type Result struct {
	Files map[string][]byte // the rewritten files, by base name
	Sites []Site            // by ID, from 1: Sites[i].ID == i+1
	// At maps each of Want.Positions to the point placed before the
	// statement containing it (absent when none could be placed).
	At map[string]int
	// Calls maps each function and method of the package ("(*T).M" or
	// "f") to those of the package it calls, closures included.
	Calls map[string][]string

	pkg *types.Package
}

// Site returns the site with the given ID, or nil.
func (r *Result) Site(id int) *Site {
	if id < 1 || id > len(r.Sites) {
		return nil
	}
	return &r.Sites[id-1]
}

// Rewrite rewrites files (parsed with fset and type-checked into info;
// src returns a file's source). A file that imports "C" is left alone.
func Rewrite(fset *token.FileSet, files []*ast.File, info *types.Info, src func(name string) ([]byte, error),
	hooks Hooks, want Want) (*Result, error) {
	res := &Result{Files: map[string][]byte{}, At: map[string]int{}, Calls: map[string][]string{}}
	for _, obj := range info.Defs {
		if obj != nil && obj.Pkg() != nil {
			res.pkg = obj.Pkg()
			break
		}
	}
	wantAt := map[string][]string{} // base:line:col → the positions as given
	for _, p := range want.Positions {
		k := basePos(p)
		wantAt[k] = append(wantAt[k], p)
	}
	for _, f := range files {
		if importsC(f) {
			continue
		}
		name := fset.File(f.Pos()).Name()
		text, err := src(name)
		if err != nil {
			return nil, err
		}
		rw := &rewriter{fset: fset, info: info, hooks: hooks, want: want, wantAt: wantAt, res: res,
			tf: fset.File(f.Pos()), text: text, fields: map[ast.Stmt][]string{}}
		rw.file(f)
		if len(rw.edits) == 0 {
			continue
		}
		out, err := apply(text, rw.edits)
		if err != nil {
			return nil, fmt.Errorf("rewriting %s: %w", filepath.Base(name), err)
		}
		res.Files[filepath.Base(name)] = out
	}
	return res, nil
}

func importsC(f *ast.File) bool {
	return slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"C"` })
}

// basePos returns file:line:col with the file as a base name.
func basePos(p string) string {
	file, rest, ok := cutLineCol(p)
	if !ok {
		return p
	}
	return filepath.Base(file) + ":" + rest
}

// cutLineCol splits "file:line:col" into the file and "line:col".
func cutLineCol(p string) (file, lineCol string, ok bool) {
	i := strings.LastIndex(p, ":")
	if i < 0 {
		return "", "", false
	}
	j := strings.LastIndex(p[:i], ":")
	if j < 0 {
		return "", "", false
	}
	return p[:j], p[j+1:], true
}

// An edit inserts Text at Off, or replaces [Off, End) by it.
type edit struct {
	Off, End int
	Text     string
}

// apply applies edits to text: inserts at an offset come before a
// replacement starting there; replacements may not overlap.
func apply(text []byte, edits []edit) ([]byte, error) {
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.Off != b.Off {
			return a.Off - b.Off
		}
		return (a.End - a.Off) - (b.End - b.Off) // inserts (empty) first
	})
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.Off < at {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.Off)
		}
		out.Write(text[at:e.Off])
		out.WriteString(e.Text)
		at = max(e.Off, e.End)
	}
	out.Write(text[at:])
	return out.Bytes(), nil
}

// Reached returns the functions of the package that the calls of site id
// reach, transitively, in a deterministic order.
func (r *Result) Reached(id int) []string {
	s := r.Site(id)
	if s == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	var visit func(fns []string)
	visit = func(fns []string) {
		for _, f := range fns {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
				visit(r.Calls[f])
			}
		}
	}
	visit(s.Calls)
	return out
}
