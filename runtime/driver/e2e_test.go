package driver

// End-to-end tests: they run the driver on the packages of
// testdata/runtime, building the real children with -race. Those of the
// command (flags, exit statuses, signals) are in cmd/depcon.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/testgen"
)

const testdataDir = "../../testdata/runtime/"

// depconTest runs the driver on cfg as depcon test does, the fields cfg
// leaves zero set to the defaults of its flags that Run does not apply
// (seed 1, GOMAXPROCS types at once), and returns the report; it fails the
// test when Run fails. It checks that no child of the packages' test
// binaries is left.
func depconTest(t *testing.T, cfg Config) *report.Report {
	t.Helper()
	rep, err := runDriver(t, cfg)
	if err != nil {
		t.Fatalf("depcon test %s: %v", strings.Join(cfg.Patterns, " "), err)
	}
	return rep
}

// runDriver is depconTest returning the error of Run instead of failing.
func runDriver(t *testing.T, cfg Config) (*report.Report, error) {
	t.Helper()
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Parallel == 0 {
		cfg.Parallel = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	rep, err := Run(t.Context(), cfg)
	t.Logf("depcon test %s: error %v in %.1fs", strings.Join(cfg.Patterns, " "), err, time.Since(start).Seconds())
	noLeftovers(t)
	return rep, err
}

// reportText returns the report as text, for the messages of failures.
func reportText(rep *report.Report) string {
	var b strings.Builder
	rep.WriteText(&b)
	return b.String()
}

// pkgs returns the patterns of the packages of testdata/runtime named.
func pkgs(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = testdataDir + n
	}
	return out
}

// noLeftovers fails when a child of a finished run is still alive: a
// process running a binary of a work directory of depcon test that has
// been removed (other runs may be going on in parallel).
func noLeftovers(t *testing.T) {
	t.Helper()
	exes, _ := filepath.Glob("/proc/[0-9]*/exe")
	for _, p := range exes {
		exe, err := os.Readlink(p)
		if err == nil && strings.Contains(exe, "depcon-test-") && strings.HasSuffix(exe, " (deleted)") {
			t.Errorf("process %s (%s) outlived depcon test", filepath.Dir(p), exe)
		}
	}
}

func typeReport(t *testing.T, rep *report.Report, name string) *report.TypeReport {
	t.Helper()
	for _, tr := range rep.Types {
		if tr.Type == name {
			return tr
		}
	}
	t.Fatalf("no report for type %s in %+v", name, rep.Types)
	return nil
}

// TestFindsViolations checks that depcon test finds the bug of each buggy
// package, of the expected kind, and writes a reproducer for it.
func TestFindsViolations(t *testing.T) {
	for _, tc := range []struct {
		pkg, typ string
		kinds    []string
		pair     [2]string
		objects  int
	}{
		{"buffered", "Reader", []string{report.KindRace, report.KindPanic}, [2]string{"Close", ""}, 1},
		{"mapeq", "Map", []string{report.KindDeadlock}, [2]string{"Equal", "Equal"}, 2},
		{"lazycache", "Cache", []string{report.KindFatal, report.KindRace}, [2]string{"Get", ""}, 1},
		{"queue", "Queue", []string{report.KindPanic}, [2]string{"Close", "Put"}, 1},
		{"rwconfig", "Config", []string{report.KindDeadlock}, [2]string{"Describe", "Set"}, 1},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			t.Parallel()
			rep := depconTest(t, Config{Budget: 10 * time.Second, First: true, Patterns: pkgs(tc.pkg)})
			if rep.Violations() == 0 {
				t.Fatalf("no violation, want one\n%s", reportText(rep))
			}
			tr := typeReport(t, rep, tc.typ)
			if len(tr.Violations) != 1 {
				t.Fatalf("%d violations, want 1 (-first stops the type): %+v", len(tr.Violations), tr.Violations)
			}
			v := tr.Violations[0]
			t.Logf("%s %v after %d tests, %.2fs: %s", v.Kind, v.Pair, v.TestsBefore, v.Elapsed, v.Message)
			if !slices.Contains(tc.kinds, v.Kind) {
				t.Errorf("kind %s, want one of %v: %s", v.Kind, tc.kinds, v.Message)
			}
			if v.Pair[0] != tc.pair[0] || tc.pair[1] != "" && v.Pair[1] != tc.pair[1] {
				t.Errorf("pair %v, want %v", v.Pair, tc.pair)
			}
			if v.Objects != tc.objects {
				t.Errorf("%d objects, want %d", v.Objects, tc.objects)
			}
			if v.Seed != 1 || v.Message == "" || len(v.Evidence) == 0 {
				t.Errorf("seed %d, message %q, evidence %v: want seed 1, a message and evidence", v.Seed, v.Message, v.Evidence)
			}
			if v.Reproduced != report.ReproYes || v.Count < 1 {
				t.Errorf("reproduced %q (%s), count %d: want a reproducer that failed", v.Reproduced, v.ReproOutput, v.Count)
			}
			if !strings.Contains(v.Reproducer, "func TestDepcon") || !strings.Contains(v.Reproducer, "package "+tc.pkg) {
				t.Errorf("reproducer is not a test of package %s:\n%s", tc.pkg, v.Reproducer)
			}
			if tr.TestsGenerated != v.TestsBefore+1 || tr.PairsTested == 0 || tr.PairsTested > tr.PairsDependent {
				t.Errorf("tests %d (violation after %d), pairs tested %d of %d dependent", tr.TestsGenerated,
					v.TestsBefore, tr.PairsTested, tr.PairsDependent)
			}
		})
	}
}

// TestCorrectTypes checks that nothing is reported on correctly
// synchronised types, over several seeds and with the baseline pair
// selections, and that the budget is kept.
func TestCorrectTypes(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"seed1", Config{Seed: 1}},
		{"seed2-maxlen3", Config{Seed: 2, MaxLen: 3}},
		{"seed3-pairsall-iters20", Config{Seed: 3, Pairs: testgen.PairsAll, Iters: 20}},
		{"seed4-pairsrandom-modeexception", Config{Seed: 4, Pairs: testgen.PairsRandom, Find: testgen.FindExceptions}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const budget = 3
			cfg := tc.cfg
			cfg.Budget, cfg.Patterns = budget*time.Second, pkgs("correct")
			rep := depconTest(t, cfg)
			if n := rep.Violations(); n != 0 {
				t.Fatalf("%d violations, want none\n%s", n, reportText(rep))
			}
			if len(rep.Types) != 4 {
				t.Errorf("%d types tested, want Buffer, Counter, Gauge and Registry", len(rep.Types))
			}
			for _, tr := range rep.Types {
				if len(tr.Violations) > 0 || tr.Skipped != "" {
					t.Errorf("%s: %+v (skipped %q)", tr.Type, tr.Violations[0], tr.Skipped)
				}
				if tr.Elapsed > budget+3 {
					t.Errorf("%s: %.1fs, over the budget of %ds", tr.Type, tr.Elapsed, budget)
				}
				if tr.PairsDependent > 0 && (tr.TestsGenerated < 10 || tr.PairsTested == 0) {
					t.Errorf("%s: only %d tests of %d pairs", tr.Type, tr.TestsGenerated, tr.PairsTested)
				}
			}
		})
	}
}

