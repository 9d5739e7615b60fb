package deps

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/analyzers/internal/lockstate"
	"github.com/depcon/depcon/analyzers/summary"
)

// maxSyncDepth bounds how deep concurrentWhy looks for a synchronisation
// primitive through fields, pointers and containers.
const maxSyncDepth = 4

// concurrentWhy says why the type t (of class self) looks meant to be used
// from several goroutines, or returns "" (see TypePlan.Concurrent); recv
// names its receiver (summary.RecvName).
func concurrentWhy(t *summary.Type, self, recv string) string {
	pkg := t.Obj.Pkg()
	if why, _ := ownSync(t.Obj.Type(), pkg); why != "" {
		return why
	}
	for _, m := range t.Methods {
		for _, a := range m.Summary.Accesses {
			if a.Flags&summary.Atomic == 0 {
				continue
			}
			if loc, ok := normalize(m, self, a.Loc); ok && strings.HasPrefix(loc, "T") && ownField(t.Obj.Type(), pkg, loc[1:]) {
				return "atomic operations on " + typeDisplay(loc, recv)
			}
		}
	}
	if why := globalLockWhy(t, self); why != "" {
		return why
	}
	if phrase := contract.Safe(t.Doc); phrase != "" {
		return "doc: " + phrase
	}
	return ""
}

// globalLockWhy says which lock of the package two or more of t's
// methods hold while they access the object's fields, or returns "": a
// package-level mutex that serialises the type's methods is its
// synchronisation (google/logger's Logger, whose output and Close take
// logLock). A single method holding one (a Register that adds the object
// to a registry under the registry's lock) is not.
func globalLockWhy(t *summary.Type, self string) string {
	prefix := lockstate.GlobalRoot(t.Obj.Pkg().Path(), "")
	byLock := map[string][]string{}
	for _, m := range t.Methods {
		for _, a := range m.Summary.Accesses {
			if loc, ok := normalize(m, self, a.Loc); !ok || !strings.HasPrefix(loc, "T") {
				continue
			}
			for _, h := range a.Held {
				if strings.HasPrefix(h.Lock, prefix) && !strings.Contains(h.Lock, "->") &&
					!slices.Contains(byLock[h.Lock], m.Name) {
					byLock[h.Lock] = append(byLock[h.Lock], m.Name)
				}
			}
		}
	}
	for _, lock := range slices.Sorted(maps.Keys(byLock)) {
		if ms := byLock[lock]; len(ms) >= 2 {
			slices.Sort(ms)
			return fmt.Sprintf("its methods %s and %s hold the package's %s", ms[0], ms[1], strings.TrimPrefix(lock, prefix))
		}
	}
	return ""
}

// sharedWithGoroutine says why the type t, with no synchronisation of its
// own, still runs concurrently with its callers: a method starts a
// goroutine that accesses a field of the object which a method also
// accesses outside any goroutine, one of the two writing (a Start whose
// loop reads the jobs an Add appends to). Its calls need not overlap for
// the two to race: the goroutine runs while the caller goes on. The
// goroutine of an iterator (a method returning the channel it feeds) is
// not such a sharing. "" when no goroutine shares a field so.
func sharedWithGoroutine(t *summary.Type, self, recv string) string {
	// A use is an access of a method to a location of the object.
	type use struct {
		method, loc string
		a           summary.Access
	}
	var inside, outside []use
	for _, m := range t.Methods {
		iterator := m.Func != nil && returnsChan(m.Func.Signature)
		for _, a := range m.Summary.Accesses {
			loc, ok := normalize(m, self, a.Loc)
			if !ok || !strings.HasPrefix(loc, "T") || a.Flags.Synchronized() {
				continue
			}
			switch u := (use{m.Name, loc, a}); {
			case a.Flags&summary.Goroutine == 0:
				outside = append(outside, u)
			case !iterator:
				inside = append(inside, u)
			}
		}
	}
	for _, g := range inside {
		for _, o := range outside {
			if (g.a.Write || o.a.Write) && lockstate.Compatible(g.loc, o.loc) {
				return g.method + " starts a goroutine that " + rw(g.a) + " " + typeDisplay(g.loc, recv) +
					", which " + o.method + " " + rw(o.a)
			}
		}
	}
	return ""
}

