package testgen

import (
	"go/types"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
)

// Boundary-biased literals, by kind of basic type.
var (
	signedLits   = []string{"0", "1", "-1", "2", "3", "16", "max", "min"}
	unsignedLits = []string{"0", "1", "2", "3", "16", "max"}
	floatLits    = []string{"0", "1", "-1", "0.5", "max"}
	complexLits  = []string{"0", "1", "(1+1i)"}
	stringLits   = []string{"", "a", "b", "ab"}
	boolLits     = []string{"false", "true"}
	byteLens     = []int{0, 1, 4, 16}
	// durationLits span a millisecond to a second, tinyDurations a
	// nanosecond and a microsecond: a TTL of 1ns expires while a
	// concurrent call still reads the entry, but a cleanup interval of
	// 1ns keeps a goroutine ticking for as long as its object lives.
	durationLits  = []string{"0", "1000000", "10000000", "1000000000"}
	tinyDurations = []string{"1", "1000"}
	readerData    = []string{"", "a", "hello\nworld\n", "\x00\xff"}
)

// maxDepth bounds the nesting of constructor calls in arguments; a
// builder chain (Build(WithSize(New(), 4))) needs three levels.
const maxDepth = 4

// A valuer generates arguments. others are the shared objects a
// parameter of the type under test may receive.
type valuer struct {
	s      *Subject
	rng    *rand.Rand
	others []int
	// dropped reports whether a constructor is no longer used.
	dropped func(name string) bool
	// same, when set, gives the one literal of each basic kind to use
	// ("string", "int", "uint"): the calls of a test share their keys.
	same map[string]string
	// grow, when positive, makes basic values grow (see CtorProbe);
	// freshNames makes strings fresh (harness.KFresh).
	grow       int
	freshNames bool
	// configs, when set, counts the configurations generated: their
	// bool fields alternate with it (see config).
	configs *int
	// nonNil makes pointers, maps and interfaces not nil where some
	// other value fits: the arguments of a probe retried after a
	// panic, which nil arguments often cause.
	nonNil bool
	// funcs makes the last interface{} parameter of a call a function
	// (On(event, listener interface{})).
	funcs bool
}

// args generates the arguments of a call to a function of signature sig.
// A variadic parameter gets a slice. A string parameter whose name says
// it is a file's gets a relative name, which resolves in the test's own
// directory.
func (v *valuer) args(sig *types.Signature, depth int) []harness.Value {
	var out []harness.Value
	listener := -1 // the parameter funcs makes a function: the last interface{}
	if v.funcs {
		for i := range sig.Params().Len() {
			if u, ok := sig.Params().At(i).Type().Underlying().(*types.Interface); ok && u.Empty() {
				listener = i
			}
		}
	}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if i == listener && depth == 0 {
			out = append(out, harness.Value{K: harness.KFunc})
			continue
		}
		if b, ok := p.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 && namesFile(p.Name()) {
			lits := pathLits
			if namesDir(p.Name()) {
				lits = dirLits
			}
			out = append(out, harness.Value{K: harness.KPath, Lit: lits[v.rng.IntN(len(lits))]})
			continue
		}
		out = append(out, v.value(p.Type(), depth))
	}
	return out
}

// pathLits are the names a parameter naming a file gets, each in a new
// directory of its own (harness.KPath).
var pathLits = []string{"depcon-file", "depcon-dir/file", "depcon-file.tmp", "depcon-dir"}

// dirLits are those a parameter naming a directory gets: mostly the new
// directory itself ("."), which a constructor opening a store in an
// existing directory needs, else a path in it that does not exist yet.
var dirLits = []string{".", ".", "depcon-dir"}

// namesDir reports whether a parameter's name says it names a
// directory.
func namesDir(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "dir") || strings.Contains(n, "folder")
}

// namesFile reports whether a parameter's name says it names a file.
func namesFile(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"path", "file", "dir", "folder", "filename"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// OutsidePath reports whether s, used as a file name, could name a file
// outside the directory the test runs in: absolute, going up, or in a
// home directory. Such strings are never generated.
func OutsidePath(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "~") ||
		strings.Contains(s, "..") || len(s) >= 2 && s[1] == ':'
}

