package contract

import (
	"regexp"
	"strings"
)

// What a type's documentation, or its package's, says of its use from
// several goroutines.

// safePhrases match the doc comments that say a type is meant to be used
// from several goroutines.
var safePhrases = regexp.MustCompile(`(?i)\b(safe (for|to use for) concurren(t|cy)( use| access)?( by (multiple|several|many) goroutines)?|concurrency[- ]safe|thread[- ]safe|goroutine[- ]safe|safe (for use )?(by|from|across|with) (multiple|several|concurrent) goroutines|(may|can) be (used|shared|accessed) (concurrently|by|from|between|across) (multiple |several )?goroutines|safe to (use|call|share|access)\b[^.;]{0,40}?\b(concurrently|simultaneously|(from|by|across|between) (multiple|several|many|different|concurrent) goroutines)|immutable)\b`)

// negation matches a negation just before a phrase: "not safe for
// concurrent use", "is not thread-safe", "isn't goroutine-safe", "a
// non-thread safe cache".
var negation = regexp.MustCompile(`(?i)(\bnot|n't|\bnever|\bnon)\W*(\w+\W+){0,2}$`)

// Safe returns the phrase of a doc comment saying the type is safe for
// concurrent use, or "".
func Safe(doc string) string {
	return safe(strings.Join(strings.Fields(doc), " "))
}

// safe is Safe, on doc with its spaces collapsed.
func safe(doc string) string {
	for _, loc := range safePhrases.FindAllStringIndex(doc, -1) {
		// A negation counts in the phrase's own sentence only: "Do
		// not copy. Thread-safe." is safe.
		before := doc[:loc[0]]
		if i := strings.LastIndexAny(before, ".;:"); i >= 0 {
			before = before[i+1:]
		}
		if negation.MatchString(before) {
			continue
		}
		return strings.ToLower(doc[loc[0]:loc[1]])
	}
	return ""
}

// unsharedPhrases match the doc comments that say a type is for one
// goroutine, or one producer and one consumer. The phrases about one
// goroutine, a single reader or a single writer also occur in sentences
// that restrict nothing (see restricts).
var unsharedPhrases = regexp.MustCompile(`(?i)\b((is |are )?not (safe|thread[- ]safe|goroutine[- ]safe|concurrency[- ]safe)( for concurrent (use|access))?|(must|should) (only )?be used (by|from|in) (a single|one|the same) goroutine|(single|one)[- ](producer|consumer|reader|writer)s?|single[- ]goroutine|one goroutine at a time|spsc|not (be )?(used|called|accessed) concurrently|unsynchronized|unsynchronised)\b`)

// Sentences in which a phrase of unsharedPhrases restricts nothing:
//   - conditional: it is the condition of a clause, about its subject
//     ("if your Writer is not thread safe, wrap it");
//   - otherAgent: it is about what runs the package's own work ("the
//     callback is invoked in a single goroutine at a time", "each call
//     returns in one goroutine at a time", "it starts a single goroutine
//     that flushes"), not about the goroutines of the type's users;
//   - lockModes: it describes a reader-writer lock's modes ("any number
//     of readers or a single writer").
var (
	otherAgent = regexp.MustCompile(`(?i)\b(callbacks?|handlers?|hooks?|listeners?|observers?|functions?|funcs?|(the|each|every) calls?|returns?|invoked|executed|executes|fired|fires|dispatched|delivered|spawns?|starts?|started|launch(es|ed)?|background|worker|(runs?|ran) (in|on))\b`)
	lockModes  = regexp.MustCompile(`(?i)\b(readers?|writers?)\b.*\b(or|and)\b.*\b(single|one)[- ](reader|writer)|\b(lock|mutex|rwmutex)\b`)
	// conditional matches a clause the phrase is the condition of.
	conditional = regexp.MustCompile(`(?i)\b(if|unless|when|whether)\b`)
	agentOnly   = regexp.MustCompile(`(?i)^(single[- ]goroutine|one goroutine at a time)$`)
	roleOnly    = regexp.MustCompile(`(?i)^(single|one)[- ](reader|writer)s?$`)
)