// returnsChan reports whether sig returns a channel, or an iterator
// holding one (a pointer to a struct with a channel field): a method
// whose goroutine feeds what it returns is an iterator (Iter() <-chan T,
// Iterator() *Iterator), which runs as long as its caller drains it;
// using the object meanwhile is the caller's choice, not the type's
// concurrency.
func returnsChan(sig *types.Signature) bool {
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Chan:
			return true
		case *types.Struct:
			for j := range u.NumFields() {
				if _, ok := u.Field(j).Type().Underlying().(*types.Chan); ok {
					return true
				}
			}
		}
	}
	return false
}

// notShared says why the type t is meant for one goroutine at a time
// although it reaches synchronisation, or returns "" (see
// TypePlan.NotShared). A documentation that says it is safe, the type's
// or its package's, wins over the handle shape.
func notShared(t *summary.Type) string {
	if args, ok := contract.Directive(t.Doc, contract.DirSingleGoroutine); ok {
		return contract.Annotated(contract.DirSingleGoroutine, args)
	}
	if phrase := contract.Unshared(t.Doc); phrase != "" {
		return "doc: " + phrase
	}
	if phrase := contract.CallerOrdered(t.Doc, ""); phrase != "" {
		return "doc: " + phrase
	}
	if phrase := t.PkgDoc.CallerOrdered(t.Obj.Name()); phrase != "" {
		return "package doc: " + phrase
	}
	if contract.Safe(t.Doc) != "" || t.PkgDoc.Safe() != "" {
		return ""
	}
	if why := handleOf(t.Obj.Type(), t.Obj.Pkg()); why != "" {
		return "a handle: " + why
	}
	return ""
}

// handleOf says why a type is a handle, or returns "": it has no
// synchronisation primitive of its own (ownSync), only those of other
// types of its package that it points to (a Tx holding the *DB it was
// begun from, an Event holding its *Bus). A handle is meant for one
// goroutine, or the API that made it says how to share it: its methods
// are not tested concurrently unless -type names it, or its
// documentation says it is safe (see concurrentWhy, which checks the doc
// after the fields and atomics).
func handleOf(t types.Type, pkg *types.Package) string {
	why, owners := ownSync(t, pkg)
	if why != "" || len(owners) == 0 {
		return ""
	}
	if len(owners) == 1 {
		return "it only reaches the synchronisation of " + owners[0] + ", another type of the package"
	}
	return "it only reaches the synchronisation of " + strings.Join(owners, ", ") + ", other types of the package"
}

// ownSync looks for a synchronisation primitive of the type t's own: in
// t, in its fields, behind pointers to its package's other types and in
// containers of them (the shards of a sharded map, the pools of a
// multi-pool: its parts), but not behind a field that points to another
// exported type of the package with methods, which stands on its own
// (the *DB a Tx holds, the *Tx its Bucket holds: theirs), unless the
// field is embedded (its methods are then t's). It returns the
// primitive's path, from the receiver as the type's methods name it
// ("c.mu is a sync.Mutex"), or "", and the types, such as *DB, it did not
// look into that hold one.
func ownSync(t types.Type, pkg *types.Package) (why string, owners []string) {
	s := &syncSearch{pkg: pkg, root: t, own: true, seen: map[types.Type]bool{}}
	return s.find(t, summary.RecvName(t), 0, false, false), s.owners
}

// SyncIn looks for a synchronisation primitive in values of type t,
// whoever's it is: in t itself, in the fields of a struct, behind a
// pointer to a struct type of pkg, in the elements of a slice, array or
// map of such types. It returns "is a sync.Mutex"-style text or "".
func SyncIn(t types.Type, pkg *types.Package) string {
	s := &syncSearch{pkg: pkg, seen: map[types.Type]bool{}}
	return s.find(t, "", 0, false, false)
}

// A syncSearch looks for a synchronisation primitive through fields,
// pointers and containers of a package's types. With own set, it does
// not look behind a field pointing to a standalone type other than root
// and lists such types that hold one in owners (see ownSync).
type syncSearch struct {
	pkg    *types.Package
	root   types.Type
	own    bool
	seen   map[types.Type]bool
	owners []string
}

