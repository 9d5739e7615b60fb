package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A Path is an SSA value expressed as an access path (see the package
// documentation): Str is the path, Loaded reports whether the value was
// read from memory (steps from it go through the reference), and Class is
// the compatibility class of the location, for locks.
type Path struct {
	Str    string
	Loaded bool
	Class  string
}

// Location returns the location a load or store through the value (an
// address) accesses.
func (p Path) Location() string { return path{p.Str, p.Loaded, p.Class}.location() }

// Step extends the address p with a field or element step ("." + name, or
// "[*]").
func (p Path) Step(s string) string { return path{p.Str, p.Loaded, p.Class}.step(s) }

// A Namer names the SSA values of one function by access paths, under
// two policies: Paths, the summaries' (where a value may point, elements
// collapsed, nothing local), and Exact, the lock flows' (one path, exact
// indices, local roots; see exact.go). Other analyzers name locations
// with it, so that they and the summaries never disagree on a path.
type Namer struct{ r *resolver }

// NewNamer returns a namer for the values of fn.
func NewNamer(fn *ssa.Function) *Namer { return &Namer{newResolver(fn)} }

// Paths returns the access paths v may denote under the summaries'
// policy (nil when v is local or unknown).
func (n *Namer) Paths(v ssa.Value) []Path { return exported(n.r.paths(v)) }

// CellContents returns the paths stored in a local variable that is only
// ever assigned values with paths (as a captured receiver is), or nil.
func (n *Namer) CellContents(cell *ssa.Alloc) []Path { return exported(n.r.cellContents(cell)) }

// ThroughField maps a callee's location tail rooted at v, a struct local
// to the function (a wrapper made to call a method: view{r}, &cb{s: s}),
// onto the value its first field holds when the function stores exactly
// one value there: ".x->mu" with x holding the caller's $1 is "$1.mu";
// ".x", loaded, is the value $1 itself. It returns nil when v is no such
// struct or the location lies within it.
func (n *Namer) ThroughField(v ssa.Value, tail string, loaded bool) []Path {
	if localStruct(v) == nil {
		return nil
	}
	return exported(n.r.throughField(v, tail, loaded))
}

// IntoField maps rest, the steps of a callee's location after a field of
// a wrapper struct that holds a value with paths contents, onto those
// paths (see ThroughField).
func IntoField(contents []Path, rest string, loaded bool) []Path {
	var ps []path
	for _, p := range contents {
		ps = append(ps, path{p.Str, p.Loaded, p.Class})
	}
	return exported(intoField(ps, rest, loaded))
}

// StepLen returns the length of the first step of a location's tail
// (".x" or "[*]").
func StepLen(tail string) int { return stepLen(tail) }

// FieldOf returns the name of field i of the struct t (or *t) points to,
// and its class "pkg.Type.field".
func FieldOf(t types.Type, i int) (name, class string) { return fieldOf(t, i) }

func exported(ps []path) []Path {
	if ps == nil {
		return nil
	}
	out := make([]Path, len(ps))
	for i, p := range ps {
		out[i] = Path{p.str, p.loaded, p.class}
	}
	return out
}

// ExtendTail appends a callee's path tail (".x", "[*]", "->y", "") to p,
// the caller's path of the argument the callee's root stands for: how a
// callee's location is mapped onto its caller's.
func ExtendTail(p Path, tail string) string { return extendTail(path{p.Str, p.Loaded, p.Class}, tail) }

// ParseIndex returns the number s spells in decimal digits ("0" in "$0"),
// or -1.
func ParseIndex(s string) int { return atoi(s) }

// SyncMethod returns the full name ("(*sync.Mutex).Lock") of fn when it is
// a function or method of sync or sync/atomic, "" otherwise: the calls the
// analyzers model rather than follow.
func SyncMethod(fn *ssa.Function) string { return syncMethod(fn) }

// InstrPos returns the position the summaries give an instruction's
// accesses: its own, its first operand's that has one, or fn's.
func InstrPos(instr ssa.Instruction, fn *ssa.Function) token.Pos { return instrPos(instr, fn) }

// Reaches reports whether a path of one or more edges leads from block
// from to block to; Reaches(b, b) reports whether b is in a loop.
func Reaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		if !seen[b] {
			seen[b] = true
			work = append(work, b.Succs...)
		}
	}
	return false
}
