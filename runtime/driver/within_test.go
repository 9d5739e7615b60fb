package driver

import (
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/stacks"
)

// raceReport builds a race report whose accesses run the given stacks
// (function lines, innermost first) and whose goroutines were created at
// the given stacks; file lines are made up.
func fakeRace(access0, access1, created0, created1 []string) string {
	var b strings.Builder
	b.WriteString("WARNING: DATA RACE\n")
	section := func(head string, funcs []string) {
		b.WriteString(head + "\n")
		for _, f := range funcs {
			b.WriteString("  " + f + "\n      /src/p/p.go:10 +0x1\n")
		}
		b.WriteString("\n")
	}
	section("Write at 0x00c000012345 by goroutine 8:", access0)
	section("Previous read at 0x00c000012345 by goroutine 7:", access1)
	section("Goroutine 8 (running) created at:", created0)
	section("Goroutine 7 (finished) created at:", created1)
	return b.String()
}

// TestRaceCalls checks how the accesses of a race are attributed to the
// calls of a test: within one call (its goroutine and one it started,
// concurrent or sequential), between two sequential calls, or to the
// pair.
func TestRaceCalls(t *testing.T) {
	const p = "depconH"
	invoke := []string{"runtime.call32()", "reflect.Value.Call()", "example.com/p." + p + "invoke()"}
	call := func(m string, runs ...string) []string {
		return append(append([]string{"example.com/p.(*T)." + m + "()"}, invoke...), runs...)
	}
	a := "example.com/p." + p + "suffixA()"
	b := "example.com/p." + p + "suffixB()"
	step := "example.com/p.(*" + p + "execution).step.func1()"
	harness := []string{"example.com/p.(*" + p + "execution).concurrent()"}
	for _, tc := range []struct {
		name               string
		report             string
		within, sequential string
	}{
		{"a goroutine of the first call and the call",
			fakeRace([]string{"example.com/p.(*T).Fetch.func1()"}, call("Fetch", a), call("Fetch", a), harness),
			"Fetch", ""},
		{"a goroutine of the second call and the call",
			fakeRace([]string{"example.com/p.(*T).Get.func1()"}, call("Get", b), call("Get", b), harness),
			"Get", ""},
		{"the two concurrent calls",
			fakeRace(call("Put", a), call("Get", b), harness, harness), "", ""},
		{"a goroutine of the first call and the second call",
			fakeRace([]string{"example.com/p.(*T).Put.func1()"}, call("Get", b), call("Put", a), harness), "", ""},
		{"a sequential call and its goroutine",
			fakeRace([]string{"example.com/p.(*T).Fetch.func1()"}, call("Fetch", step), call("Fetch", step), harness),
			"Fetch", ""},
		{"a goroutine a sequential call left and a later one",
			fakeRace(call("Stop", step), []string{"example.com/p.(*T).Start.func1()"}, harness, call("Start", step)),
			"", "Start, then Stop"},
		{"a goroutine started by a goroutine of the call",
			fakeRace([]string{"example.com/p.(*T).Fetch.func1.1()"}, call("Fetch", a),
				[]string{"example.com/p.(*T).Fetch.func1()"}, harness), "", ""},
	} {
		within, seq := raceCalls(stacks.ParseRace(tc.report), p)
		if within != tc.within || seq != tc.sequential {
			t.Errorf("%s: within %q, sequential %q; want %q, %q", tc.name, within, seq, tc.within, tc.sequential)
		}
	}
}
