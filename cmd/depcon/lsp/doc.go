// Package lsp implements depcon lsp, a Language Server Protocol (LSP) server for depcon's findings.
//
// It shows them in an editor, next to gopls (which cannot load
// third-party analyzers, golang/go#59869).
//
// The server speaks LSP over standard input and output, with the types
// and the JSON-RPC 2.0 connection of go.lsp.dev/protocol and
// go.lsp.dev/jsonrpc2. It offers:
//
//   - diagnostics: when a Go file is opened or saved, the package of its
//     directory is loaded with go/packages and the analyzer suite
//     (analyzers/suite) runs over it through the analysis checker. Each
//     finding is published with source "depcon", the analyzer's name as
//     code, codeDescription.href the analyzer's pkg.go.dev page, and the
//     finding's related positions as relatedInformation. A position
//     the analyzer gives without an end covers the call, selector or
//     expression statement it names in the package's syntax (all of
//     t.a.Lock() for a finding at its "("), or else the word at it. The last
//     analysis of each package is kept: it is published again, without
//     running the analyzers, when another file of the package is opened
//     or a file is saved unchanged. Analysis is of the files on disk:
//     unsaved edits are seen at the next save.
//   - code lenses: on each type with dependent method pairs (of the deps
//     analyzer's plan), "depcon: N dependent pairs · test" ("(no
//     synchronisation)" before "·" for a type that does not look meant
//     for concurrent use). The lens runs the command depcon.test.
//   - depcon.test (workspace/executeCommand, argument TestArgs) runs
//     depcon test on the type in the background, configured as the
//     command line depcon test FLAGS -type '^Name$' . run in the
//     package's directory (the flags parsed by driver.TestFlags, those of
//     depcon test), so that it finds what the command line finds; it
//     reports through $/progress (the client's token, or
//     one the server creates when the client supports
//     window.workDoneProgress); window/workDoneProgress/cancel stops it.
//     Each violation is published as a diagnostic on the declaration of
//     the first method of its pair (it follows the declaration as the
//     files change, until the type is tested again), with code the
//     violation's kind (race, panic, deadlock, fatal, self-deadlock), its
//     pair and seed in the message, and the other method and the static
//     evidence as related information. A static diagnostic whose pair the run
//     confirmed (the same type, both methods of the pair among those of
//     the diagnostic and its related positions, or static evidence on
//     their lines; the reproducer did not pass) is published again with
//     "confirmed by a generated test" appended; one the run did not
//     reproduce keeps its wording.
//   - a code action "write reproducer test" on a violation's diagnostic,
//     whose command depcon.writeReproducer writes the violation's
//     reproducer _test.go file into the package's directory (it never
//     overwrites a file) and returns its path.
//
// Initialization options (initializationOptions) may set "testFlags"
// (a list of flags of depcon test, such as ["-iters", "50"]: the FLAGS
// above), "budget" (a duration such as "10s": depcon test's -budget) and
// "reproduce" (false for -reproduce=false: violations reported without
// running their reproducers); the flags -test-flags, -budget and
// -reproduce of depcon lsp set the same. -budget and -reproduce=false
// follow the test flags, and the budget of a TestArgs overrides them.
package lsp