// TestMisbehavingTypes checks the types depcon test cannot test: each is
// reported clearly and the run ends cleanly.
func TestMisbehavingTypes(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	rep := depconTest(t, Config{Budget: 10 * time.Second, TypeRE: regexp.MustCompile("."), Verbose: &log, Patterns: pkgs("misbehave")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one (Stuck self-deadlocks)\n%s", reportText(rep))
	}
	// Bomb: its constructor always fails: its zero value is no working
	// object, and it is not tested.
	bomb := typeReport(t, rep, "Bomb")
	if !strings.HasPrefix(bomb.Skipped, "no working object: every constructor failed") ||
		!strings.Contains(bomb.Skipped, "no bombs today") {
		t.Errorf("Bomb: skipped %q, want no working object, with the constructor's error", bomb.Skipped)
	}
	if !strings.Contains(log.String(), "constructor NewBomb failed: object-failed") {
		t.Errorf("the log does not say NewBomb failed:\n%s", log.String())
	}
	// Stuck: Inc never returns when called alone.
	stuck := typeReport(t, rep, "Stuck")
	if len(stuck.Violations) != 1 || stuck.Violations[0].Kind != report.KindSelfDeadlock || stuck.Violations[0].Pair[0] != "Inc" {
		t.Errorf("Stuck: violations %+v, want a self-deadlock of Inc", stuck.Violations)
	} else if v := stuck.Violations[0]; !strings.Contains(v.Details, "misbehave.(*Stuck).Value") {
		t.Errorf("Stuck: the stack does not show the second lock in Value:\n%s", v.Details)
	}
	// Fanout: Notify waits, holding its lock, for goroutines that need it.
	fanout := typeReport(t, rep, "Fanout")
	if len(fanout.Violations) != 1 || fanout.Violations[0].Kind != report.KindSelfDeadlock || fanout.Violations[0].Pair[0] != "Notify" {
		t.Errorf("Fanout: violations %+v, want a self-deadlock of Notify", fanout.Violations)
	} else if v := fanout.Violations[0]; !strings.Contains(v.Details, "goroutine 1 it started") ||
		!strings.Contains(v.Message, "sync.WaitGroup.Wait") || v.Reproduced != report.ReproYes {
		t.Errorf("Fanout: %s (reproduced %s)\n%s, want the blocked goroutines it started and a failing reproducer",
			v.Message, v.Reproduced, v.Details)
	}
	// Exiter: Close ends the process; Add is still tested.
	exiter := typeReport(t, rep, "Exiter")
	if len(exiter.Violations) != 0 || !slices.ContainsFunc(exiter.Notes, func(n string) bool {
		return strings.Contains(n, "Close is not tested") && strings.Contains(n, "exit status 3")
	}) {
		t.Errorf("Exiter: violations %+v, notes %q, want a note that Close exits", exiter.Violations, exiter.Notes)
	}
}

// TestBrokenPackage checks that a package that does not compile is
// reported as an error with the compiler's message.
func TestBrokenPackage(t *testing.T) {
	t.Parallel()
	_, err := runDriver(t, Config{Patterns: pkgs("_broken")})
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedValue") {
		t.Errorf("error %v: want the compiler's error", err)
	}
	// Beside a package that loads, the broken one is reported and the
	// other tested.
	rep, err := runDriver(t, Config{Budget: 3 * time.Second, Patterns: pkgs("_broken", "emptyname"),
		TypeRE: regexp.MustCompile("^Teams$")})
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedValue") {
		t.Errorf("error %v: want the compiler's error", err)
	}
	if rep == nil || len(rep.NotLoaded) != 1 || !strings.HasSuffix(rep.NotLoaded[0].Path, "_broken") {
		t.Fatalf("report %+v: want the broken package not loaded", rep)
	}
	if tr := typeReport(t, rep, "Teams"); tr.Skipped != "" || tr.Ended == "" {
		t.Errorf("Teams beside a broken package: %+v, want it tested", tr)
	}
	if text := reportText(rep); !strings.Contains(text, "not loaded, not tested: ") {
		t.Errorf("the report does not name the package that did not load:\n%s", text)
	}
}

// TestExternalModule runs depcon test on a module that does not depend on
// depcon, and checks that its tree is left untouched and its own tests
// play no part.
func TestExternalModule(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(testdataDir + "_external")
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	var stdout, stderr, progress bytes.Buffer
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Budget: 10 * time.Second, Seed: 1, Verbose: &stderr,
		Progress: &progress}
	rep, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	rep.WriteText(&stdout)
	t.Logf("%s", stdout.Bytes())
	tr := typeReport(t, rep, "Stats")
	if len(tr.Violations) == 0 {
		t.Errorf("no violation, want races of Record")
	}
	// Testing goes on after a violation, with the pairs not found yet:
	// each pair is reported once.
	seen := map[[2]string]bool{}
	for _, v := range tr.Violations {
		if v.Kind != report.KindRace || v.Pair[0] != "Record" || v.Reproduced != report.ReproYes || seen[v.Pair] {
			t.Errorf("violation %s %v (reproduced %s), want one reproduced race per pair with Record", v.Kind, v.Pair, v.Reproduced)
		}
		seen[v.Pair] = true
	}
	if !strings.Contains(progress.String(), "1 of 1 type done, ") || !strings.HasSuffix(progress.String(), "\r\033[K") {
		t.Errorf("progress line %q, want the run's progress, cleared at the end", progress.String())
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the module's tree changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	noLeftovers(t)
}

// snapshot lists the files of dir with their sizes and times.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %v\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReproducer checks that the reproducer written with -o fails under
// go test -race on a copy of the buggy package, and passes on a copy of
// the fixed one.
func TestReproducer(t *testing.T) {
	for _, pkg := range []string{"buffered", "mapeq"} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			rep := depconTest(t, Config{Budget: 10 * time.Second, Out: out, Patterns: pkgs(pkg)})
			if rep.Violations() == 0 {
				t.Fatalf("no violation, want one\n%s", reportText(rep))
			}
			path := rep.Types[0].Violations[0].Reproducer
			if filepath.Dir(path) != out {
				t.Fatalf("reproducer %q, want a file in %s", path, out)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			goTestCopy := func(pkgDir string) (string, error) {
				mod := t.TempDir()
				if err := os.CopyFS(mod, os.DirFS(pkgDir)); err != nil {
					t.Fatal(err)
				}
				gomod := "module example.com/" + pkg + "\n\ngo 1.22\n"
				if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(mod, filepath.Base(path)), src, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command("go", "test", "-race", "-count=1", ".")
				cmd.Dir = mod
				cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			if out, err := goTestCopy(testdataDir + pkg); err == nil {
				t.Errorf("the reproducer passes on the buggy package:\n%s\n%s", src, out)
			} else if !strings.Contains(out, "--- FAIL: TestDepcon") {
				t.Errorf("the reproducer does not fail as a test:\n%s", out)
			}
			if out, err := goTestCopy(testdataDir + "fixed/" + pkg); err != nil {
				t.Errorf("the reproducer fails on the fixed package: %v\n%s", err, out)
			}
		})
	}
}

