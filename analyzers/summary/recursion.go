package summary

import "golang.org/x/tools/go/ssa"

// maxRounds bounds the rounds of the fixed-point computation of a
// recursive function's summary: a recursion over a data structure (a
// method that recurses into the children of a tree node) extends its
// paths at every round and never stabilises.
const maxRounds = 3

// recursion computes the summaries of recursive functions to a fixed
// point over their strongly connected component of the call graph, in the
// manner of Tarjan's algorithm: the functions being summarised form a
// stack; a call of a function on the stack (a recursive call) sees that
// function's summary of the previous round (empty at first) and marks the
// callers above it as depending on it. A function that depends on no
// function below it on the stack is the root of its component: its
// summary is recomputed, with those of the component's other functions,
// until it no longer changes or maxRounds is reached. The summaries of the
// other functions of the component are final only once their root's is;
// until then they are kept for the current round only.
type recursion struct {
	stack   []frame
	onStack map[*ssa.Function]int
	partial map[*ssa.Function]*Summary // the previous round's, of roots
	round   map[*ssa.Function]inRound  // non-final, of the current round
	// used counts the summaries handed out that were not final (those
	// of inProgress).
	used int
	// stamps numbers the frames' rounds (frame.stamp), and clears
	// counts the times round was cleared (see version).
	stamps, clears int
}

type frame struct {
	fn    *ssa.Function
	low   int  // the lowest frame whose summary this one depends on
	hit   bool // some function called this one recursively
	stamp int  // the frame's round, unique in the recursion
}

// A version names the summaries that are not final as a computation
// above the stack's top frame sees them: those of the frames up to the
// top one, in their current rounds, and those of round. What was
// computed from them holds while the version does (holds).
type version struct{ depth, stamp, clears int }

// version returns the current version.
func (r *recursion) version() version {
	v := version{depth: len(r.stack), clears: r.clears}
	if v.depth > 0 {
		v.stamp = r.stack[v.depth-1].stamp
	}
	return v
}

// holds reports whether the summaries of version v are still those
// handed out: the frames up to its top one are on the stack, in the same
// rounds (a frame below it cannot leave the stack or begin a round
// without its top one leaving), and round has not been cleared.
func (r *recursion) holds(v version) bool {
	return v.clears == r.clears && len(r.stack) >= v.depth && (v.depth == 0 || r.stack[v.depth-1].stamp == v.stamp)
}

type inRound struct {
	sum *Summary
	low int
}

// depend records that the function on top of the stack depends on frame i.
func (r *recursion) depend(i int) {
	if top := len(r.stack) - 1; top >= 0 && i < r.stack[top].low {
		r.stack[top].low = i
	}
}

// inProgress returns the summary to use for a call of fn while fn, or a
// function of its component, is being summarised.
func (r *recursion) inProgress(fn *ssa.Function) (*Summary, bool) {
	if i, ok := r.onStack[fn]; ok {
		r.used++
		r.stack[i].hit = true
		r.depend(i)
		return r.partial[fn], true
	}
	if e, ok := r.round[fn]; ok {
		r.used++
		r.depend(e.low)
		return e.sum, true
	}
	return nil, false
}

// track begins tracking the dependencies of a computation that is not
// one of the stack's (a specialised summary): those it records from now
// on, on the function on top of the stack, until untrack. It returns
// what untrack needs, and -1 when the stack is empty (every summary
// handed out is then final).
func (r *recursion) track() int {
	top := len(r.stack) - 1
	if top < 0 {
		return -1
	}
	low := r.stack[top].low
	r.stack[top].low = top
	return low
}

// untrack ends what track began, given what it returned: it reports the
// lowest frame the computation depends on (the top one if none) and
// records that dependency on the top frame with those it had.
func (r *recursion) untrack(saved int) int {
	if saved < 0 {
		return -1
	}
	top := len(r.stack) - 1
	low := r.stack[top].low
	r.stack[top].low = min(low, saved)
	return low
}

// reuse records that a summary computed from the summaries that are not
// final of the frame low and above (see track), of a version that still
// holds, is used again: as if computed again.
func (r *recursion) reuse(low int) {
	r.used++
	r.depend(low)
}

// origin returns the generic function of an instantiation without a body
// of its own, fn otherwise.
func origin(fn *ssa.Function) *ssa.Function {
	if fn.Blocks == nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

// solve computes the summary of fn with compute, to a fixed point if fn
// is the root of a recursive component, and calls final with it once it
// is final.
func (r *recursion) solve(fn *ssa.Function, compute func() *Summary, final func(*Summary)) *Summary {
	if r.onStack == nil {
		r.onStack = map[*ssa.Function]int{}
		r.partial = map[*ssa.Function]*Summary{}
		r.round = map[*ssa.Function]inRound{}
	}
	idx := len(r.stack)
	r.onStack[fn] = idx
	r.stamps++
	r.stack = append(r.stack, frame{fn: fn, low: idx, stamp: r.stamps})
	var s *Summary
	for rounds := 1; ; rounds++ {
		s = compute()
		f := &r.stack[idx]
		if f.low < idx || !f.hit || rounds >= maxRounds || key(r.partial[fn]) == key(s) {
			break
		}
		r.partial[fn] = s
		f.hit = false
		r.stamps++
		f.stamp = r.stamps
		clear(r.round)
		r.clears++
	}
	f := r.stack[idx]
	r.stack = r.stack[:idx]
	delete(r.onStack, fn)
	if f.low < idx {
		// fn depends on a function below it, whose summary is not
		// final yet: neither is fn's.
		r.round[fn] = inRound{sum: s, low: f.low}
		r.depend(f.low)
		return s
	}
	if f.hit {
		delete(r.partial, fn)
		clear(r.round)
		r.clears++
	}
	final(s)
	return s
}

// key renders a summary for comparing rounds ("" for none).
func key(s *Summary) string {
	if s == nil {
		return ""
	}
	return s.String()
}
