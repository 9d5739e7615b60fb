package deps

import (
	"regexp"
	"strings"
)

// sequentialRE matches the phrases of a method's documentation that forbid
// calling it concurrently.
var sequentialRE = regexp.MustCompile(`(?i)\b(?:must|should|may) not be (?:called|used|modified|changed|invoked) ` +
	`(?:concurrently|in parallel|while|from (?:multiple|several|more than one) goroutines)|` +
	`\bnot (?:safe for concurrent|thread[- ]safe|goroutine[- ]safe|concurrency[- ]safe)|` +
	`\b(?:is|are) not safe to (?:call|use) concurrently|` +
	`\b(?:must|should) (?:only )?be (?:called|used) (?:only )?(?:from|by|in) (?:a single|one) goroutine at a time|` +
	`\b(?:must|should) (?:only )?(?:call (?:it|this|this method) |be called )(?:just |only )?once\b`)

// SequentialDoc returns the phrase of a method's documentation that
// forbids calling it concurrently ("must not be called concurrently",
// "should not be called in parallel to other data writes", "is not safe
// for concurrent use", "should only be called from a single goroutine at
// a time"), or "". It is the one rule: depcon test never
// runs such a method concurrently (it may run in a prefix), and the
// unguarded analyzer does not take its accesses for racing ones (see
// Method.Sequential).
func SequentialDoc(doc string) string {
	return strings.ToLower(sequentialRE.FindString(strings.Join(strings.Fields(doc), " ")))
}