// TestConstructors checks that types are built the way their package
// builds them — through a constructor returning an interface, behind an
// exported constructor of an unexported type, with a builder — and that
// the race each has is found and reproduced. On the zero value, their
// methods panic.
func TestConstructors(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, TypeRE: regexp.MustCompile("^(StandardRegistry|threadSafeSet|Cache)$"),
		Patterns: pkgs("ctors")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	for _, typ := range []string{"StandardRegistry", "threadSafeSet", "Cache"} {
		tr := typeReport(t, rep, typ)
		for _, n := range tr.Notes {
			if strings.Contains(n, "zero value") {
				t.Errorf("%s: tested on the zero value: %s", typ, n)
			}
		}
		if tr.Confirmed() == 0 {
			t.Errorf("%s: no reproduced violation: %+v, notes %q", typ, tr.Violations, tr.Notes)
			continue
		}
		v := tr.Violations[0]
		if v.Kind != report.KindRace || v.Reproduced != report.ReproYes {
			t.Errorf("%s: %s (reproduced %s: %s), want a reproduced race", typ, v.Kind, v.Reproduced, v.ReproOutput)
		}
	}
}

// TestSetupMisbehaves checks correct types whose set-up panics holding a
// lock, writes files, or allocates in proportion to its arguments:
// nothing is reported, and the package directory stays as it was.
func TestSetupMisbehaves(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(testdataDir + "setup")
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	rep, err := runDriver(t, Config{Budget: 5 * time.Second, Seed: 3, Pairs: testgen.PairsAll, Patterns: []string{dir}})
	if err != nil {
		t.Errorf("depcon test: %v", err)
	} else if n := rep.Violations(); n != 0 {
		t.Errorf("%d violations, want none\n%s", n, reportText(rep))
	}
	if rep != nil {
		for _, tr := range rep.Types {
			for _, v := range tr.Violations {
				t.Errorf("%s: %s on %v (reproduced %s): %s", tr.Type, v.Kind, v.Pair, v.Reproduced, v.Message)
			}
			if tr.TestsGenerated == 0 {
				t.Errorf("%s: no test ran (skipped %q, notes %q)", tr.Type, tr.Skipped, tr.Notes)
			}
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the package directory changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestApplicationCode checks that in package main the unexported type
// and its unexported methods are tested without flags, and the race
// found is reproduced.
func TestApplicationCode(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Patterns: pkgs("app")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	tr := typeReport(t, rep, "server")
	if tr.Confirmed() == 0 {
		t.Fatalf("no reproduced violation: %+v, notes %q", tr.Violations, tr.Notes)
	}
	for _, v := range tr.Violations {
		if v.Kind != report.KindRace || v.Pair[0] != "accept" {
			t.Errorf("%s on %v, want races of accept", v.Kind, v.Pair)
		}
	}
}

// TestSchedulersKeepRaces checks that a data race is reported under every
// scheduler: the handoffs of the schedulers must not give the race
// detector happens-before edges the program does not have. In the order
// Get·Inc (Get's read, then Inc's unlocked write) nothing but the
// scheduler could order the two accesses.
func TestSchedulersKeepRaces(t *testing.T) {
	for _, sched := range []string{SchedTargeted, SchedPCT, SchedStress, SchedAll} {
		t.Run(sched, func(t *testing.T) {
			rep := depconTest(t, Config{Sched: sched, Budget: 30 * time.Second, First: true, Find: testgen.FindExceptions,
				Patterns: pkgs("handoff")})
			if rep.Violations() == 0 {
				t.Fatalf("no violation, want a race\n%s", reportText(rep))
			}
			tr := typeReport(t, rep, "Counter")
			if len(tr.Violations) == 0 || tr.Violations[0].Kind != report.KindRace {
				t.Fatalf("violations %+v, want a race", tr.Violations)
			}
			v := tr.Violations[0]
			if want := sched; sched != SchedAll && !strings.HasPrefix(v.Schedule, want) {
				t.Errorf("found under schedule %q, want %s", v.Schedule, want)
			}
			if sched == SchedStress && len(tr.Interleavings) > 0 {
				t.Errorf("stress tests reported interleavings: %+v", tr.Interleavings)
			}
		})
	}
}

// TestTargetedNarrowWindow checks that the targeted orders expose a
// close/send whose window plain repetition hits once in about 15,000 runs
// (the corpus's stream: Close between Send's check of the closed flag and
// its send), that the interleavings are reported, and that the violation
// is replayed under its schedule.
func TestTargetedNarrowWindow(t *testing.T) {
	rep := depconTest(t, Config{Sched: SchedTargeted, Budget: 30 * time.Second, First: true, Patterns: []string{"../../testdata/corpus/stream"}})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	tr := typeReport(t, rep, "Stream")
	if len(tr.Violations) == 0 || tr.Violations[0].Kind != report.KindPanic {
		t.Fatalf("violations %+v, want a panic", tr.Violations)
	}
	v := tr.Violations[0]
	if !strings.HasPrefix(v.Schedule, "targeted ") || v.Reproduced != report.ReproYes || v.Replayed == "" ||
		strings.HasPrefix(v.Replayed, "0/") {
		t.Errorf("schedule %q, reproduced %q, replayed %q: want a targeted order, confirmed by its replays",
			v.Schedule, v.Reproduced, v.Replayed)
	}
	if len(tr.Interleavings) == 0 || tr.Schedules[SchedTargeted] == 0 {
		t.Errorf("interleavings %+v, schedules %v: want the targeted orders reported", tr.Interleavings, tr.Schedules)
	}
}

// TestSaturation checks that the budget is a ceiling: on the correct
// types, whose few pairs saturate their interleavings within seconds,
// testing ends well before a long budget, and the report says why.
func TestSaturation(t *testing.T) {
	t.Parallel()
	const budget = 120
	rep := depconTest(t, Config{Budget: budget * time.Second, Patterns: pkgs("correct")})
	if n := rep.Violations(); n != 0 {
		t.Fatalf("%d violations, want none\n%s", n, reportText(rep))
	}
	saturated := 0
	for _, tr := range rep.Types {
		switch tr.Ended {
		case report.EndedSaturated:
			saturated++
		case report.EndedPairs:
		default:
			t.Errorf("%s ended by %q after %.1fs, want saturation", tr.Type, tr.Ended, tr.Elapsed)
		}
		if tr.Elapsed > budget/2 {
			t.Errorf("%s: %.1fs of a budget of %ds", tr.Type, tr.Elapsed, budget)
		}
	}
	if saturated == 0 {
		t.Errorf("no type ended by saturation: %+v", rep.Types)
	}
}

// TestProcessWideInstance checks that a type whose only constructor
// changes process-wide state (it fails when called a second time in one
// process), or that only a getter of a package variable hands out, is
// not tested on objects that are not fresh, and says so, while its twin
// is tested.
func TestProcessWideInstance(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Patterns: pkgs("global")})
	if n := rep.Violations(); n != 0 {
		t.Fatalf("%d violations, want none\n%s", n, reportText(rep))
	}
	srv := typeReport(t, rep, "Server")
	if !strings.Contains(srv.Skipped, "only process-wide instances: NewServer fails when called a second time") {
		t.Errorf("Server: skipped %q, notes %q; want it not tested as a process-wide instance", srv.Skipped, srv.Notes)
	}
	if reg := typeReport(t, rep, "Registry"); !strings.Contains(reg.Skipped, "only a process-wide instance: GetDefaultRegistry returns a package-level variable") {
		t.Errorf("Registry: skipped %q; want it not tested, GetDefaultRegistry handing out one instance", reg.Skipped)
	}
	if loc := typeReport(t, rep, "Local"); loc.Skipped != "" || !slices.Contains(loc.BuiltBy, "NewLocal") {
		t.Errorf("Local: skipped %q, built by %q; want it built by NewLocal", loc.Skipped, loc.BuiltBy)
	}
}

// TestNotLinearizable checks the linearizability oracle: the atomicity
// violations of testdata/runtime/atomicity, which the race detector and
// the panic oracle miss, are each found once, as non-linearizable
// outcomes, with a reproducer that failed, while the correct twins (one
// reading the clock) stay silent.
func TestNotLinearizable(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Patterns: pkgs("atomicity")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	for _, tc := range []struct {
		typ  string
		pair [2]string
		part string
	}{
		{"Counter", [2]string{"Add", ""}, "a.Load() result 0 is"},
		{"IDs", [2]string{"Next", "Next"}, "a.Next (goroutine 1) result 0 is"},
		{"Cache", [2]string{"Get", "Stats"}, "a.Stats (goroutine 2) result 0 is"},
		{"Tickets", [2]string{"Next", "Next"}, "a.Next (goroutine 1) result 0 is"},
	} {
		tr := typeReport(t, rep, tc.typ)
		if len(tr.Violations) != 1 {
			t.Errorf("%s: %d violations, want one: %+v", tc.typ, len(tr.Violations), tr.Violations)
			continue
		}
		v := tr.Violations[0]
		if v.Kind != report.KindNotLinearizable || v.Pair[0] != tc.pair[0] || tc.pair[1] != "" && v.Pair[1] != tc.pair[1] ||
			!strings.Contains(v.Message, tc.part) {
			t.Errorf("%s: %s %v %q, want %s %v naming %q", tc.typ, v.Kind, v.Pair, v.Message, report.KindNotLinearizable, tc.pair, tc.part)
		}
		// The reproducer fails, or, when the stress test misses a narrow
		// window, the replays under the schedule do.
		if v.Reproduced != report.ReproYes || !strings.Contains(v.ReproOutput, "not linearizable: ") && !strings.HasPrefix(v.Replayed, "1") &&
			!strings.Contains(v.ReproOutput, "failed in") {
			t.Errorf("%s: reproduced %q: %s", tc.typ, v.Reproduced, v.ReproOutput)
		}
	}
	for _, typ := range []string{"Registry", "Clock", "Slots"} {
		tr := typeReport(t, rep, typ)
		if len(tr.Violations) > 0 || tr.PairsTested == 0 {
			t.Errorf("%s: %d pairs tested, violations %+v; want tested and silent", typ, tr.PairsTested, tr.Violations)
		}
	}
}

// TestFeedbackArguments checks that arguments only earlier calls make
// reach the bugs they guard: the subscription a Subscribe returned, for
// Unsubscribe, and the JSON a MarshalJSON returned, for UnmarshalJSON
// (generated ones are refused at the first check, and nothing is found
// without them), with reproducers that keep those calls.
func TestFeedbackArguments(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Patterns: pkgs("feedback")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	for _, tc := range []struct{ typ, method, produced string }{
		{"Hub", "Unsubscribe", ":= a.Subscribe()"},
		{"Settings", "UnmarshalJSON", ":= a.MarshalJSON()"},
	} {
		tr := typeReport(t, rep, tc.typ)
		found := false
		for _, v := range tr.Violations {
			if v.Kind == report.KindRace && slices.Contains(v.Pair[:], tc.method) && v.Reproduced == report.ReproYes &&
				strings.Contains(v.Reproducer, tc.produced) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no confirmed race of %s whose reproducer has %q: %+v", tc.typ, tc.method, tc.produced, tr.Violations)
		}
	}
	for _, typ := range []string{"SafeHub", "SafeSettings"} {
		if tr := typeReport(t, rep, typ); len(tr.Violations) > 0 {
			t.Errorf("%s: %+v, want silence", typ, tr.Violations)
		}
	}
}

// TestContractQuestion checks that a race between two methods neither of
// which synchronises what they share, in a type not documented as safe
// for concurrent use, is reported as a contract question, after the bugs
// and out of the exit status, and as a violation with -strict.
func TestContractQuestion(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, First: true, Patterns: pkgs("contract")})
	if n := rep.Violations(); n != 0 {
		t.Fatalf("%d violations, want none (a contract question only)\n%s", n, reportText(rep))
	}
	tr := typeReport(t, rep, "Breaker")
	if len(tr.Violations) != 1 || tr.Violations[0].Kind != report.KindRace ||
		!strings.HasPrefix(tr.Violations[0].Question, "may ") || tr.Confirmed() != 0 {
		t.Fatalf("violations %+v, want one race asked as a contract question", tr.Violations)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "CONTRACT QUESTION (race): ") {
		t.Errorf("text report:\n%s", b.String())
	}
	rep = depconTest(t, Config{Budget: 5 * time.Second, First: true, Strict: true, Patterns: pkgs("contract")})
	if rep.Violations() == 0 {
		t.Fatalf("-strict: no violation, want one\n%s", reportText(rep))
	}
	if v := typeReport(t, rep, "Breaker").Violations[0]; v.Question != "" {
		t.Errorf("-strict: question %q, want a violation", v.Question)
	}
}

