package stacks

import (
	"go/build"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestParseDump parses the goroutines of a fatal error: headers with a
// wait time and with GOTRACEBACK=system's fields, arguments dropped, a
// "created by" frame and its goroutine, elided frames, text outside
// goroutines ignored.
func TestParseDump(t *testing.T) {
	dump := `fatal error: concurrent map writes

goroutine 7 [running]:
example.com/m.(*Index).Add(0xc0000a0000, {0x5c1a2e, 0x1})
	/src/m/index.go:31 +0x6d
...additional frames elided...

goroutine 8 gp=0xc000003340 m=nil [sync.Mutex.Lock, 2 minutes]:
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
example.com/m.(*Index).Add.func1()
	/src/m/index.go:40 +0x1d
created by example.com/m.(*Index).Add in goroutine 7
	/src/m/index.go:38 +0x9a
`
	got := ParseDump(dump)
	want := []Stack{
		{Header: "goroutine 7 [running]", Goroutine: 7, State: "running",
			Frames: []Frame{{"example.com/m.(*Index).Add", "/src/m/index.go", 31}}},
		{Header: "goroutine 8 gp=0xc000003340 m=nil [sync.Mutex.Lock, 2 minutes]", Goroutine: 8, State: "sync.Mutex.Lock",
			Frames: []Frame{{"sync.(*Mutex).Lock", "/usr/local/go/src/sync/mutex.go", 46},
				{"example.com/m.(*Index).Add.func1", "/src/m/index.go", 40}},
			Created: []Frame{{"example.com/m.(*Index).Add", "/src/m/index.go", 38}}, Parent: 7},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestParseOwnDump parses a dump the runtime makes here: the calling
// goroutine's stack and one blocked on a mutex, which it started.
func TestParseOwnDump(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	started := make(chan struct{})
	done := make(chan struct{})
	n := 0
	go func() {
		close(started)
		mu.Lock()
		n++
		mu.Unlock()
		close(done)
	}()
	<-started
	var gs []Stack
	for range 1000 {
		buf := make([]byte, 1<<20)
		gs = ParseDump(string(buf[:runtime.Stack(buf, true)]))
		if blocked(gs) != nil {
			break
		}
		runtime.Gosched()
	}
	mu.Unlock()
	<-done
	if len(gs) < 2 || !strings.HasSuffix(gs[0].Frames[0].Func, "TestParseOwnDump") || gs[0].State != "running" {
		t.Fatalf("first goroutine: %+v", gs)
	}
	g := blocked(gs)
	if g == nil {
		t.Fatalf("no goroutine blocked on the mutex: %+v", gs)
	}
	if len(g.Created) != 1 || !strings.HasSuffix(g.Created[0].Func, "TestParseOwnDump") || g.Parent != gs[0].Goroutine {
		t.Errorf("created by %+v in goroutine %d, want this test in %d", g.Created, g.Parent, gs[0].Goroutine)
	}
	for _, f := range g.Frames {
		if f.File == "" || f.Line <= 0 || strings.ContainsAny(f.Func, " ") {
			t.Errorf("frame %+v", f)
		}
	}
}

// blocked returns the goroutine of gs waiting on a sync.Mutex.
func blocked(gs []Stack) *Stack {
	for i := range gs {
		if gs[i].State == "sync.Mutex.Lock" {
			return &gs[i]
		}
	}
	return nil
}

// TestParseRace parses a race report: both accesses, their kind, their
// goroutine (the main one too), and the creation stack of the goroutine
// that made each.
func TestParseRace(t *testing.T) {
	report := `==================
WARNING: DATA RACE
Atomic write at 0x00c0000142b8 by goroutine 9:
  sync/atomic.StoreInt64()
      /usr/local/go/src/runtime/race_amd64.s:237 +0xb
  example.com/c.(*Cache).Set()
      /src/c/cache.go:32 +0x94

Previous read of size 8 at 0x00c0000142b8 by main goroutine:
  example.com/c.(*Cache).Get()
      /src/c/cache.go:38 +0x1d5

Goroutine 9 (running) created at:
  example.com/c.(*Cache).start()
      /src/c/cache.go:60 +0x1d4
==================`
	got := ParseRace(report)
	want := []Stack{
		{Header: "Atomic write at 0x00c0000142b8 by goroutine 9", Goroutine: 9, Access: "atomic write",
			Frames: []Frame{{"sync/atomic.StoreInt64", "/usr/local/go/src/runtime/race_amd64.s", 237},
				{"example.com/c.(*Cache).Set", "/src/c/cache.go", 32}},
			Created: []Frame{{"example.com/c.(*Cache).start", "/src/c/cache.go", 60}}},
		{Header: "Previous read of size 8 at 0x00c0000142b8 by main goroutine", Goroutine: 1, Access: "read",
			Frames: []Frame{{"example.com/c.(*Cache).Get", "/src/c/cache.go", 38}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if !got[0].Write() || got[1].Write() {
		t.Errorf("Write: %v %v", got[0].Write(), got[1].Write())
	}
}

// TestString renders stacks as their producers print them, without
// arguments and program counters, and parses them back the same.
func TestString(t *testing.T) {
	race := Stack{Header: "Write at 0x1 by goroutine 9", Goroutine: 9, Access: "write",
		Frames: []Frame{{"example.com/c.(*Cache).Set", "/src/c/cache.go", 32}}}
	if got, want := race.String(), "Write at 0x1 by goroutine 9:\n  example.com/c.(*Cache).Set()\n      /src/c/cache.go:32"; got != want {
		t.Errorf("race access:\n%s\nwant\n%s", got, want)
	}
	if back := ParseRace(race.String()); !reflect.DeepEqual(back, []Stack{race}) {
		t.Errorf("parsed back: %+v", back)
	}
	g := Stack{Label: "goroutine 1 (a.Put)", Header: "goroutine 5 [select]", Goroutine: 5, State: "select",
		Frames:  []Frame{{"example.com/q.(*Q).Put", "/src/q/q.go", 9}},
		Created: []Frame{{"example.com/q.New", "/src/q/q.go", 3}}, Parent: 1}
	want := "goroutine 1 (a.Put):\ngoroutine 5 [select]:\nexample.com/q.(*Q).Put(...)\n\t/src/q/q.go:9\n" +
		"created by example.com/q.New in goroutine 1\n\t/src/q/q.go:3"
	if got := g.String(); got != want {
		t.Errorf("goroutine:\n%s\nwant\n%s", got, want)
	}
	g.Label = ""
	if back := ParseDump(g.String()); !reflect.DeepEqual(back, []Stack{g}) {
		t.Errorf("parsed back: %+v", back)
	}
}

func TestFuncName(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m.(*T).Put(0xc000010000, {0x1, 0x2})": "example.com/m.(*T).Put",
		"example.com/m.(*T).Put()":                         "example.com/m.(*T).Put",
		"sync.(*Mutex).Lock(...)":                          "sync.(*Mutex).Lock",
		"example.com/m.F.func1()":                          "example.com/m.F.func1",
		"panic({0x758e80?, 0x7ae4f0?})":                    "panic",
		"main.main":                                        "main.main",
	} {
		if got := funcName(in); got != want {
			t.Errorf("funcName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStd(t *testing.T) {
	for f, want := range map[Frame]bool{
		{Func: "sync.(*Mutex).Lock", File: build.Default.GOROOT + "/src/sync/mutex.go"}: true,
		{Func: "internal/sync.(*Mutex).lockSlow"}:                                       true,
		{Func: "myapp/store.(*DB).Get", File: "/src/myapp/store/db.go"}:                 false,
		{Func: "example.com/m.(*T).Put", File: "/src/m/m.go"}:                           false,
		{Func: "main.main", File: "/src/cmd/main.go"}:                                   false,
	} {
		if got := f.Std(); got != want {
			t.Errorf("%+v: Std() = %v, want %v", f, got, want)
		}
	}
}
