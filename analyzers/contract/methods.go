package contract

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

// Sequential returns the phrase of a method's documentation that
// forbids calling it concurrently ("must not be called concurrently",
// "should not be called in parallel to other data writes", "is not safe
// for concurrent use", "should only be called from a single goroutine at
// a time"), or "". It is the one rule: depcon test never
// runs such a method concurrently (it may run in a prefix), and the
// unguarded analyzer does not take its accesses for racing ones (see
// deps.Method.Sequential).
func Sequential(doc string) string {
	return strings.ToLower(sequentialRE.FindString(strings.Join(strings.Fields(doc), " ")))
}

// setUpPhrases match the documentation of a method to call before the
// object is used or shared.
var setUpPhrases = regexp.MustCompile(`(?i)\b((must|should) (only )?be called (once |only once )?(before|prior to) ` +
	`(\w+ )?(use|using|any|calling|invoking|starting|serving|sharing|the first|\w+ is (used|started|shared)|it is (used|started|shared)|` +
	`(submitt|send|enqueu|add|push|publish|writ|read|process|schedul|dispatch|post|emit|consum|produc|acquir|request)ing)|` +
	`call (it |this( method)? )?(once )?before (using|use|any other|the first|starting|serving|sharing)|` +
	`only (be )?called (once|during (initiali[sz]ation|setup|set-up|construction))|` +
	`(during|at) (initiali[sz]ation|setup|set-up) (time|only)|before (it|the \w+) is (used|shared|started))`)

// SetUp returns the phrase of a method's documentation that says to
// call it before use, or "". A phrase whose subject is something the
// method is given or runs ("f will only be called once", "the callback is
// only called once") is not about the method.
func SetUp(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, sentence := range Sentences(doc) {
		for _, loc := range setUpPhrases.FindAllStringIndex(sentence, -1) {
			if !aboutOther(sentence[:loc[0]]) {
				return strings.ToLower(sentence[loc[0]:loc[1]])
			}
		}
	}
	return ""
}

// auxiliary reports whether w, lower case, is a word that stands between
// a clause's subject and its verb.
func auxiliary(w string) bool {
	switch w {
	case "will", "would", "must", "should", "can", "may", "is", "are", "be", "only", "also", "then", "not":
		return true
	}
	return false
}

// aboutOther reports whether the clause that ends with before has for
// subject something other than the method: a parameter (a short
// lower-case name: f, fn, cb) or a function, callback or handler it is
// given (otherAgent).
func aboutOther(before string) bool {
	words := strings.Fields(before)
	for len(words) > 0 && auxiliary(strings.ToLower(words[len(words)-1])) {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return false
	}
	if n := len(words); n >= 2 {
		switch strings.ToLower(words[n-2] + " " + words[n-1]) {
		case "this function", "this method", "the method", "this func":
			return false // the method itself
		}
	}
	subject := strings.Trim(words[len(words)-1], ",;:()`'\"")
	if len(subject) <= 3 && subject != "" && subject == strings.ToLower(subject) && subject != "it" {
		return true
	}
	return otherAgent.MatchString(strings.Join(words[max(0, len(words)-3):], " "))
}

// lockOffRE matches the documentation of a method that turns the type's
// synchronisation off ("disables locking", "the user can choose to
// disable the lock", "no longer thread-safe").
var lockOffRE = regexp.MustCompile(`(?i)\b(disables?|disabling|turns? off|switch(es)? off|removes?)\b[^.]{0,40}\b(locking|lock|locks|mutex(es)?|synchroni[sz]ation|thread[- ]safety|concurrency safety)\b|` +
	`\b(no longer|not) (be )?(thread[- ]safe|safe for concurrent use|synchroni[sz]ed|goroutine[- ]safe)\b`)

// LockOff returns the phrase of a method's documentation that says it
// turns the type's synchronisation off (lockOffRE), or "".
func LockOff(doc string) string {
	return lockOffRE.FindString(strings.Join(strings.Fields(doc), " "))
}

// inexactRE matches documentation that says a method's result or effect
// is not exact under concurrency, or depends on it by design: approximate
// counts, best-effort sets that may drop a value, eventually consistent
// views, a result that says whether another caller's call was in flight
// (singleflight's shared), an arbitrary choice (a set's Pop "removes and
// returns an arbitrary item", which map order decides), or work that
// completes later ("returns a future that can be used to wait for the
// task to complete").
var inexactRE = regexp.MustCompile(`(?i)\b(?:approximat\w*|estimat\w*|best[- ]effort|eventual(?:ly)?|` +
	`not (?:guaranteed|exact|accurate|atomic|linearizable|consistent)|inaccurate|racy|stale|` +
	`may (?:be )?(?:drop|dropped|lost|rejected|ignored|fail spuriously)|asynchronous(?:ly)?|in the background|` +
	`in[- ]flight|multiple callers|(?:another|other|concurrent) callers?|duplicate (?:calls?|callers?|requests?)|` +
	`refresh(?:es|ed)?|without waiting|for diagnostics|may (?:be )?differ(?:ent)?|arbitrary|at random|randomly|` +
	`in (?:no particular|(?:an )?unspecified|random) order|returns? a (?:future|promise))\b`)

// Inexact reports whether a method's documentation says its result or
// effect is not exact under concurrency (inexactRE): the
// linearizability oracle has no measure for it.
func Inexact(doc string) bool {
	return inexactRE.MatchString(strings.Join(strings.Fields(doc), " "))
}

// consumesRE matches documentation saying that what a method is given
// must not be used after the call ("The buffer mustn't be accessed after
// returning to the pool", "Put takes ownership of b").
var consumesRE = regexp.MustCompile(`(?i)\b(?:must ?n[o']t|should ?n[o']t|may not|cannot|can't|must never) be ` +
	`(?:used|accessed|touched|modified|read|written|reused)\b[^.]{0,60}\bafter\b|\btakes? ownership\b|` +
	`\b(?:must ?n[o']t|should ?n[o']t|may not|must never) (?:use|access|touch|modify|reuse)\b[^.]{0,60}\bafter\b`)

// Consumes reports whether a method's documentation says that what it
// is given must not be used after the call (consumesRE).
func Consumes(doc string) bool {
	return consumesRE.MatchString(strings.Join(strings.Fields(doc), " "))
}