// TestRWRBehindReadSection checks the targeted read-write-read order of a
// reader that takes an unrelated read section before the read lock its
// nested RLock re-enters: the reader is held at the re-entry, not at its
// first lock, and the deadlock is found by the targeted orders alone.
func TestRWRBehindReadSection(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Sched: SchedTargeted, First: true, Patterns: pkgs("rwrsection")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Config").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindDeadlock || !strings.HasPrefix(vs[0].Schedule, "targeted r·w·r (") {
		t.Errorf("violations %+v, want a deadlock under the r·w·r order", vs)
	}
	if vs := typeReport(t, rep, "SafeConfig").Violations; len(vs) != 0 {
		t.Errorf("SafeConfig: violations %+v, want none", vs)
	}
}

// TestWindowInsideCallee checks that the targeted orders reach a window
// that lies between two atomic stores inside a helper the evidence's
// call statement calls, holding a lock: the order keeps Add right after
// the first store while Last runs. The twin, whose stores are in the
// right order, stays silent.
func TestWindowInsideCallee(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Sched: SchedTargeted, Patterns: pkgs("callee")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Index").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindPanic || vs[0].Reproduced != report.ReproYes ||
		!strings.HasPrefix(vs[0].Schedule, "targeted a·b·a'/in callee.go:") {
		t.Errorf("violations %+v, want a reproduced panic under an order inside publish", vs)
	}
	if vs := typeReport(t, rep, "SafeIndex").Violations; len(vs) != 0 {
		t.Errorf("SafeIndex: violations %+v, want none", vs)
	}
}

