package harness

import "embed"

// Files holds the source files the driver copies into the package under
// test: every file of this package except this one and the tests.
//
//go:embed protocol.go harness.go exec.go setup.go values.go streams.go stacks.go
var Files embed.FS
