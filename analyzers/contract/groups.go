package contract

import (
	"regexp"
	"slices"
	"strings"
)

// A type's or its package's documentation may give the concurrency its
// methods support in groups, as connections often do: "Connections
// support one concurrent caller to the Receive method and one concurrent
// caller to the Send and Flush methods. No other concurrency is
// supported including concurrent calls to the Do and Close methods." or
// "no more than one goroutine calls the write methods (NextWriter, …)
// concurrently and … no more than one goroutine calls the read methods
// (NextReader, …) concurrently. The Close and WriteControl methods can be
// called concurrently with all other methods."
//
//   - Each "one caller" clause makes a group of the methods it names: two
//     calls of one group never run concurrently.
//   - "No other concurrency" leaves only the pairs across two groups, and
//     the methods said to run concurrently with all others.
//
// A clause binds a type only when every method-like word it names (a
// capitalised word after its first) is one of the type's methods: a
// package's "Connections …" binds its connection types, not its Pool.
var (
	oneCallerRE = regexp.MustCompile(`(?i)\b(?:(?:no more than|at most|only) one (?:goroutine|caller)s?|one concurrent (?:caller|goroutine|reader|writer)s?)\b`)
	exclusiveRE = regexp.MustCompile(`(?i)\bno other concurren(?:cy|t (?:calls?|use))\b|\bother concurren(?:cy|t (?:calls?|use)) (?:is|are) not supported\b`)
	freeRE      = regexp.MustCompile(`(?i)\b(?:can|may) be called concurrently with (?:all|any) other methods\b`)
	capitalRE   = regexp.MustCompile(`\b[A-Z]\w*`)
)

// Groups is what such documentation says of a type.
type Groups struct {
	groups    [][]string        // methods of which two calls never overlap
	phrases   []string          // the clause of each group
	exclusive string            // "no other concurrency": its sentence
	free      map[string]string // methods that may overlap any other, with the sentence
}

// read adds to g what doc says of the concurrency of the methods
// (see Groups).
func (g *Groups) read(doc string, methods []string) {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, sentence := range Sentences(doc) {
		if freeRE.MatchString(sentence) && binds(sentence, methods) {
			for _, m := range named(sentence, methods) {
				g.free[m] = sentence
			}
		}
		locs := oneCallerRE.FindAllStringIndex(sentence, -1)
		for i, loc := range locs {
			end := len(sentence)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			clause := sentence[loc[0]:end]
			if ms := named(clause, methods); len(ms) > 0 && binds(clause, methods) {
				g.groups = append(g.groups, ms)
				g.phrases = append(g.phrases, strings.TrimSpace(clause))
			}
		}
		if exclusiveRE.MatchString(sentence) && (len(g.groups) > 0 || len(named(sentence, methods)) > 0 && binds(sentence, methods)) {
			g.exclusive = sentence
		}
	}
}

// binds reports whether every capitalised word of text but its first
// names a method (or a method its name begins: Do for DoWithTimeout).
func binds(text string, methods []string) bool {
	words := capitalRE.FindAllString(text, -1)
	if len(words) > 0 && strings.HasPrefix(strings.TrimSpace(text), words[0]) {
		words = words[1:]
	}
	for _, w := range words {
		if !slices.ContainsFunc(methods, func(m string) bool { return strings.HasPrefix(m, w) }) {
			return false
		}
	}
	return true
}

// group returns the index of the group of m, or -1.
func (g *Groups) group(m string) int {
	return slices.IndexFunc(g.groups, func(ms []string) bool { return slices.Contains(ms, m) })
}

// forbids returns the clause that keeps m1 and m2 from overlapping, or "".
func (g *Groups) forbids(m1, m2 string) string {
	i, j := g.group(m1), g.group(m2)
	switch {
	case i >= 0 && i == j:
		return g.phrases[i]
	case g.exclusive == "" || g.free[m1] != "" || g.free[m2] != "":
		return ""
	case i >= 0 && j >= 0:
		return "" // across two groups: what the documentation allows
	}
	return g.exclusive
}