// TestLazyFirstUse checks a window that exists only on an object's
// first use, between two atomic stores of a helper that builds a table:
// the concurrent first calls of fresh objects reach it, and the panics
// it causes in each reader are one defect, the window's. The twin, whose
// stores are in the right order, stays silent.
func TestLazyFirstUse(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Patterns: pkgs("lazyinit")})
	vs := typeReport(t, rep, "Squares").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindPanic || vs[0].Reproduced != report.ReproYes {
		t.Fatalf("violations %+v, want one reproduced panic\n%s", vs, reportText(rep))
	}
	if vs := typeReport(t, rep, "SafeSquares").Violations; len(vs) != 0 {
		t.Errorf("SafeSquares: violations %+v, want none", vs)
	}
}

// TestAnyArguments checks that an empty-interface parameter gets values
// of the types the package asserts interface values to: the race of
// Register lies behind its check that the value is a *Counter, which
// generated numbers, strings and nil never pass. The twin stays silent.
func TestAnyArguments(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, First: true, Patterns: pkgs("anyreg")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Registry").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindRace || vs[0].Reproduced != report.ReproYes ||
		!strings.Contains(vs[0].Reproducer, "NewCounter()") {
		t.Errorf("violations %+v, want a reproduced race whose reproducer registers a NewCounter()", vs)
	}
	if vs := typeReport(t, rep, "SafeRegistry").Violations; len(vs) != 0 {
		t.Errorf("SafeRegistry: violations %+v, want none", vs)
	}
}

// TestAdapterArguments checks that an interface parameter gets the
// package's function adapter (a HandlerFunc for a Handler): Dispatch's
// race lies behind a route that only a non-nil Handler registers, and
// the reproducer converts a function literal to the adapter. The twin
// stays silent.
func TestAdapterArguments(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, First: true, Patterns: pkgs("adapter")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Router").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindRace || vs[0].Reproduced != report.ReproYes ||
		!strings.Contains(vs[0].Reproducer, "HandlerFunc(func(") {
		t.Errorf("violations %+v, want a reproduced race whose reproducer routes a HandlerFunc", vs)
	}
	if vs := typeReport(t, rep, "SafeRouter").Violations; len(vs) != 0 {
		t.Errorf("SafeRouter: violations %+v, want none", vs)
	}
}

// TestCallbackDeadlock checks that a self-deadlock only the callback
// analysis sees (Publish calls, with its lock held, a method value the
// constructor stored, which locks again) is a pair of the plan, and
// confirmed; the twin that calls its handler after unlocking is silent.
func TestCallbackDeadlock(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Patterns: pkgs("callbackdl")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Bus").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindSelfDeadlock || vs[0].Reproduced != report.ReproYes {
		t.Errorf("violations %+v, want a reproduced self-deadlock of Publish", vs)
	}
	if vs := typeReport(t, rep, "SafeBus").Violations; len(vs) != 0 {
		t.Errorf("SafeBus: violations %+v, want none", vs)
	}
}

// TestSingleCallRace checks that a race between a method and a
// goroutine it started (Fetch returns the result field on a timeout while
// its goroutine writes it) is reported once, as a race within one call
// of that method, not as a defect of the pair it was found in.
func TestSingleCallRace(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Patterns: pkgs("singlecall")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	vs := typeReport(t, rep, "Client").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindRace || vs[0].Within != "Fetch" || vs[0].Reproduced != report.ReproYes {
		t.Errorf("violations %+v, want one reproduced race within Fetch", vs)
	}
}

// TestConfigArguments checks that a constructor refusing a zero
// configuration gets one with small positive sizes, which builds the
// object whose race the zero value never reaches, and that the
// reproducer writes that configuration.
func TestConfigArguments(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, First: true, Patterns: pkgs("config")})
	if rep.Violations() == 0 {
		t.Fatalf("no violation, want one\n%s", reportText(rep))
	}
	tr := typeReport(t, rep, "Pool")
	if len(tr.Violations) != 1 || tr.Violations[0].Reproduced != report.ReproYes ||
		!strings.Contains(tr.Violations[0].Reproducer, "NewPool(Config{Workers: ") {
		t.Errorf("violations %+v, built by %v; want a reproduced race built by NewPool(Config{...})", tr.Violations, tr.BuiltBy)
	}
}

// TestReplayOtherOrders checks that a violation whose own schedule does
// not replay it is confirmed by replaying its test under the other
// targeted orders of its pair: the schedule of stream's panic (Close
// between Send's check and its send) is swapped for one that runs a call
// only once the other has returned, under which the window is out of
// reach, and the reproducer,
// a stress test of 20 iterations, misses a window plain repetition hits
// once in about 15,000 runs; the order that holds Send after its check
// replays it.
func TestReplayOtherOrders(t *testing.T) {
	t.Parallel()
	swap := func(pkg, typ string, v *finding) bool {
		v.sched = &harness.Schedule{Kind: harness.SchedTargeted, Holds: []harness.Hold{{G: 0}}, Patience: v.sched.Patience}
		v.Schedule = "targeted, one call after the other"
		return true
	}
	// The run ends at its first violation (about 10 s on an idle
	// machine); the budget leaves room for a loaded one, where building
	// the race-instrumented tests alone takes a good part of 30 s.
	rep := depconTest(t, Config{Budget: 90 * time.Second, Sched: SchedTargeted, Iters: 2, stopAt: swap,
		Patterns: []string{"../../testdata/corpus/stream"}})
	vs := typeReport(t, rep, "Stream").Violations
	if len(vs) != 1 || vs[0].Kind != report.KindPanic {
		t.Fatalf("violations %+v, want a panic; report:\n%s", vs, reportText(rep))
	}
	v := vs[0]
	if v.Reproduced == report.ReproYes && strings.Contains(v.ReproOutput, "--- FAIL") {
		t.Skipf("the reproducer hit the window itself: %s", v.ReproOutput)
	}
	if v.Reproduced != report.ReproYes || !strings.HasPrefix(v.Replayed, "0/") ||
		!strings.Contains(v.ReproOutput, "replayed under targeted ") {
		t.Errorf("reproduced %q, replayed %q, output %q: want no replay under the swapped schedule, "+
			"then one under another order of Close ∥ Send", v.Reproduced, v.Replayed, v.ReproOutput)
	}
}