// literals returns the package's string constants that arguments may
// take: those that cannot name a file outside the test's directory.
func (s *Subject) literals() []string {
	var out []string
	for _, l := range s.Literals {
		if !OutsidePath(l) {
			out = append(out, l)
		}
	}
	return out
}

// value generates a value of type t.
func (v *valuer) value(t types.Type, depth int) harness.Value {
	if len(v.others) > 0 && v.s.isSubject(t) {
		return harness.Value{K: harness.KObj, Obj: v.others[v.rng.IntN(len(v.others))]}
	}
	if isError(t) {
		return harness.Value{K: harness.KZero}
	}
	if isContext(t) {
		return v.context()
	}
	if isNamed(t, "net/http", "ResponseWriter") {
		return harness.Value{K: harness.KResponse}
	}
	if p, ok := t.(*types.Pointer); ok && isNamed(p.Elem(), "net/http", "Request") {
		return harness.Value{K: harness.KRequest}
	}
	// A server's Serve(l) gets a listener that closes once the other
	// call has returned; nil now and then.
	if isNamed(t, "net", "Listener") && (v.nonNil || v.rng.IntN(8) != 0) {
		return harness.Value{K: harness.KListener}
	}
	if isNamed(t, "time", "Duration") {
		if v.grow > 0 {
			// A growing probe: 8ms, 64ms, 512ms.
			return harness.Value{K: harness.KLit, Lit: strconv.Itoa(1_000_000 << (3 * v.grow))}
		}
		return harness.Value{K: harness.KLit, Lit: v.duration(depth)}
	}
	if c := v.ctor(t, depth); c != nil {
		return harness.Value{K: harness.KCall, Call: c}
	}
	// A parameter of an enum-like type of the package mostly gets one
	// of the package's constants of that type.
	if n, ok := types.Unalias(t).(*types.Named); ok && v.rng.IntN(4) != 0 {
		if lits := v.s.enums[n.Obj()]; len(lits) > 0 {
			return harness.Value{K: harness.KLit, Lit: lits[v.rng.IntN(len(lits))]}
		}
	}
	if cfg := v.config(t); cfg != nil && (v.grow > 0 || v.rng.IntN(2) == 0) {
		return *cfg
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return v.basic(u)
	case *types.Interface:
		return v.iface(t, u, depth)
	case *types.Slice:
		return v.slice(u, depth)
	case *types.Map:
		// A constructor given a nil map to serve as its store fails in
		// every method that writes: constructors get empty maps.
		if depth == 0 && !v.nonNil && v.rng.IntN(2) == 0 {
			return harness.Value{K: harness.KZero}
		}
		return harness.Value{K: harness.KMap}
	case *types.Chan:
		return harness.Value{K: harness.KChan}
	case *types.Signature:
		return v.callback(u)
	case *types.Pointer:
		if !v.nonNil && v.rng.IntN(4) == 0 {
			return harness.Value{K: harness.KZero}
		}
		return harness.Value{K: harness.KNew}
	}
	return harness.Value{K: harness.KZero}
}

// basic generates a literal of a basic type.
func (v *valuer) basic(b *types.Basic) harness.Value {
	if val, ok := v.grown(b); ok {
		return val
	}
	var lits []string
	switch info := b.Info(); {
	case info&types.IsBoolean != 0:
		lits = boolLits
	case info&types.IsUnsigned != 0:
		if lit, ok := v.same["uint"]; ok {
			return harness.Value{K: harness.KLit, Lit: lit}
		}
		lits = unsignedLits
	case info&types.IsInteger != 0:
		if lit, ok := v.same["int"]; ok {
			return harness.Value{K: harness.KLit, Lit: lit}
		}
		lits = signedLits
	case info&types.IsFloat != 0:
		lits = floatLits
	case info&types.IsComplex != 0:
		lits = complexLits
	case info&types.IsString != 0:
		if lit, ok := v.same["string"]; ok {
			return harness.Value{K: harness.KLit, Lit: lit}
		}
		if lits := v.s.literals(); len(lits) > 0 && v.rng.IntN(3) == 0 {
			return harness.Value{K: harness.KLit, Lit: lits[v.rng.IntN(len(lits))]}
		}
		lits = stringLits
	default: // unsafe.Pointer
		return harness.Value{K: harness.KZero}
	}
	return harness.Value{K: harness.KLit, Lit: v.pick(lits)}
}

