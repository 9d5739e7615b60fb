package harness

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// A Goroutine is one goroutine of a dump made by runtime.Stack(buf, true)
// or printed by the runtime on a fatal error.
type Goroutine struct {
	ID    int
	State string // the wait reason: "running", "sync.Mutex.Lock", "chan receive", ...
	Stack string // the goroutine's section of the dump, header included
}

// ParseGoroutines splits a goroutine dump into goroutines. Text before the
// first goroutine header is ignored.
func ParseGoroutines(dump string) []Goroutine {
	var gs []Goroutine
	for _, sec := range strings.Split(dump, "\n\n") {
		sec = strings.TrimLeft(sec, "\n")
		i := strings.Index(sec, "goroutine ")
		if i < 0 {
			continue
		}
		sec = sec[i:]
		header, _, _ := strings.Cut(sec, "\n")
		id, state, ok := parseHeader(header)
		if !ok {
			continue
		}
		gs = append(gs, Goroutine{ID: id, State: state, Stack: sec})
	}
	return gs
}

// parseHeader parses "goroutine 23 [sync.Mutex.Lock, 2 minutes]:".
func parseHeader(h string) (id int, state string, ok bool) {
	rest, ok := strings.CutPrefix(h, "goroutine ")
	if !ok {
		return 0, "", false
	}
	num, rest, ok := strings.Cut(rest, " [")
	if !ok {
		return 0, "", false
	}
	id, err := strconv.Atoi(num)
	if err != nil {
		return 0, "", false
	}
	state, _, ok = strings.Cut(rest, "]")
	if !ok {
		return 0, "", false
	}
	// Drop the wait time and thread lock annotations.
	state, _, _ = strings.Cut(state, ",")
	return id, state, true
}

// Blocked reports whether a goroutine in state waits for another goroutine:
// on a lock, a channel, a condition or a wait group.
func Blocked(state string) bool {
	return LockWait(state) || strings.HasPrefix(state, "chan ") ||
		strings.HasPrefix(state, "select") || state == "sync.Cond.Wait" ||
		state == "sync.WaitGroup.Wait"
}

// LockWait reports whether a goroutine in state waits to acquire a
// sync.Mutex or sync.RWMutex.
func LockWait(state string) bool {
	return strings.HasPrefix(state, "sync.Mutex.") || strings.HasPrefix(state, "sync.RWMutex.") ||
		state == "semacquire"
}

// stateIn returns the state of goroutine id in dump, whether it is kept
// at a scheduling hook, and whether the dump has it.
func stateIn(dump string, id int) (state string, held, found bool) {
	for _, sec := range strings.Split(dump, "\n\n") {
		if gid, st, ok := parseHeader(sec); ok && gid == id {
			return st, heldByScheduler(sec), true
		}
	}
	return "", false, false
}

// currentGoroutine returns the ID of the calling goroutine.
func currentGoroutine() int {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	id, _, _ := parseHeader(string(buf[:n]))
	return id
}

// dumpAll returns the stacks of all goroutines.
func dumpAll() []Goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return ParseGoroutines(string(buf[:n]))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// ownStack returns the stack of the calling goroutine, as
// runtime/debug.Stack does (a package under test may well declare its
// own debug at package level, which the import would collide with).
func ownStack() string {
	buf := make([]byte, 4<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// createdRE finds, in a goroutine's stack, the goroutine that started it.
var createdRE = regexp.MustCompile(`\ncreated by .* in goroutine (\d+)`)

// lockedOffspring returns the stacks of the goroutines that goroutine id
// started, directly or through others, and that wait for a lock: a call
// waiting for its own goroutines while they wait for a lock it holds
// never returns.
func lockedOffspring(dump []Goroutine, id int) []string {
	parent := map[int]int{}
	for _, g := range dump {
		if m := createdRE.FindStringSubmatch(g.Stack); m != nil {
			p, err := strconv.Atoi(m[1])
			if err == nil {
				parent[g.ID] = p
			}
		}
	}
	var out []string
	for _, g := range dump {
		if !LockWait(g.State) {
			continue
		}
		seen := 0
		for p, ok := parent[g.ID]; ok && seen < len(dump); p, ok = parent[p] {
			seen++
			if p == id {
				out = append(out, g.Stack)
				break
			}
		}
	}
	return out
}
