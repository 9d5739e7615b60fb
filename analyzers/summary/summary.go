package summary

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/depcon/depcon/analyzers/internal/lockstate"
)

// A Summary describes what a function may do to memory reachable from its
// parameters, its free variables and package-level variables: its shared
// accesses (AS), the locks held at each of them (from which LS is derived),
// and its lock acquisitions together with the locks held at that point
// (from which DS, self-deadlocks and RWR deadlocks are derived).
//
// Locations and locks are access paths relative to the function (see
// Paths), so that a caller can map them onto its own locations.
type Summary struct {
	Accesses []Access
	Acquires []Acquire
	// Exit lists the locks the function acquires and still holds on
	// every return (a "lock()" helper); Released lists the locks it
	// may release without having acquired them (an "unlock()" helper).
	Exit     []Held
	Released []string
	// Truncated is set when the summary was cut at its size limit, or
	// applies the summary of a callee that was: accesses, acquisitions
	// or releases may be missing. The deps and unguarded analyzers read
	// it (a cut summary's pairs are all kept; nothing is said of the
	// fields of its type).
	Truncated bool
	// Foreign is set when the function may access package variables of
	// other packages. Those accesses are not listed: they are the
	// private state of the package that declares them (see Foreign).
	Foreign bool
	// FuncCalls lists the calls the function makes of function values
	// its caller gives it (see FuncCall).
	FuncCalls []FuncCall
}

// A FuncCall is a call of a function value that a function is given: a
// parameter or a free variable ("$1", "$f0"), called by the function or
// by a callee it passes the value to. A caller that passes a function
// it knows (a function literal, a function, a method value) where the
// call happens in a goroutine applies that function's summary as the
// goroutine's: a helper that runs its argument in a goroutine
// (Wrap(cb func()) { go func() { cb() }() }) starts it for its caller.
type FuncCall struct {
	Fn        string // the root of the function value: "$1", "$f0"
	Goroutine bool   // called in a goroutine the function starts
}

func (c FuncCall) String() string {
	if c.Goroutine {
		return "go " + c.Fn
	}
	return "call " + c.Fn
}

// Flags qualify an access.
type Flags uint16

const (
	Atomic    Flags = 1 << iota // sync/atomic function or atomic type
	SyncMap                     // a sync.Map method
	Map                         // an element of a Go map
	Chan                        // a channel operation (send, receive, close)
	Close                       // close of a channel
	Indirect                    // modelled conservatively: a call to unknown code
	Goroutine                   // performed by a goroutine started by the function
	May                         // one of several possible locations (x := a or b)
	LastRef                     // after the last reference to the object was dropped (see lastRefBlocks)
	OnceInit                    // in the function a sync.Once's Do runs: published to every caller of its Do
)

func (f Flags) String() string {
	var s []string
	for i, name := range []string{"atomic", "sync.Map", "map", "chan", "close", "indirect", "goroutine", "may", "last-ref", "once"} {
		if f&(1<<i) != 0 {
			s = append(s, name)
		}
	}
	return strings.Join(s, ",")
}

// Synchronized reports whether the access is performed by a primitive
// that is safe for concurrent use on its own (atomic, sync.Map, channel).
func (f Flags) Synchronized() bool { return f&(Atomic|SyncMap|Chan) != 0 && f&Close == 0 }

// An Access is a read or a write of a location.
type Access struct {
	Loc   string // access path, see package lockstate
	Write bool
	Flags Flags
	Held  []Held // locks held at the access (must), with the mode
	// Pos and Where locate the access, or the call through which it
	// happens (the outermost one, in this function).
	Pos   token.Pos
	Where string // file:line:col, valid in every package
	Via   string // the callee through which it happens, "" if direct
}

