package unguarded

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A layout is the declaration of a struct type as its author grouped it:
// fields separated by blank lines, with their comments. Go code puts a
// mutex above the fields it guards; a mutex named for a purpose
// (pathMu, statsLock) above fields named for it (pathProbing, statsHits)
// tells which fields it is for.
type layout struct {
	fields []fieldDecl
	// conds are the fields that point to a sync.Cond: its L is the
	// struct's own lock (see guardOf).
	conds map[string]bool
}

type fieldDecl struct {
	name    string
	group   int    // index of its group of lines
	comment string // its doc and line comments
}

// structLayout returns the layout of the struct type obj declares in the
// package's files, or nil.
func structLayout(pass *analysis.Pass, obj *types.TypeName) *layout {
	for _, f := range pass.Files {
		if f.Pos() > obj.Pos() || obj.Pos() >= f.End() {
			continue
		}
		var st *ast.StructType
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Pos() == obj.Pos() {
				st, _ = ts.Type.(*ast.StructType)
				return false
			}
			return st == nil
		})
		if st == nil {
			return nil
		}
		l := &layout{conds: condFields(obj)}
		group, end := 0, -1
		for _, fld := range st.Fields.List {
			start := fld.Pos()
			if fld.Doc != nil {
				start = fld.Doc.Pos()
			}
			if line := pass.Fset.Position(start).Line; end >= 0 && line > end+1 {
				group++
			}
			last := fld.End()
			if fld.Comment != nil {
				last = fld.Comment.End()
			}
			end = pass.Fset.Position(last).Line
			comment := fld.Doc.Text() + fld.Comment.Text()
			for _, name := range fld.Names {
				l.fields = append(l.fields, fieldDecl{name: name.Name, group: group, comment: comment})
			}
			if len(fld.Names) == 0 {
				// An embedded field: named by its type.
				l.fields = append(l.fields, fieldDecl{name: embeddedName(fld.Type), group: group, comment: comment})
			}
		}
		return l
	}
	return nil
}

// condFields returns the fields of the struct type obj that point to a
// sync.Cond.
func condFields(obj *types.TypeName) map[string]bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out map[string]bool
	for f := range st.Fields() {
		if _, ptr := f.Type().(*types.Pointer); ptr && lockstate.TypeClass(f.Type()) == "sync.Cond" {
			if out == nil {
				out = map[string]bool{}
			}
			out[f.Name()] = true
		}
	}
	return out
}

func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	}
	return ""
}

// purpose returns what a lock's name says it is for: "path" for pathMx,
// "controlFrame" for controlFrameMutex; "" for mu, mutex or lock.
func purpose(name string) string {
	for _, s := range [...]string{"Mutex", "Mtx", "Mu", "Mx", "Lock", "Lk"} {
		if p, ok := strings.CutSuffix(name, s); ok && len(p) >= 2 {
			return p
		}
	}
	return ""
}

// otherPurpose reports whether lock (a field of the receiver, "$0.pathMx")
// is, by the declaration, for other fields than f ("$0.rand"): the lock
// is named for a purpose, fields named for that purpose follow it in its
// group, and f is neither one of its group's fields after it nor named
// for the purpose, and neither field's comment names the other. Such a
// lock guards a part of the type; the type's other fields are its
// goroutine's, or guarded otherwise, even where they are used under it.
func (l *layout) otherPurpose(lock, f string) bool {
	if l == nil {
		return false
	}
	lname, ok := strings.CutPrefix(lock, "$0.")
	if !ok || !token.IsIdentifier(lname) {
		return false
	}
	fld, ok := field(f)
	if !ok {
		return false
	}
	fname := strings.TrimPrefix(fld, "$0.")
	p := purpose(lname)
	if p == "" || hasPrefixFold(fname, p) {
		return false
	}
	li := -1
	for i, d := range l.fields {
		if d.name == lname {
			li = i
		}
	}
	if li < 0 {
		return false
	}
	confirmed := false
	for _, d := range l.fields[li+1:] {
		if d.group != l.fields[li].group {
			break
		}
		if d.name == fname {
			return false // declared under the lock
		}
		confirmed = confirmed || hasPrefixFold(d.name, p)
	}
	if !confirmed || strings.Contains(l.fields[li].comment, fname) {
		return false
	}
	for _, d := range l.fields {
		if d.name == fname && strings.Contains(d.comment, lname) {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
