// Package objects holds types that depcon test obtains and calls only by
// building objects and arguments the way their users do: composite
// literals, middlewares' function literals, directories that exist,
// generic builders and functions, another package's constructor, HTTP
// requests, listeners, contexts and quit channels that end once the other
// call has returned, stubs of interfaces nothing of the package
// implements, arguments that make a call fail alone, a group that passes
// on sync.WaitGroup's rule, configurations whose numbers must agree,
// listeners kept as interface{} that must be functions, a throttle whose
// Next waits for a trigger. Each file has a buggy type and a correct twin.
package objects
