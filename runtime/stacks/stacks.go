// Package stacks reads goroutine dumps, panics and data race reports into structured values.
//
// It reads what the Go runtime and the race detector print about
// goroutines (goroutine dumps, the goroutines of a panic or a fatal
// error, data race reports) once, where a child process's output is
// read. Everything after that (how a defect is keyed, whether a report
// passes through a diagnostic's line, which call of a test an access ran
// in, SARIF's code flows, the language server) reads the values, never
// the text.
package stacks

import (
	"fmt"
	"go/build"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Frame is one call of a stack.
type Frame struct {
	Func string `json:"func"` // "example.com/m.(*T).Put", without arguments
	File string `json:"file"`
	Line int    `json:"line"`
}

// Pos returns the frame's position as "file:line".
func (f Frame) Pos() string { return fmt.Sprintf("%s:%d", f.File, f.Line) }

// Std reports whether the frame is in the standard library: its file is
// under GOROOT or, for a frame without a file, its package path's first
// element has no dot. (A module's path may have none: its files tell.)
func (f Frame) Std() bool {
	if f.File != "" {
		return goroot != "" && strings.HasPrefix(f.File, goroot+"/")
	}
	first, _, slash := strings.Cut(f.Func, "/")
	if !slash {
		first, _, _ = strings.Cut(f.Func, ".")
	}
	return first != "" && !strings.Contains(first, ".") && first != "main"
}

// goroot is the standard library's root.
var goroot = filepath.Clean(build.Default.GOROOT)

// A Stack is one goroutine's stack in a dump, or one access of a data
// race report with the stack that made it.
type Stack struct {
	// Label says what the goroutine was in the test, when whoever made
	// the stack knows: "goroutine 1 (a.Transfer)", "goroutine calling Add".
	Label string `json:"label,omitempty"`
	// Header is the stack's first line as printed, without its colon:
	// "goroutine 253 [sync.Mutex.Lock]", "Previous write at 0x00c000148188
	// by goroutine 78".
	Header    string `json:"header,omitempty"`
	Goroutine int    `json:"goroutine,omitempty"`
	// State is a dump's wait reason: "running", "sync.Mutex.Lock".
	State string `json:"state,omitempty"`
	// Access is a race report's access, lower case, without "previous":
	// "read", "write", "atomic write".
	Access string  `json:"access,omitempty"`
	Frames []Frame `json:"frames,omitempty"` // innermost first
	// Created is where the goroutine was started: the race report's
	// creation stack, or the "created by" frame of a dump. Parent is the
	// goroutine that started it, when the dump says so.
	Created []Frame `json:"created,omitempty"`
	Parent  int     `json:"parent,omitempty"`
}

// Write reports whether the stack is a race's writing access.
func (s Stack) Write() bool { return strings.HasSuffix(s.Access, "write") }

// FirstUser returns the innermost frame outside the standard library.
func (s Stack) FirstUser() (Frame, bool) {
	for _, f := range s.Frames {
		if !f.Std() {
			return f, true
		}
	}
	return Frame{}, false
}

var (
	// "goroutine 23 [sync.Mutex.Lock, 2 minutes]:", and with
	// GOTRACEBACK=system "goroutine 23 gp=0xc000 m=nil [running]:".
	dumpHeaderRE = regexp.MustCompile(`^goroutine (\d+)(?: [^\[]*)? \[([^\]]*)\]:$`)
	// "created by example.com/m.(*T).start in goroutine 7".
	createdByRE = regexp.MustCompile(`^created by (\S+)(?: in goroutine (\d+))?$`)
	// "Previous write at 0x00c000012345 by goroutine 8:",
	// "Read at 0x00c000012345 by main goroutine:".
	raceAccessRE = regexp.MustCompile(`^(.*) at 0x[0-9a-f]+ by (?:goroutine (\d+)|(main) goroutine):$`)
	// "Goroutine 8 (running) created at:".
	raceCreatedRE = regexp.MustCompile(`^Goroutine (\d+) \((?:running|finished)\) created at:$`)
	// "/src/m/m.go:12 +0x4b", "/src/m/m.go:12", "/go/src/runtime/race_amd64.s:237 +0xb".
	fileLineRE = regexp.MustCompile(`^(\S.*):(\d+)(?: \+0x[0-9a-f]+)?$`)
)

// ParseDump returns the goroutines of a dump (runtime.Stack(buf, true),
// debug.Stack, or the goroutines printed with a panic or a fatal error),
// each with its frames and the frame that started it. Lines that belong
// to no goroutine are ignored.
func ParseDump(text string) []Stack {
	var out []Stack
	var cur *Stack
	fn := ""
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if m := dumpHeaderRE.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			state, _, _ := strings.Cut(m[2], ",") // without the wait time, "locked to thread"
			out = append(out, Stack{Header: strings.TrimSuffix(l, ":"), Goroutine: id, State: state})
			cur, fn = &out[len(out)-1], ""
			continue
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(l, "\t") {
			file, line, ok := fileLine(l)
			switch {
			case !ok:
			case strings.HasPrefix(fn, "created by "):
				m := createdByRE.FindStringSubmatch(fn)
				if m != nil {
					cur.Created = append(cur.Created, Frame{Func: m[1], File: file, Line: line})
					cur.Parent, _ = strconv.Atoi(m[2])
				}
			case fn != "":
				cur.Frames = append(cur.Frames, Frame{Func: funcName(fn), File: file, Line: line})
			}
			fn = ""
			continue
		}
		switch {
		case l == "":
			cur = nil // a blank line ends a goroutine
		case strings.HasPrefix(l, "..."): // "...additional frames elided..."
		default:
			fn = l
		}
	}
	return out
}