// Unshared returns the phrase of a doc comment saying the type is not
// to be shared between goroutines, or "".
func Unshared(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, sentence := range Sentences(doc) {
		for _, loc := range unsharedPhrases.FindAllStringIndex(sentence, -1) {
			phrase := sentence[loc[0]:loc[1]]
			if restricts(sentence, loc[0], phrase) {
				return strings.ToLower(phrase)
			}
		}
	}
	return ""
}

// callerOrderedPhrases match a sentence that leaves the ordering of the
// calls to their callers: the methods are synchronised with what the
// type does on its own, not with one another ("correctly synchronized as
// long as the caller ensures that invocations have a clear
// happens-before ordering between them", "callers must synchronize
// access").
var callerOrderedPhrases = regexp.MustCompile(`(?i)\b(callers?|users?|clients?) (must |should |needs? to |have to )?` +
	`((synchroni[sz]e|serializ|serialis|coordinate)|` +
	`(ensures?|guarantees?)\b[^.]*?(happens[- ]before|ordering|ordered|synchroni[sz]|serializ|serialis|mutual exclusion|exclusive access|one at a time))`)

// everyMethod matches a sentence about all the methods, or all the
// package's API.
var everyMethod = regexp.MustCompile(`(?i)\b(all|every|any|each)\b`)

// CallerOrdered returns the phrase of doc saying that callers must order
// the calls (callerOrderedPhrases), or "". For a package's doc, typ
// names the type: the sentence must name it or speak of all the
// methods ("All cron methods"), not of another type.
func CallerOrdered(doc, typ string) string {
	if doc = strings.Join(strings.Fields(doc), " "); !callerOrderedPhrases.MatchString(doc) {
		return ""
	}
	return callerOrdered(doc, typ)
}

// callerOrdered is CallerOrdered, on doc with its spaces collapsed and a
// phrase of callerOrderedPhrases in it.
func callerOrdered(doc, typ string) string {
	var names *regexp.Regexp
	if typ != "" {
		names = regexp.MustCompile(`\b` + regexp.QuoteMeta(typ) + `\b`)
	}
	for _, sentence := range Sentences(doc) {
		loc := callerOrderedPhrases.FindStringIndex(sentence)
		if loc == nil {
			continue
		}
		if names != nil && !names.MatchString(sentence) && !everyMethod.MatchString(sentence) {
			continue
		}
		return strings.ToLower(sentence[loc[0]:loc[1]])
	}
	return ""
}

// restricts reports whether phrase, found at offset at of sentence,
// restricts the use of the type: a phrase about one goroutine does not
// when the sentence is about what runs the package's work (otherAgent
// before it), nor a single reader or writer in the description of a
// lock's modes (lockModes).
func restricts(sentence string, at int, phrase string) bool {
	if conditional.MatchString(sentence[:at]) {
		return false // "If your Writer is not thread safe, …": about the condition's subject
	}
	switch {
	case agentOnly.MatchString(phrase):
		return !otherAgent.MatchString(sentence[:at])
	case roleOnly.MatchString(phrase):
		return !lockModes.MatchString(sentence)
	}
	return true
}

// Sentences splits a documentation text into its sentences: the one
// rule by which depcon test's contract reading and the plan's read them.
func Sentences(text string) []string {
	var out []string
	for _, s := range strings.SplitAfter(text, ". ") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// DocPhrases are what Safe and CallerOrdered find in a doc comment,
// read once: a package's doc, which each of its types consults. The
// zero DocPhrases has none.
type DocPhrases struct {
	text    string // the doc, its spaces collapsed
	safe    string // Safe's phrase
	ordered bool   // some sentence has a phrase of callerOrderedPhrases
}

// ReadDoc reads the phrases of doc.
func ReadDoc(doc string) DocPhrases {
	text := strings.Join(strings.Fields(doc), " ")
	return DocPhrases{text: text, safe: safe(text), ordered: callerOrderedPhrases.MatchString(text)}
}

// Safe returns Safe's phrase of the doc.
func (d DocPhrases) Safe() string { return d.safe }

// CallerOrdered returns CallerOrdered's phrase of the doc for the type
// typ.
func (d DocPhrases) CallerOrdered(typ string) string {
	if !d.ordered {
		return ""
	}
	return callerOrdered(d.text, typ)
}
