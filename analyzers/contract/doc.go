// Package contract reads what Go documentation says of concurrent use.
//
// It is the one reader of documentation for the analyzers and for depcon
// test: the doc comments of types, methods, interface methods and
// packages as depcon reads them (with their //depcon: directives), the
// phrases that say a type is safe for concurrent use or meant for one
// goroutine, that a method must not run concurrently, is called before
// use, or turns the locking off, and the orderings and groups of calls
// that a type's documentation forbids to overlap (Rules). Package deps
// combines them with the shape of the code into a type's plan.
package contract