// Held is a lock held at some program point.
type Held struct {
	Lock  string // access path of the lock
	Class string // compatibility class: "pkg.Type.field" of the lock
	Mode  lockstate.Mode
	// Site identifies the acquisition within the summary: two accesses
	// with the same lock held under the same Site are protected by one
	// critical section (unless Broken).
	Site int32
	// Broken is set when the lock was released after an earlier access
	// of the function and acquired again: the accesses before and after
	// the release may interleave with other code.
	Broken bool
	// Repeat is set when this acquisition site may have acquired the
	// lock and released it before (a critical section in a loop): the
	// accesses under it may belong to several critical sections.
	Repeat bool
	Pos    token.Pos // acquisition, when in this package
	Where  string
	Via    string // the callee holding the lock, "" if held by the function
}

func (h Held) String() string { return fmt.Sprintf("%s(%s)", h.Lock, h.Mode) }

// An Acquire is a lock acquisition, with the locks already held.
type Acquire struct {
	Lock  string
	Class string
	Mode  lockstate.Mode
	Held  []Held
	// Pos and Where locate the Lock call, or the call through which it
	// happens (the outermost one, in this function).
	Pos   token.Pos
	Where string
	// Via names the callee through which the acquisition happens
	// ("" when it is direct), for messages.
	Via string
	// Goroutine is set when the acquisition happens in a goroutine
	// started by the function (Held then lists that goroutine's locks).
	Goroutine bool
}

// maxAccesses, maxAcquires, maxReleased and maxFuncCalls bound the size
// of a summary.
const (
	maxAccesses  = 256
	maxAcquires  = 128
	maxReleased  = 16
	maxFuncCalls = 8
)

func heldKey(b []byte, hs []Held) []byte {
	for _, h := range hs {
		b = append(b, h.Lock...)
		b = append(b, '/', byte('0'+h.Mode), '/')
		b = strconv.AppendInt(b, int64(h.Site), 10)
		b = append(b, '/', flag(h.Broken), flag(h.Repeat), ';')
	}
	return b
}

// accessKey and acquireKey append to b what tells two accesses (two
// acquisitions) of a summary apart.
func accessKey(b []byte, a *Access) []byte {
	b = append(b, a.Loc...)
	b = append(b, '|', flag(a.Write), '|')
	b = strconv.AppendUint(b, uint64(a.Flags), 10)
	return heldKey(append(b, '|'), a.Held)
}

func acquireKey(b []byte, a *Acquire) []byte {
	b = append(b, a.Lock...)
	b = append(b, '|', byte('0'+a.Mode), '|', flag(a.Goroutine), '|')
	return heldKey(b, a.Held)
}

func flag(b bool) byte {
	if b {
		return 't'
	}
	return 'f'
}

// normalize sorts and deduplicates the summary, and truncates it.
func (s *Summary) normalize() {
	seen := map[string]bool{}
	var buf []byte
	accs := s.Accesses[:0]
	for _, a := range s.Accesses {
		buf = accessKey(buf[:0], &a)
		if !seen[string(buf)] {
			seen[string(buf)] = true
			accs = append(accs, a)
		}
	}
	if len(accs) > maxAccesses {
		accs, s.Truncated = accs[:maxAccesses], true
	}
	s.Accesses = accs
	clear(seen)
	acqs := s.Acquires[:0]
	for _, a := range s.Acquires {
		buf = acquireKey(buf[:0], &a)
		k := string(buf)
		if !seen[k] {
			seen[k] = true
			acqs = append(acqs, a)
		}
	}
	if len(acqs) > maxAcquires {
		acqs, s.Truncated = acqs[:maxAcquires], true
	}
	s.Acquires = acqs
	sort.Strings(s.Released)
	s.Released = compactStrings(s.Released)
	if len(s.Released) > maxReleased {
		s.Released, s.Truncated = s.Released[:maxReleased], true
	}
	slices.SortFunc(s.FuncCalls, compareFuncCalls)
	s.FuncCalls = slices.Compact(s.FuncCalls)
	if len(s.FuncCalls) > maxFuncCalls {
		s.FuncCalls, s.Truncated = s.FuncCalls[:maxFuncCalls], true
	}
}