// TestSequentialFailureRetired checks that a pair whose tests fail as
// its calls do one after the other (Close twice), and never pass, is
// tested no more after a few tests, with a note, that a type none of
// whose tests passed (Slots) is "not tested", and that the race of
// the type's other pair is found within a short budget although its
// objects are slow to build (each fills 8 MiB: a second or more for a few
// objects on a loaded machine, under the race detector; the type ends
// once both pairs are done, well before the budget when idle).
func TestSequentialFailureRetired(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 20 * time.Second, Patterns: pkgs("seqfail")})
	tr := typeReport(t, rep, "Feed")
	found := false
	for _, v := range tr.Violations {
		found = found || v.Kind == report.KindRace && v.Pair == [2]string{"Add", "Last"}
	}
	if !found {
		t.Errorf("violations %+v, want the race of Add ∥ Last", tr.Violations)
	}
	retired := false
	for _, n := range tr.Notes {
		retired = retired || strings.Contains(n, "Close ∥ Close") && strings.Contains(n, "not tested further")
	}
	if !retired {
		t.Errorf("notes %q: want Close ∥ Close retired", tr.Notes)
	}
	// Slots: every pair fails as its calls do in sequence.
	if tr := typeReport(t, rep, "Slots"); !strings.HasPrefix(tr.Skipped, "no test passed") || len(tr.Violations) > 0 {
		t.Errorf("Slots: skipped %q, violations %+v: want \"no test passed\", never clean", tr.Skipped, tr.Violations)
	}
}

// TestReach checks that the types a user obtains in the ways real
// packages hand them out are tested with a working object and their
// races found: an unexported type behind an io.WriteCloser, a
// constructor that validates its size, a registry refusing duplicate
// names, a constructor with two results, a receive-only channel
// parameter, an unlocked Close, a bool option that enables the racy
// path, a settings struct whose func field the constructor requires, a
// constructor whose interval every call waits for, a constructor whose
// goroutine kills the process on small intervals while the probe builds
// its second object (Poller: no sign of process-wide state), a factory
// parameter the package has a function for (Limiter), a method whose
// object's ticker ends the process on a zero interval (Rate: the
// arguments are blamed, not the method). Store's
// lock-off switch is never called
// (Store is correct), and Strict, which no generated arguments build, is
// "not tested", never clean.
func TestReach(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("reach")})
	for _, typ := range []string{"flusher", "Pool", "Meter", "Group", "Watcher", "Conn", "Batcher", "Recycler", "Ticker", "Poller", "Limiter", "Rate"} {
		tr := typeReport(t, rep, typ)
		if tr.Skipped != "" || slices.Contains(tr.BuiltBy, report.ZeroValue) {
			t.Errorf("%s: not tested with a working object: %q, built by %v", typ, tr.Skipped, tr.BuiltBy)
			continue
		}
		if tr.Confirmed() == 0 || tr.Violations[0].Kind != report.KindRace {
			t.Errorf("%s: no reproduced race: %+v, notes %q", typ, tr.Violations, tr.Notes)
		}
	}
	conn := typeReport(t, rep, "Conn")
	if !slices.ContainsFunc(conn.Violations, func(v *report.Violation) bool {
		return v.Question == "" && (v.Pair == [2]string{"Close", "Read"} || v.Pair == [2]string{"Read", "Close"})
	}) {
		t.Errorf("Conn: Close ∥ Read not reported as a bug: %+v", conn.Violations)
	}
	store := typeReport(t, rep, "Store")
	if len(store.Violations) > 0 {
		t.Errorf("Store: %d violations after its lock-off switch, want none\n%s", len(store.Violations), reportText(rep))
	}
	if !slices.ContainsFunc(store.Notes, func(n string) bool { return strings.HasPrefix(n, "NoLock switches") }) {
		t.Errorf("Store: no note of its lock-off switch: %q", store.Notes)
	}
	strict := typeReport(t, rep, "Strict")
	if !strings.HasPrefix(strict.Skipped, "no working object") {
		t.Errorf("Strict: skipped %q, want no working object\n%s", strict.Skipped, reportText(rep))
	}
	if r := rep.Reach; r == nil || r.Total != 14 || r.Tested != 13 || len(r.NotTested) != 1 || r.NotTested[0].Type != "Strict" {
		t.Errorf("reach %+v, want 13 of 14 with Strict not tested", r)
	}
	if text := reportText(rep); !strings.Contains(text, "reach: tested with a working object: 13 of 14 types with synchronisation") {
		t.Errorf("no reach line in the report:\n%s", text)
	}
}