// extremeOdds is the chance, one in extremeOdds, that a numeric argument is
// an extreme ("max", "min"): boundary values find bugs, but a size or a
// count of MaxInt makes many constructors and methods run for ever.
const extremeOdds = 16

// pick chooses a literal, the extremes (at the end of lits) rarely.
func (v *valuer) pick(lits []string) string {
	small := len(lits)
	for small > 0 && (lits[small-1] == "max" || lits[small-1] == "min") {
		small--
	}
	if small == len(lits) || small == 0 || v.rng.IntN(extremeOdds) == 0 {
		return lits[v.rng.IntN(len(lits))]
	}
	return lits[v.rng.IntN(small)]
}

// slice generates nil, an empty slice, or a short one; byte slices get
// boundary lengths.
func (v *valuer) slice(s *types.Slice, depth int) harness.Value {
	if v.rng.IntN(5) == 0 {
		return harness.Value{K: harness.KZero}
	}
	if b, ok := s.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
		elems := make([]harness.Value, byteLens[v.rng.IntN(len(byteLens))])
		for i := range elems {
			elems[i] = harness.Value{K: harness.KLit, Lit: "97"}
		}
		return harness.Value{K: harness.KSlice, Elems: elems}
	}
	elems := make([]harness.Value, v.rng.IntN(4))
	for i := range elems {
		elems[i] = v.value(s.Elem(), depth+1)
	}
	return harness.Value{K: harness.KSlice, Elems: elems}
}

