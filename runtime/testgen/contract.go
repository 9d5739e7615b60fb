package testgen

import (
	"regexp"
	"strings"
)

// A method's documentation is evidence of its contract: a method whose
// documentation forbids calling it concurrently (with anything, or with
// a named method) is not tested concurrently with what it names; it may
// still run in a prefix, before the concurrent calls.
var (
	// sequentialRE matches the phrases that forbid concurrent calls of
	// the method documented.
	sequentialRE = regexp.MustCompile(`(?i)\b(?:must|should|may) not be (?:called|used|modified|changed|invoked) ` +
		`(?:concurrently|in parallel|while|from (?:multiple|several|more than one) goroutines)|` +
		`\bnot (?:safe for concurrent|thread[- ]safe|goroutine[- ]safe|concurrency[- ]safe)|` +
		`\b(?:is|are) not safe to (?:call|use) concurrently`)
	// beforeRE matches "must happen before a Wait", "must be called
	// before Start": the method named must not run concurrently with
	// the one documented.
	beforeRE = regexp.MustCompile(`(?i)\bmust (?:happen|be called|be done|complete|return) before (?:a |an |the |any |calling )?([A-Z]\w*)`)
)

// A contract is what the documentation of a type's methods forbids.
type contract struct {
	sequential map[string]bool      // methods never called concurrently
	ordered    map[[2]string]string // pairs never run concurrently, with the phrase
}

// readContract reads the contract from the methods' documentation, by
// method name.
func readContract(docs map[string]string) *contract {
	c := &contract{sequential: map[string]bool{}, ordered: map[[2]string]string{}}
	for m, doc := range docs {
		doc = strings.Join(strings.Fields(doc), " ")
		if sequentialRE.MatchString(doc) {
			c.sequential[m] = true
		}
		for _, sub := range beforeRE.FindAllStringSubmatch(doc, -1) {
			if _, ok := docs[sub[1]]; ok {
				c.ordered[pairKey(m, sub[1])] = sub[0]
			}
		}
	}
	return c
}

// allows reports whether m1 and m2 may run concurrently.
func (c *contract) allows(m1, m2 string) bool {
	if c == nil {
		return true
	}
	_, ordered := c.ordered[pairKey(m1, m2)]
	return !c.sequential[m1] && !c.sequential[m2] && !ordered
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
