package harness

import "embed"

// Files holds the source files the driver copies into the package under
// test: every file of this package except this one and the tests. All
// become test files of the package but HookFile, which its rewritten code
// calls.
//
//go:embed protocol.go denied.go harness.go exec.go lin.go setup.go values.go streams.go conns.go http.go stacks.go sched.go iteration.go delay.go trace.go hook.go racectl_race.go racectl_norace.go
var Files embed.FS

// HookFile is the file of Files that is added to the package under test as
// an ordinary file.
const HookFile = "hook.go"