// compareFuncCalls orders function calls by root, a goroutine's last.
func compareFuncCalls(a, b FuncCall) int {
	if c := strings.Compare(a.Fn, b.Fn); c != 0 {
		return c
	}
	switch {
	case a.Goroutine == b.Goroutine:
		return 0
	case b.Goroutine:
		return -1
	}
	return 1
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Empty reports whether the summary records nothing.
func (s *Summary) Empty() bool {
	return len(s.Accesses) == 0 && len(s.Acquires) == 0 && len(s.Exit) == 0 && len(s.Released) == 0 &&
		len(s.FuncCalls) == 0
}

// locks reports whether the function may take or release a lock: it
// acquires, holds on return or releases one, or its summary was cut.
// Nil, it does not.
func (s *Summary) locks() bool {
	return s != nil && (len(s.Acquires) > 0 || len(s.Exit) > 0 || len(s.Released) > 0 || s.Truncated)
}

// Fact is the summary analyzer's package fact: the summaries of the
// package's exported functions and methods, for callers in other
// packages, by FactName. Positions are only meaningful as Where strings.
//
// It is one fact about the package rather than one about each function:
// go vet re-exports a fact about a method in the fact file of every
// package downstream, and decodes them all again in each, while a fact
// about a package reaches its direct importers only. A caller sees the
// summaries of the packages it imports; a method of a package it reaches
// only through another (a value of that package's type returned by an
// imported function) is unknown code to it under go vet.
type Fact struct {
	Funcs map[string]*Summary
}

func (*Fact) AFact() {}

func (f *Fact) String() string {
	names := make([]string, 0, len(f.Funcs))
	for name := range f.Funcs {
		names = append(names, name)
	}
	slices.Sort(names)
	var s []string
	for _, name := range names {
		s = append(s, name+": "+f.Funcs[name].String())
	}
	return strings.Join(s, "; ")
}

// FactName returns the name of a function or method in the summary fact
// of its package: "F", or "T.M" for a method of the named type T.
func FactName(obj *types.Func) string {
	obj = obj.Origin()
	recv := obj.Signature().Recv()
	if recv == nil {
		return obj.Name()
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name() + "." + obj.Name()
	}
	return "?." + obj.Name() // an interface method: no summary
}

// String renders the summary compactly, one item per access ("R $0.buf
// {$0.mu:W}", "W $0.n (atomic)"), per acquisition ("L $0.mu:W {…}") and
// per call of a function value ("go $1", "call $f0"); a held lock is
// marked "!" when Broken and "*" when Repeat.
func (s *Summary) String() string {
	var items []string
	held := func(hs []Held) string {
		if len(hs) == 0 {
			return ""
		}
		var ls []string
		for _, h := range hs {
			l := h.Lock + ":" + h.Mode.String()
			if h.Broken {
				l += "!"
			}
			if h.Repeat {
				l += "*"
			}
			ls = append(ls, l)
		}
		return " {" + strings.Join(ls, ",") + "}"
	}
	for _, a := range s.Accesses {
		rw := "R"
		if a.Write {
			rw = "W"
		}
		item := rw + " " + a.Loc
		if a.Flags != 0 {
			item += " (" + a.Flags.String() + ")"
		}
		items = append(items, item+held(a.Held))
	}
	for _, a := range s.Acquires {
		items = append(items, "L "+a.Lock+":"+a.Mode.String()+held(a.Held))
	}
	sort.Strings(items)
	items = compactStrings(items)
	for _, h := range s.Exit {
		items = append(items, "exit "+h.Lock+":"+h.Mode.String())
	}
	for _, r := range s.Released {
		items = append(items, "release "+r)
	}
	for _, c := range s.FuncCalls {
		items = append(items, c.String())
	}
	return strings.Join(items, "; ")
}
