package contract

import (
	"regexp"
	"slices"
	"strings"
)

// A method's documentation is evidence of its contract: a method whose
// documentation forbids calling it concurrently (with anything, or with
// a named method) is not tested concurrently with what it names; it may
// still run in a prefix, before the concurrent calls.
var (
	// beforeRE matches "must happen before a Wait", "must be called
	// before Start": the method named must not run concurrently with
	// the one documented.
	beforeRE = regexp.MustCompile(`(?i)\bmust (?:happen|be called|be done|complete|return) before (?:a |an |the |any |calling )?([A-Z]\w*)`)
	// lastRE matches "once all your tasks have been submitted, you must
	// call Wait", "call Close after all writes are done", "you should
	// call the method Close() after all events are fired": method X ends
	// the object's use and must not run concurrently with the calls that
	// change it.
	lastRE = regexp.MustCompile(`(?i)\b(?:once|after|when) all\b[^.;]*?\b(?:must|should) (?:call|invoke) (?:the (?:method )?)?([A-Z]\w*)|` +
		`\b(?:must|should) (?:call|invoke) (?:the (?:method )?)?([A-Z]\w*)(?:\(\))? (?:once|after|when) all\b`)
	// afterRE matches a method's documentation saying no other call may
	// follow it: "Other methods should not be called after the snapshot
	// has been released" (on Release).
	afterRE = regexp.MustCompile(`(?i)\b(?:other |no other )?methods? (?:should|must|may) not be (?:called|used) after\b|` +
		`\bno (?:other )?methods? (?:should|must|may) be called after\b`)
	// raceRE matches a sentence warning that calls overlapping the
	// method documented race: "use ReleaseTimeout() … before rebooting,
	// otherwise you may run into data race". The methods the sentence
	// names must not run concurrently with it.
	raceRE = regexp.MustCompile(`(?i)\botherwise\b[^.]*\brac(?:e|es|y)\b|\bto avoid (?:a |any )?(?:data )?races?\b|` +
		`\b(?:may|can|will) (?:cause|lead to|result in|run into) (?:a |any )?data races?\b`)
	// wordRE matches the words of a sentence.
	wordRE = regexp.MustCompile(`[A-Za-z_]\w*`)
)

// Rules is what the documentation of a type's methods forbids of their
// concurrent calls. A nil *Rules forbids nothing.
type Rules struct {
	Sequential map[string]bool      // methods never called concurrently
	Ordered    map[[2]string]string // pairs never run concurrently (by PairKey), with the phrase
	// Last holds the methods that end the object's use (lastRE), with
	// the phrase: not run concurrently with the methods that change it.
	Last map[string]string
	// Final holds the methods whose documentation says no other call may
	// follow them (afterRE), with the phrase: not run concurrently with
	// the methods that do not synchronise at all, which cannot tell
	// whether the object is still in use (a String racing with Release);
	// those that check under a lock whether it is (a Has returning
	// ErrSnapshotReleased) are still tested.
	Final map[string]string
	// Groups is what the type's or the package's documentation says of
	// the concurrency its methods support in groups.
	Groups Groups
}

// Read reads the rules from the methods' documentation, by
// method name, the type's (typeDoc) and the package's (pkgDoc); methods
// are the names of all the methods.
func Read(docs map[string]string, typeDoc, pkgDoc string, methods []string) *Rules {
	c := &Rules{Sequential: map[string]bool{}, Ordered: map[[2]string]string{}, Last: map[string]string{},
		Final: map[string]string{}, Groups: Groups{free: map[string]string{}}}
	c.Groups.read(typeDoc, methods)
	c.Groups.read(pkgDoc, methods)
	for m, doc := range docs {
		doc = strings.Join(strings.Fields(doc), " ")
		if Sequential(doc) != "" {
			c.Sequential[m] = true
		}
		for _, sub := range beforeRE.FindAllStringSubmatch(doc, -1) {
			if slices.Contains(methods, sub[1]) {
				c.Ordered[PairKey(m, sub[1])] = sub[0]
			}
		}
		for _, sentence := range Sentences(doc) {
			if !raceRE.MatchString(sentence) {
				continue
			}
			for _, named := range named(sentence, methods) {
				if named != m {
					c.Ordered[PairKey(m, named)] = sentence
				}
			}
		}
		c.readLast(doc, methods)
		if phrase := afterRE.FindString(doc); phrase != "" {
			c.Final[m] = phrase
		}
	}
	c.readLast(strings.Join(strings.Fields(typeDoc), " "), methods)
	return c
}

// readLast records the methods a documentation says end the object's
// use (lastRE).
func (c *Rules) readLast(doc string, methods []string) {
	for _, sub := range lastRE.FindAllStringSubmatch(doc, -1) {
		for _, m := range sub[1:] {
			if slices.Contains(methods, m) {
				c.Last[m] = sub[0]
			}
		}
	}
}

// named returns the methods a sentence names, and with each the methods
// whose names extend it (a warning naming Release covers ReleaseTimeout
// and ReleaseContext, the variants of one operation).
func named(sentence string, methods []string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(sentence, -1) {
		if !slices.Contains(methods, w) {
			continue
		}
		for _, m := range methods {
			if strings.HasPrefix(m, w) && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// BeforeNamed returns the method that a "must happen before X" phrase
// of Ordered names (X), or "" for a phrase of another kind (a warning of
// races names its methods itself).
func BeforeNamed(phrase string) string {
	if sub := beforeRE.FindStringSubmatch(phrase); sub != nil {
		return sub[1]
	}
	return ""
}

// Forbids returns what in the documentation keeps m1 and m2 from running
// concurrently ("" when nothing does).
func (c *Rules) Forbids(m1, m2 string) string {
	if c == nil {
		return ""
	}
	if phrase, ok := c.Ordered[PairKey(m1, m2)]; ok {
		return phrase
	}
	for _, m := range []string{m1, m2} {
		if c.Sequential[m] {
			return m + " is documented not to run concurrently with other calls"
		}
	}
	return c.Groups.forbids(m1, m2)
}

// Allows reports whether m1 and m2 may run concurrently.
func (c *Rules) Allows(m1, m2 string) bool {
	if c == nil {
		return true
	}
	_, ordered := c.Ordered[PairKey(m1, m2)]
	return !c.Sequential[m1] && !c.Sequential[m2] && !ordered && c.Groups.forbids(m1, m2) == ""
}

// PairKey is the key of the pair of methods a and b in Ordered.
func PairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
