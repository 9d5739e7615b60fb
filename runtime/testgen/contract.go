package testgen

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/harness"
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

// A contract is what the documentation of a type's methods forbids.
type contract struct {
	sequential map[string]bool      // methods never called concurrently
	ordered    map[[2]string]string // pairs never run concurrently, with the phrase
	// last holds the methods that end the object's use (lastRE), with
	// the phrase: not run concurrently with the methods that change it.
	last map[string]string
	// final holds the methods whose documentation says no other call may
	// follow them (afterRE), with the phrase: not run concurrently with
	// the methods that do not synchronise at all, which cannot tell
	// whether the object is still in use (a String racing with Release);
	// those that check under a lock whether it is (a Has returning
	// ErrSnapshotReleased) are still tested.
	final map[string]string
	// groups is what the type's or the package's documentation says of
	// the concurrency its methods support in groups.
	groups groupContract
}

// readContract reads the contract from the methods' documentation, by
// method name, the type's (typeDoc) and the package's (pkgDoc); methods
// are the names of all the methods.
func readContract(docs map[string]string, typeDoc, pkgDoc string, methods []string) *contract {
	c := &contract{sequential: map[string]bool{}, ordered: map[[2]string]string{}, last: map[string]string{},
		final: map[string]string{}, groups: groupContract{free: map[string]string{}}}
	c.groups.readGroups(typeDoc, methods)
	c.groups.readGroups(pkgDoc, methods)
	for m, doc := range docs {
		doc = strings.Join(strings.Fields(doc), " ")
		if deps.SequentialDoc(doc) != "" {
			c.sequential[m] = true
		}
		for _, sub := range beforeRE.FindAllStringSubmatch(doc, -1) {
			if slices.Contains(methods, sub[1]) {
				c.ordered[pairKey(m, sub[1])] = sub[0]
			}
		}
		for _, sentence := range deps.Sentences(doc) {
			if !raceRE.MatchString(sentence) {
				continue
			}
			for _, named := range named(sentence, methods) {
				if named != m {
					c.ordered[pairKey(m, named)] = sentence
				}
			}
		}
		c.readLast(doc, methods)
		if phrase := afterRE.FindString(doc); phrase != "" {
			c.final[m] = phrase
		}
	}
	c.readLast(strings.Join(strings.Fields(typeDoc), " "), methods)
	return c
}

// readLast records the methods a documentation says end the object's
// use (lastRE).
func (c *contract) readLast(doc string, methods []string) {
	for _, sub := range lastRE.FindAllStringSubmatch(doc, -1) {
		for _, m := range sub[1:] {
			if slices.Contains(methods, m) {
				c.last[m] = sub[0]
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

// extend applies each ordering "m must happen before X" to the methods
// that change the same state as m (those that write and are dependent
// on m through a conflict): they are bound by the same contract, though
// only m's documentation may say so ("The first call to Go must happen
// before a Wait" binds TryGo too). A method that ends the object's use
// is ordered after every method it conflicts with (a Wait that closes
// the channel Go sends on); one after which no call may follow, after
// the methods that do not synchronise at all.
func (c *contract) extend(plan *deps.TypePlan) {
	writes := map[string]bool{}
	for _, m := range plan.Methods {
		writes[m.Name] = m.Writes > 0
	}
	for key, phrase := range maps.Clone(c.ordered) {
		if !beforeRE.MatchString(phrase) {
			continue // a warning of races names its methods itself
		}
		documented, named := key[0], key[1]
		if !beforeNames(phrase, named) {
			documented, named = named, documented
		}
		for _, other := range plan.Methods {
			p := plan.Pair(documented, other.Name)
			if other.Name != named && writes[other.Name] && p != nil && p.Has(deps.DepPC) {
				c.ordered[pairKey(other.Name, named)] = phrase
			}
		}
	}
	for m, phrase := range c.last {
		for _, other := range plan.Methods {
			if p := plan.Pair(m, other.Name); other.Name != m && p != nil && p.Has(deps.DepPC) {
				c.ordered[pairKey(m, other.Name)] = phrase
			}
		}
	}
	for m, phrase := range c.final {
		for _, other := range plan.Methods {
			if other.Name != m && other.Unsynchronised {
				c.ordered[pairKey(m, other.Name)] = phrase
			}
		}
	}
}

// beforeNames reports whether the "before" phrase names method m.
func beforeNames(phrase, m string) bool {
	sub := beforeRE.FindStringSubmatch(phrase)
	return sub != nil && sub[1] == m
}

// forbids returns what in the documentation keeps m1 and m2 from running
// concurrently ("" when nothing does).
func (c *contract) forbids(m1, m2 string) string {
	if c == nil {
		return ""
	}
	if phrase, ok := c.ordered[pairKey(m1, m2)]; ok {
		return phrase
	}
	for _, m := range []string{m1, m2} {
		if c.sequential[m] {
			return m + " is documented not to run concurrently with other calls"
		}
	}
	return c.groups.forbids(m1, m2)
}

// allows reports whether m1 and m2 may run concurrently.
func (c *contract) allows(m1, m2 string) bool {
	if c == nil {
		return true
	}
	_, ordered := c.ordered[pairKey(m1, m2)]
	return !c.sequential[m1] && !c.sequential[m2] && !ordered && c.groups.forbids(m1, m2) == ""
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// order moves the calls of methods that must not run concurrently with
// anything to the front of a prefix, before the calls that may leave
// goroutines running ("the limit must not be modified while any
// goroutines in the group are active").
func (c *contract) order(calls []harness.Call) []harness.Call {
	if c == nil || len(c.sequential) == 0 {
		return calls
	}
	slices.SortStableFunc(calls, func(a, b harness.Call) int {
		switch sa, sb := c.sequential[a.Fn], c.sequential[b.Fn]; {
		case sa && !sb:
			return -1
		case !sa && sb:
			return 1
		}
		return 0
	})
	return calls
}