// find looks in t, at path; field is set when t is the type of a struct
// field, and embedded when that field is embedded.
func (s *syncSearch) find(t types.Type, path string, depth int, field, embedded bool) string {
	if depth > maxSyncDepth || s.seen[t] {
		return ""
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch p := n.Obj().Pkg().Path(); p {
		case "sync", "sync/atomic":
			return path + " is a " + p[strings.LastIndexByte(p, '/')+1:] + "." + n.Obj().Name()
		}
		if depth > 0 && n.Obj().Pkg() != s.pkg && !internalTo(n.Obj().Pkg().Path(), s.pkg.Path()) {
			return "" // another package's type: its synchronisation is its own
		}
	}
	s.seen[t] = true
	defer delete(s.seen, t)
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return path + " is a channel"
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if why := s.find(f.Type(), path+"."+f.Name(), depth+1, true, f.Embedded()); why != "" {
				return why
			}
		}
	case *types.Pointer:
		if depth == 0 {
			break
		}
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && s.own && field && !embedded && s.standalone(n) {
			if SyncIn(n, s.pkg) != "" && !slices.Contains(s.owners, "*"+n.Obj().Name()) {
				s.owners = append(s.owners, "*"+n.Obj().Name())
			}
			return ""
		}
		// Going through a pointer is no step deeper: struct{ *shards }
		// with shards{ cs []*shard } is as deep as struct{ shards } with
		// shards{ cs []shard }.
		return s.find(u.Elem(), path, depth, false, false)
	case *types.Slice:
		return s.find(u.Elem(), path+"[*]", depth+1, false, false)
	case *types.Array:
		return s.find(u.Elem(), path+"[*]", depth+1, false, false)
	case *types.Map:
		return s.find(u.Elem(), path+"[*]", depth+1, false, false)
	}
	return ""
}

// internalTo reports whether the package at path is an internal package
// that the package at user may import (a/internal/store, imported by a
// or a/b): a part of user's own module, whose types hold the
// synchronisation of the exported types that wrap them.
func internalTo(path, user string) bool {
	i := strings.LastIndex(path, "/internal/")
	root := ""
	switch {
	case i >= 0:
		root = path[:i]
	case strings.HasSuffix(path, "/internal"):
		root = strings.TrimSuffix(path, "/internal")
	case strings.HasPrefix(path, "internal/") || path == "internal":
		return false // the standard library's
	default:
		return false
	}
	return user == root || strings.HasPrefix(user, root+"/")
}

// standalone reports whether n is another exported type of the package
// with methods: values of it are used on their own.
func (s *syncSearch) standalone(n *types.Named) bool {
	return n.Obj().Pkg() == s.pkg && n.Obj().Exported() && !types.Identical(n, s.root) &&
		types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// ownField reports whether the path rest (".n", "->shards->[*]->n", …)
// from a value of type t stays within types of pkg: the atomic operations
// of another package's code on its own values (the isDiscard flag of a
// *log.Logger field) do not make the type concurrent.
func ownField(t types.Type, pkg *types.Package, rest string) bool {
	for rest != "" {
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != pkg {
			return false
		}
		deref := strings.HasPrefix(rest, "->")
		if deref {
			rest = rest[2:]
			switch u := t.Underlying().(type) {
			case *types.Pointer:
				t = u.Elem()
			case *types.Slice:
				t = u.Elem()
				rest = strings.TrimPrefix(rest, "[*]")
				continue
			case *types.Map:
				t = u.Elem()
				rest = strings.TrimPrefix(rest, "[*]")
				continue
			default:
				return false
			}
			if rest == "" {
				break
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != pkg {
				return false
			}
			if !strings.HasPrefix(rest, "[") {
				rest = "." + rest
			}
		}
		switch {
		case strings.HasPrefix(rest, "[*]"):
			a, ok := t.Underlying().(*types.Array)
			if !ok {
				return false
			}
			t, rest = a.Elem(), rest[3:]
		case strings.HasPrefix(rest, "."):
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return false
			}
			end := strings.IndexAny(rest[1:], ".[-")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : 1+end]
			found := false
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Name() == name {
					t, found = st.Field(i).Type(), true
					break
				}
			}
			if !found {
				return false
			}
			rest = rest[1+end:]
		case rest == "":
		default:
			return false
		}
	}
	return true
}