// TestObjects checks the ways of building objects and arguments that
// testdata objects needs, each on a buggy type whose race must be found
// and reproduced the way it was built, and a correct twin:
//   - a type with no constructor whose exported Writer field must be set
//     is built by a composite literal (AsyncLog, though Std returns a
//     process-wide one; twin SyncLog);
//   - a constructor that opens a store in an existing directory gets one
//     (Queue's Open; twin SafeQueue);
//   - generic functions build objects and values: Cache only through
//     NewBuilder[K, V](n).Build(), Registry's Add given NewStatic[T]'s
//     Source (twin SafeRegistry);
//   - an http.Handler gets a recorder and a request whose client leaves
//     once the other call has returned (Broker; twin SafeBroker);
//   - an unexported type that a middleware's function literal returns,
//     as another package's interface, is selected and built by the
//     function that calls it (breaker's NewBreaker; twin safeBreaker);
//   - a parameter of another package's type gets that package's
//     constructor (WaterMark's Init(closer.NewCloser(n)));
//   - an interface nothing of the package implements gets a stub, and
//     its methods' interface results stubs of theirs (Bus's Listener and
//     its Scope; twin SafeBus);
//   - the race sync.WaitGroup reports between an Add at zero and Wait
//     is the contract a group's Wait passes on (Group: noted); a race
//     of a group's own fields is reported (twin CountingGroup), and so
//     is the same WaitGroup race with a method that is no group's Wait
//     (Pool's StopAndWait);
//   - a generated loader returns its key, not nil, and the tests that
//     call Get build objects with the constructor Get worked on, the one
//     that sets a loader (Loading's NewLoading, not NewPlain; twin
//     SafeLoading);
//   - the background context of a concurrent call ends once the
//     other call has returned (Service's Serve(ctx); twin SafeService);
//   - a net.Listener parameter gets a listener that closes once the
//     other call has returned (Listening's Serve; twin SafeListening);
//   - calls that fail alone are no concurrent failures: Feed's Send(nil)
//     breaks the feed for the other Send; an Addr that panics unless
//     Serve or Attach ran before it, after the same set-up, races with
//     them only as its callers' misuse (Server, Listening,
//     SafeListening: noted, not reported); twin Checked, whose Addr
//     returns, is reported, and so is Stack, whose Pop works after a
//     prefix that pushed.
func TestObjects(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Patterns: pkgs("objects")})
	for typ, repro := range map[string]string{
		"AsyncLog":  "&AsyncLog{Out: ",
		"Queue":     "t.TempDir()",
		"Cache":     "NewBuilder[int, int](",
		"Registry":  "NewStatic[",
		"Broker":    "httptest.NewRequest(",
		"WaterMark": "closer.NewCloser(",
		"Checked":   "NewChecked(",
		"Bus":       "Stub0{}",
		"Listening": "net.Listen(",
		"Stack":     ".Push(",
		// The race on its count, not the one of its WaitGroup.
		"CountingGroup": "NewCountingGroup(",
		"breaker":       "NewBreaker(",
		"Service":       "context.WithTimeout(",
		"Loading":       "r0 = p0",
		"connPool":      "NewConns(&ConnConfig{",
		"Emitter":       "func(...interface{}) {}",
		"throttler":     "NewThrottle(",
	} {
		tr := typeReport(t, rep, typ)
		if tr.Skipped != "" || tr.Confirmed() == 0 || tr.Violations[0].Kind != report.KindRace ||
			!strings.Contains(tr.Violations[0].Reproducer, repro) {
			t.Errorf("%s: skipped %q, built by %v, violations %+v: want a race reproduced with %q\n%s",
				typ, tr.Skipped, tr.BuiltBy, tr.Violations, repro, reportText(rep))
		}
	}
	for _, typ := range []string{"SyncLog", "SafeQueue", "SafeRegistry", "SafeBroker", "Feed", "Server", "SafeBus", "SafeListening", "Group", "safeBreaker", "SafeService", "SafeLoading", "safeConnPool", "SafeDelays", "SafeEmitter", "safeThrottler"} {
		if tr := typeReport(t, rep, typ); tr.Skipped != "" || len(tr.Violations) > 0 || slices.Contains(tr.BuiltBy, report.ZeroValue) && typ != "Feed" {
			t.Errorf("%s: skipped %q, built by %v, violations %+v: want it built and clean", typ, tr.Skipped, tr.BuiltBy, tr.Violations)
		}
	}
	for _, typ := range []string{"Loading", "SafeLoading"} {
		if tr := typeReport(t, rep, typ); slices.ContainsFunc(tr.Notes, func(n string) bool { return strings.Contains(n, "not tested further") }) {
			t.Errorf("%s: notes %q: want Get's pairs tested on the objects of the constructor that sets a loader", typ, tr.Notes)
		}
	}
	// Delays's defect is seen once Poll returns, as a race or as an
	// outcome no order gives, whichever comes first.
	if tr := typeReport(t, rep, "Delays"); tr.Confirmed() == 0 || !slices.ContainsFunc(tr.Violations, func(v *report.Violation) bool {
		return strings.Contains(v.Reproducer, "(<-chan struct{})(quit")
	}) {
		t.Errorf("Delays: skipped %q, violations %+v: want one reproduced with a quit channel", tr.Skipped, tr.Violations)
	}
	if tr := typeReport(t, rep, "strictPool"); !strings.Contains(tr.Skipped, "no working object") {
		t.Errorf("strictPool: skipped %q, built by %v: want it not tested, as no constructor builds one", tr.Skipped, tr.BuiltBy)
	}
	if g := typeReport(t, rep, "Group"); !slices.ContainsFunc(g.Notes, func(n string) bool { return strings.Contains(n, "sync.WaitGroup") }) {
		t.Errorf("Group: notes %q: want its WaitGroup race noted", g.Notes)
	}
	if v := typeReport(t, rep, "CountingGroup").Violations; len(v) == 0 || !strings.Contains(v[0].Message, "CountingGroup).Go()") {
		t.Errorf("CountingGroup: violations %+v: want the race on its count", v)
	}
	if v := typeReport(t, rep, "Pool").Violations; len(v) == 0 || v[0].Reproduced != report.ReproYes ||
		!strings.Contains(v[0].Message, "sync.WaitGroup's Add") {
		t.Errorf("Pool: violations %+v: want its WaitGroup race between Submit and StopAndWait reported", v)
	}
	for _, typ := range []string{"Server", "Listening", "SafeListening"} {
		tr := typeReport(t, rep, typ)
		if !slices.ContainsFunc(tr.Notes, func(n string) bool { return strings.Contains(n, "its callers order the two calls") }) {
			t.Errorf("%s: notes %q: want its race with an Addr that needs the other call first noted", typ, tr.Notes)
		}
		for _, v := range tr.Violations {
			if slices.Contains(v.Pair[:], "Addr") {
				t.Errorf("%s: %s ∥ %s reported: Addr fails unless the other call ran first", typ, v.Pair[0], v.Pair[1])
			}
		}
	}
}

// TestOwnGoroutineDeath checks that a constructor whose first object's
// goroutine kills the process while the probe builds the second (Poller
// with a small interval, the first probe's at seed 2) is probed again
// with other arguments, not taken for one that changes process-wide
// state: Poller is built and its race found.
func TestOwnGoroutineDeath(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Seed: 2, TypeRE: regexp.MustCompile(`^Poller$`), Patterns: pkgs("reach")})
	tr := typeReport(t, rep, "Poller")
	if tr.Skipped != "" || !slices.Equal(tr.BuiltBy, []string{"NewPoller"}) || tr.Confirmed() == 0 {
		t.Errorf("Poller: skipped %q, built by %v, violations %+v: want its race on an object NewPoller built\n%s",
			tr.Skipped, tr.BuiltBy, tr.Violations, reportText(rep))
	}
}

// TestConnPeer checks that a constructor taking a connection (mux's
// Client and Server, whose handshakes must be answered) is given one end
// of an in-memory connection whose other end the package's other
// constructor of the same signature serves: Session is built, and its
// race found and reproduced by a test that pairs the two the same way;
// Channel, built the same way, is correct.
func TestConnPeer(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("mux")})
	s := typeReport(t, rep, "Session")
	if s.Skipped != "" || s.Confirmed() == 0 || s.Violations[0].Kind != report.KindRace ||
		!strings.Contains(s.Violations[0].Reproducer, "net.Pipe()") {
		t.Errorf("Session: skipped %q, violations %+v: want a reproduced race on a connection served by a peer\n%s",
			s.Skipped, s.Violations, reportText(rep))
	}
	if c := typeReport(t, rep, "Channel"); c.Skipped != "" || len(c.Violations) > 0 {
		t.Errorf("Channel: skipped %q, violations %+v: want it built and clean", c.Skipped, c.Violations)
	}
}

// TestSharedObjects checks that a deadlock that needs both concurrent
// calls to be given the same two objects of another type, in opposite
// orders (Ledger's Transfer(from, to *Account)), is found and reproduced
// by a test that builds the two accounts once and passes them crosswise.
func TestSharedObjects(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("ledger")})
	l := typeReport(t, rep, "Ledger")
	if l.Confirmed() == 0 || l.Violations[0].Kind != report.KindDeadlock ||
		!strings.Contains(l.Violations[0].Reproducer, "shared") {
		t.Errorf("Ledger: %+v, want a reproduced deadlock of Transfer ∥ Transfer on shared accounts\n%s", l.Violations, reportText(rep))
	}
	if s := typeReport(t, rep, "SafeLedger"); len(s.Violations) > 0 {
		t.Errorf("SafeLedger: %+v, want none", s.Violations)
	}
}