// ParseRace returns the accesses of a data race report, in the order it
// prints them (the current access, then the previous one), each with the
// stack of its goroutine's creation when the report has it.
func ParseRace(report string) []Stack {
	var out []Stack
	created := map[int]*[]Frame{}
	var frames *[]Frame
	fn := ""
	for _, l := range strings.Split(report, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if m := raceAccessRE.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[2])
			if m[3] != "" {
				id = 1
			}
			access := strings.ToLower(strings.TrimPrefix(m[1], "Previous "))
			access, _, _ = strings.Cut(access, " of size ")
			out = append(out, Stack{Header: strings.TrimSuffix(l, ":"), Goroutine: id, Access: access})
			frames, fn = &out[len(out)-1].Frames, ""
			continue
		}
		if m := raceCreatedRE.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			frames, fn = new([]Frame), ""
			created[id] = frames
			continue
		}
		if frames == nil {
			continue
		}
		switch {
		case strings.HasPrefix(l, "      "):
			if file, line, ok := fileLine(l); ok && fn != "" {
				*frames = append(*frames, Frame{Func: funcName(fn), File: file, Line: line})
			}
			fn = ""
		case strings.HasPrefix(l, "  "):
			fn = strings.TrimSpace(l)
		default:
			frames = nil
		}
	}
	for i := range out {
		if c := created[out[i].Goroutine]; c != nil {
			out[i].Created = *c
		}
	}
	return out
}

// fileLine parses a frame's position line: "\t/src/m/m.go:12 +0x4b".
func fileLine(l string) (file string, line int, ok bool) {
	m := fileLineRE.FindStringSubmatch(strings.TrimSpace(l))
	if m == nil {
		return "", 0, false
	}
	line, err := strconv.Atoi(m[2])
	return m[1], line, err == nil
}

// funcName strips the arguments of a stack's function line:
// "m.(*T).Put(0xc000010000, {0x1, 0x2})" is "m.(*T).Put".
func funcName(s string) string {
	if !strings.HasSuffix(s, ")") {
		return s
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				if i == 0 {
					return s
				}
				return s[:i]
			}
		}
	}
	return s
}

// String renders the stack as its producer printed it, without
// arguments and program counters: the label and header lines, then
// each frame's function and position (indented as a race report does
// for an access, as the runtime does for a goroutine), then the frame
// that started it.
func (s Stack) String() string {
	var b strings.Builder
	if s.Label != "" {
		fmt.Fprintf(&b, "%s:\n", s.Label)
	}
	if s.Header != "" {
		fmt.Fprintf(&b, "%s:\n", s.Header)
	}
	fnIndent, args, posIndent := "", "(...)", "\t"
	if s.Access != "" {
		fnIndent, args, posIndent = "  ", "()", "      "
	}
	for _, f := range s.Frames {
		fmt.Fprintf(&b, "%s%s%s\n%s%s\n", fnIndent, f.Func, args, posIndent, f.Pos())
	}
	if s.Access == "" && len(s.Created) > 0 {
		c := s.Created[0]
		if s.Parent > 0 {
			fmt.Fprintf(&b, "created by %s in goroutine %d\n\t%s\n", c.Func, s.Parent, c.Pos())
		} else {
			fmt.Fprintf(&b, "created by %s\n\t%s\n", c.Func, c.Pos())
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