// ctor returns a call to a constructor of t, a named type of the package
// other than the type under test (or a pointer to one), or nil.
func (v *valuer) ctor(t types.Type, depth int) *harness.Call {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || depth >= maxDepth || v.s.isSubject(t) {
		return nil
	}
	var fs []*Func
	for _, f := range v.s.byRes[n.Obj()] {
		// Near the bound, a builder's chain must end: only functions.
		chained := f.Sig.Params().Len() > 0 && strings.Contains(f.Name, ".")
		if types.Identical(f.Res, n) && !v.dropped(f.Name) && (!chained || depth+1 < maxDepth) {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	f := fs[v.rng.IntN(len(fs))]
	return &harness.Call{Fn: f.Name, Args: v.args(f.Sig, depth+1)}
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// duration returns a duration, one time in four a tiny one for a
// method, one in sixteen for a constructor (where it is often an
// interval: a goroutine ticking every nanosecond slows every test of the
// object down).
func (v *valuer) duration(depth int) string {
	odds := 4
	if depth > 0 {
		odds = 16
	}
	if v.rng.IntN(odds) == 0 {
		return tinyDurations[v.rng.IntN(len(tinyDurations))]
	}
	return durationLits[v.rng.IntN(len(durationLits))]
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// context returns a context: usually a background one, sometimes one
// already cancelled or about to time out, so that the paths that watch
// it run too.
func (v *valuer) context() harness.Value {
	switch v.rng.IntN(6) {
	case 0:
		return harness.Value{K: harness.KCtx, Lit: "cancelled"}
	case 1:
		return harness.Value{K: harness.KCtx, Lit: "timeout"}
	}
	return harness.Value{K: harness.KCtx}
}

// callback returns a function value: half of those with a result return
// true or 1, so that the callbacks of Range- and ForEach-like methods
// let the iteration go on.
func (v *valuer) callback(sig *types.Signature) harness.Value {
	if f := v.funcOfType(sig); f != nil && v.rng.IntN(4) != 0 {
		// The package's own function of that type (a factory it
		// provides for the parameter) makes what its users pass.
		return harness.Value{K: harness.KFuncRef, Lit: f.Name}
	}
	for i := range sig.Results().Len() {
		b, ok := sig.Results().At(i).Type().Underlying().(*types.Basic)
		if ok && b.Info()&(types.IsBoolean|types.IsNumeric) != 0 && v.rng.IntN(2) == 0 {
			return harness.Value{K: harness.KFunc, Lit: "true"}
		}
	}
	return harness.Value{K: harness.KFunc}
}

// funcOfType returns a function of the package with signature sig (a
// plain function, not a method expression, still in use), or nil.
func (v *valuer) funcOfType(sig *types.Signature) *Func {
	if sig.Results().Len() == 0 {
		return nil
	}
	var fs []*Func
	for _, name := range slices.Sorted(maps.Keys(v.s.Funcs)) {
		f := v.s.Funcs[name]
		if !strings.Contains(f.Name, ".") && !v.dropped(f.Name) && types.Identical(f.Sig, sig) {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return fs[v.rng.IntN(len(fs))]
}

// Small positive values of configuration fields: sizes, counts, limits
// and intervals that a zero would disable or make invalid.
var (
	positiveInts   = []string{"1", "2", "4", "16"}
	positiveFloats = []string{"0.5", "1", "2"}
	// positiveDurations span a millisecond to a second.
	positiveDurations = []string{"1000000", "10000000", "1000000000"}
)

// config returns, for a struct of the package under test (or a pointer
// to one) with exported numeric, duration, bool, func or interface
// fields, a value of it whose numbers are small and positive (a
// configuration the package can work with, where its zero value often
// means "unbounded" or is refused), whose bools are drawn either way (an
// option that enables a path is set in some objects of a run and not in
// others), whose funcs are functions of their type (a constructor may
// need a New func to fill its pool) and whose interfaces with a stub
// are, now and then, a stub. It returns nil for other types.
func (v *valuer) config(t types.Type) *harness.Value {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != v.s.Pkg || v.s.isSubject(t) {
		return nil
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	val := harness.Value{K: harness.KStruct}
	flip := v.rng.IntN(2)
	if v.configs != nil {
		*v.configs++
		flip = *v.configs
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() || f.Embedded() {
			continue
		}
		if sig, ok := f.Type().Underlying().(*types.Signature); ok {
			fv := v.callback(sig)
			fv.Field = f.Name()
			val.Elems = append(val.Elems, fv)
			continue
		}
		if stub := v.s.stubValue(f.Type()); stub != "" && v.rng.IntN(2) == 0 {
			// A required listener or store: a stub, in some objects.
			val.Elems = append(val.Elems, harness.Value{K: harness.KStub, Type: stub, Field: f.Name()})
			continue
		}
		var lits []string
		switch {
		case v.grow > 0 && isNumeric(f.Type()):
			// A growing probe: the numbers agree (InitialCap ≤ MaxIdle ≤
			// MaxCap), as its arguments do.
			lits = []string{v.value(f.Type(), 1).Lit}
		case isNamed(f.Type(), "time", "Duration"):
			lits = positiveDurations
		default:
			b, ok := f.Type().Underlying().(*types.Basic)
			switch {
			case !ok:
			case b.Info()&types.IsInteger != 0:
				lits = positiveInts
			case b.Info()&types.IsFloat != 0:
				lits = positiveFloats
			case b.Info()&types.IsBoolean != 0 && v.s.Plan != nil && v.s.Plan.LockOffFields[n.Obj().Name()+"."+f.Name()] != "":
				// It turns the locking off: left false, as the
				// lock-off switch methods are never called.
			case b.Info()&types.IsBoolean != 0:
				// Each bool either way, in turn.
				lits = boolLits[(flip+i)%2 : (flip+i)%2+1]
			}
		}
		if lits == nil {
			continue
		}
		val.Elems = append(val.Elems, harness.Value{K: harness.KLit, Field: f.Name(), Lit: lits[v.rng.IntN(len(lits))]})
	}
	if len(val.Elems) == 0 {
		return nil
	}
	return &val
}

// isNumeric reports whether t is an integer or floating-point type (a
// time.Duration too).
func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0
}