// TestOwnGoroutines checks that a type with no synchronisation of its
// own whose Start leaves a goroutine running is tested, and that what its
// goroutine races with (Runs and Reset called after Start) is reported as
// a race, no contract question, while no race between the test's own
// calls is.
func TestOwnGoroutines(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("ownloop")})
	s := typeReport(t, rep, "Scheduler")
	var pairs []string
	for _, v := range s.Violations {
		if v.Kind != report.KindRace || v.Question != "" || v.Reproduced != report.ReproYes {
			t.Errorf("violation %+v: want a reproduced race, no question", v)
		}
		pairs = append(pairs, report.PairString(v.Pair))
	}
	slices.Sort(pairs)
	if !slices.Equal(pairs, []string{"Reset ∥ Start", "Runs ∥ Start"}) {
		t.Errorf("violations %q, want Reset ∥ Start and Runs ∥ Start\n%s", pairs, reportText(rep))
	}
}

// TestUseAfterEnd checks that a race of a call with the close of its
// object is not reported when the type does not support the call after
// Close at all (Collector's Submit panics after it, one call after the
// other), and is when it does (Guarded's Submit returns ErrClosed after
// Close, and races with it between its check and its send; File's Size
// crashes after Close on a nil buffer, a defect of its own). Throttle
// and Checked are the same pair with a Finish.
func TestUseAfterEnd(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("closing")})
	if c := typeReport(t, rep, "Collector"); len(c.Violations) > 0 {
		t.Errorf("Collector: %+v, want none\n%s", c.Violations, reportText(rep))
	}
	g := typeReport(t, rep, "Guarded")
	if g.Confirmed() == 0 || g.Violations[0].Pair != [2]string{"Close", "Submit"} {
		t.Errorf("Guarded: %+v, want Close ∥ Submit", g.Violations)
	}
	if th := typeReport(t, rep, "Throttle"); len(th.Violations) > 0 {
		t.Errorf("Throttle: %+v, want none: Do after Finish panics\n%s", th.Violations, reportText(rep))
	}
	if c := typeReport(t, rep, "Checked"); c.Confirmed() == 0 || c.Violations[0].Pair != [2]string{"Do", "Finish"} {
		t.Errorf("Checked: %+v, want Do ∥ Finish", c.Violations)
	}
	if f := typeReport(t, rep, "File"); !slices.ContainsFunc(f.Violations, func(v *report.Violation) bool {
		return v.Kind == report.KindRace && (v.Pair == [2]string{"Close", "Size"} || slices.Contains(v.AlsoSeenAs, [2]string{"Close", "Size"}))
	}) {
		t.Errorf("File: %+v, want the race of Close ∥ Size, though Size crashes after Close", f.Violations)
	}
}

// TestRestart checks that a method that brings the object back into use
// (Reboot) is tested on objects a prefix closed (Release): the race of a
// Reboot on a closed pool is found, which no test of an open pool reaches.
func TestRestart(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 8 * time.Second, Patterns: pkgs("restart")})
	p := typeReport(t, rep, "Pool")
	if !slices.ContainsFunc(p.Violations, func(v *report.Violation) bool {
		return v.Kind == report.KindRace && (v.Pair[0] == "Reboot" || v.Pair[1] == "Reboot")
	}) {
		t.Errorf("Pool: %+v, want a race of Reboot\n%s", p.Violations, reportText(rep))
	}
}

// TestComparedValues checks that a self-deadlock on the path a reserved
// name takes (Add("*") locks again) is found at every seed, the values
// the method compares its parameters with being tried before its self
// pair is saturated; the correct twin Teams stays clean.
func TestComparedValues(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		rep := depconTest(t, Config{Budget: 10 * time.Second, Seed: seed, Patterns: pkgs("emptyname")})
		g := typeReport(t, rep, "Groups")
		if len(g.Violations) == 0 || g.Violations[0].Kind != report.KindSelfDeadlock || g.Violations[0].Reproduced != report.ReproYes {
			t.Errorf("seed %d: Groups: %+v, want a reproduced self-deadlock of Add\n%s", seed, g.Violations, reportText(rep))
		}
		if tm := typeReport(t, rep, "Teams"); len(tm.Violations) > 0 {
			t.Errorf("seed %d: Teams: %+v, want none", seed, tm.Violations)
		}
	}
}

// TestSharedKey checks a lost update that needs both concurrent calls to
// name the key a prefix call registered (Gauges), and that the correct
// twin (Meters) stays clean.
func TestSharedKey(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 10 * time.Second, Patterns: pkgs("sharedkey")})
	g := typeReport(t, rep, "Gauges")
	if g.Confirmed() == 0 || g.Violations[0].Pair != [2]string{"Add", "Add"} {
		t.Errorf("Gauges: %+v, want Add ∥ Add\n%s", g.Violations, reportText(rep))
	}
	if m := typeReport(t, rep, "Meters"); len(m.Violations) > 0 {
		t.Errorf("Meters: %+v, want none", m.Violations)
	}
}

// TestSlowObjects checks that the probes of a type whose objects take
// long to build stop at half its budget, so that tests run and find its
// race; without the bound, the probes of its eleven methods spent the
// budget and the type was "not tested".
func TestSlowObjects(t *testing.T) {
	t.Parallel()
	rep := depconTest(t, Config{Budget: 5 * time.Second, Patterns: pkgs("slowbuild")})
	big := typeReport(t, rep, "Big")
	if big.Confirmed() == 0 || big.Violations[0].Kind != report.KindRace {
		t.Errorf("Big: %+v, skipped %q, want its race\n%s", big.Violations, big.Skipped, reportText(rep))
	}
	if !slices.ContainsFunc(big.Notes, func(n string) bool { return strings.HasPrefix(n, "the probes took half the budget") }) {
		t.Errorf("Big: notes %q, want the probes' bound", big.Notes)
	}
}

// TestInterruptedBeforeTesting checks that types an interruption kept
// from being tested are reported as such, each with that reason, and
// counted in the reach line, and that their diagnostics say why they
// were not tested.
func TestInterruptedBeforeTesting(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rep, err := Run(ctx, Config{Budget: 5 * time.Second, Seed: 1, Parallel: 1, Patterns: pkgs("ledger")})
	if !errors.Is(err, context.Canceled) || rep == nil {
		t.Fatalf("Run: %v, report %v: want the report and context.Canceled", err, rep)
	}
	for _, typ := range []string{"Account", "Ledger", "SafeLedger"} {
		if tr := typeReport(t, rep, typ); tr.Skipped != "interrupted before its testing began" || tr.Ended != report.EndedInterrupted {
			t.Errorf("%s: skipped %q, ended %q", typ, tr.Skipped, tr.Ended)
		}
	}
	if r := rep.Reach; r == nil || r.Total != 3 || r.Tested != 0 || len(r.NotTested) != 3 {
		t.Errorf("reach %+v, want 0 of 3", r)
	}
	for _, d := range rep.Diagnostics {
		if d.Why != "interrupted before its testing began" {
			t.Errorf("diagnostic %s: %s %q", d.Pos, d.Status, d.Why)
		}
	}
}
