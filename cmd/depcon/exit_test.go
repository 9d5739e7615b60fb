package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/report"
	"github.com/depcon/depcon/runtime/sarif/sariftest"
)

// The packages of the module the exit-status tests run on: one with a
// diagnostic, one without, one that does not parse.
const (
	srcFinding = `package finding

import "sync"

type C struct {
	mu sync.Mutex
	n  int
}

func (c *C) Inc() {
	c.mu.Lock()
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
`
	srcClean = `package clean

import "sync"

type C struct {
	mu sync.Mutex
	n  int
}

func (c *C) Inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }
func (c *C) Get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }
`
	srcBroken = "package broken\n\nfunc F( {\n"
)

// runIn runs the built command with args in dir and returns its exit
// status, standard output and standard error.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(depconBin(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("depcon %s: %v", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// lines returns the non-empty lines of s.
func lines(s string) []string {
	return slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return l == "" })
}

// TestExitStatusVetPairs checks the exit statuses of depcon vet (text,
// -json, -sarif) and depcon pairs on packages with and without
// diagnostics, and beside a package that does not parse, which is named
// once and does not keep the others from being analysed.
func TestExitStatusVetPairs(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"finding/finding.go": srcFinding,
		"clean/clean.go":     srcClean,
		"broken/broken.go":   srcBroken,
	})
	brokenLine := "example.com/m/broken: broken/broken.go:3:9: expected ')', found '{'"
	for _, c := range []struct {
		args []string
		want int
		// stderr: the lines that name a package that does not load
		notLoaded int
	}{
		{[]string{"vet", "./finding"}, 1, 0},
		{[]string{"vet", "./clean"}, 0, 0},
		{[]string{"vet", "./finding", "./broken"}, 1, 1},
		{[]string{"vet", "./clean", "./broken"}, 2, 1},
		{[]string{"vet", "-json", "./finding"}, 1, 0},
		{[]string{"vet", "-c", "1", "./finding"}, 1, 0},
		{[]string{"vet", "-test=false", "./..."}, 1, 1},
		{[]string{"vet", "-lockorder", "./finding"}, 0, 0},          // selfdeadlock not run
		{[]string{"vet", "-selfdeadlock=false", "./finding"}, 0, 0}, // all but selfdeadlock
		{[]string{"vet", "-sarif", "./finding"}, 1, 0},
		{[]string{"vet", "-sarif", "./clean"}, 0, 0},
		{[]string{"vet", "-sarif", "./clean", "./broken"}, 2, 1},
		{[]string{"vet", "-sarif", "./finding", "./broken"}, 1, 1},
		{[]string{"pairs", "./clean"}, 0, 0},
		{[]string{"pairs", "./..."}, 2, 1},
		// How the driver names a package that does not load is its own.
		{[]string{"test", "./broken"}, 2, -1},
		{[]string{"test", "./clean", "./broken"}, 2, -1},
		{[]string{"vet", "-confirm", "./broken"}, 2, -1},
		{[]string{"vet", "-confirm", "./clean"}, 0, 0}, // no diagnostic: nothing to test
	} {
		code, stdout, stderr := runIn(t, dir, c.args...)
		if code != c.want {
			t.Errorf("depcon %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, c.want, stderr)
		}
		if c.notLoaded < 0 && !strings.Contains(stderr, "broken") {
			t.Errorf("depcon %s: the package that does not load is not named:\n%s", strings.Join(c.args, " "), stderr)
		}
		if n := strings.Count(stderr, brokenLine); c.notLoaded >= 0 && n != c.notLoaded {
			t.Errorf("depcon %s: %d lines %q, want %d\n%s", strings.Join(c.args, " "), n, brokenLine, c.notLoaded, stderr)
		}
		if c.args[0] == "pairs" && !strings.Contains(stdout, "example.com/m/clean.C") {
			t.Errorf("depcon %s: no plan of clean.C:\n%s", strings.Join(c.args, " "), stdout)
		}
		if c.args[0] == "vet" && c.args[1] != "-sarif" && c.want == 1 && !strings.Contains(stderr+stdout, "finding.go:12:") {
			t.Errorf("depcon %s: the diagnostic is missing:\n%s%s", strings.Join(c.args, " "), stdout, stderr)
		}
	}

	// The text output is go vet's: file:line:col: message, then the
	// related position indented.
	_, _, stderr := runIn(t, dir, "vet", "./finding")
	got := lines(stderr)
	if len(got) != 2 || !strings.Contains(strings.SplitN(got[0], ": ", 2)[0], "finding/finding.go:12:") ||
		!strings.Contains(got[0], "c.mu is locked while already held") || !strings.Contains(got[1], ": \tc.mu acquired here") {
		t.Errorf("depcon vet ./finding: stderr\n%s\nwant the diagnostic and its related line", stderr)
	}

	// A directory that does not exist: one line, exit 2.
	code, _, stderr := runIn(t, dir, "vet", "./nosuch")
	if got := lines(stderr); code != exitError || len(got) != 1 || !strings.HasPrefix(got[0], "depcon vet: ./nosuch: ") {
		t.Errorf("depcon vet ./nosuch: exit %d, stderr\n%s\nwant 2 and one line", code, stderr)
	}

	// -sarif records the package that did not load in the log.
	out := filepath.Join(t.TempDir(), "vet.sarif")
	if code, _, stderr := runIn(t, dir, "vet", "-sarif", "-o", out, "./clean", "./broken"); code != exitError {
		t.Errorf("depcon vet -sarif -o: exit %d, want 2\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Errorf("not valid SARIF: %v", err)
	}
	if !strings.Contains(string(data), "does not load: "+brokenLine) {
		t.Errorf("the log does not name the broken package:\n%s", data)
	}

	// The profiles are written.
	cpu, mem := filepath.Join(t.TempDir(), "cpu.prof"), filepath.Join(t.TempDir(), "mem.prof")
	if code, _, stderr := runIn(t, dir, "vet", "-cpuprofile", cpu, "-memprofile", mem, "./clean"); code != exitClean {
		t.Errorf("depcon vet -cpuprofile -memprofile: exit %d, want 0\n%s", code, stderr)
	}
	for _, f := range []string{cpu, mem} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v, want a non-empty file", f, err)
		}
	}
}

// TestOutputsCheckedFirst checks that an output that cannot be written
// fails the command at once, naming its flag, and that the outputs
// opened before it are not left behind.
func TestOutputsCheckedFirst(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sarifOut := filepath.Join(tmp, "new.sarif")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"test", "-sarif", "/nonexistent-dir/x.sarif", "./..."}, "-sarif"},
		{[]string{"test", "-write-baseline", "/nonexistent-dir/b.json", "./..."}, "-write-baseline"},
		{[]string{"test", "-sarif", sarifOut, "-write-baseline", "/nonexistent-dir/b.json", "./..."}, "-write-baseline"},
		{[]string{"test", "-o", filepath.Join(file, "repro"), "./..."}, "-o"},
		{[]string{"test", "-merge", "-sarif", "/nonexistent-dir/x.sarif", "r.json"}, "-sarif"},
		{[]string{"vet", "-sarif", "-o", "/nonexistent-dir/x.sarif", "./..."}, "-o"},
		{[]string{"vet", "-confirm", "-o", filepath.Join(file, "repro"), "./..."}, "-o"},
		{[]string{"vet", "-memprofile", "/nonexistent-dir/mem", "./..."}, "-memprofile"},
	} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run(append([]string{"depcon"}, c.args...), &stdout, &stderr)
		if code != exitError || !strings.Contains(stderr.String(), c.flag+": ") {
			t.Errorf("depcon %s: exit %d, stderr %q; want 2 and the flag %s named", strings.Join(c.args, " "), code, stderr.String(), c.flag)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("depcon %s: failed after %v: the output was not checked first", strings.Join(c.args, " "), d)
		}
	}
	if _, err := os.Stat(sarifOut); !os.IsNotExist(err) {
		t.Errorf("the -sarif file opened before the failure was left: %v", err)
	}
	// Checking -o leaves no trace.
	repro := filepath.Join(tmp, "a", "b")
	if err := checkOutputDir("o", repro); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "a")); !os.IsNotExist(err) {
		t.Errorf("checking -o left %s: %v", filepath.Join(tmp, "a"), err)
	}
}

// writeReports writes the reports as JSON files and returns their names.
func writeReports(t *testing.T, reps ...*report.Report) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, rep := range reps {
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "r"+string(rune('a'+i))+".json")
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

func shardReport(shard string, types ...string) *report.Report {
	rep := &report.Report{Shard: shard, Types: []*report.TypeReport{}}
	for _, typ := range types {
		rep.Types = append(rep.Types, &report.TypeReport{Package: "example.com/m", Type: typ, Violations: []*report.Violation{}})
	}
	return rep
}

// TestMergeWarnings merges shard reports with one given twice and one
// missing: both are named on stderr, the duplicate counts once.
func TestMergeWarnings(t *testing.T) {
	files := writeReports(t, shardReport("1/3", "A"), shardReport("1/3", "A"), shardReport("3/3", "C"))
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"depcon", "test", "-merge", "-json"}, files...), &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	want := []string{
		"depcon test: -merge: shard 1/3 given twice (" + files[0] + " and " + files[1] + "): counted once, from " + files[0],
		"depcon test: -merge: shard 2/3 is missing: its types are not in the report",
	}
	if got := lines(stderr.String()); !slices.Equal(got, want) {
		t.Errorf("stderr:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rep, err := report.ReadJSON(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, tr := range rep.Types {
		types = append(types, tr.Type)
	}
	if !slices.Equal(types, []string{"A", "C"}) {
		t.Errorf("merged types %v, want [A C]", types)
	}
	if want := []string{"merge: shard 2/3 is missing: its types are not in the report"}; !slices.Equal(rep.Notes, want) {
		t.Errorf("merged notes %q, want %q", rep.Notes, want)
	}

	// All the shards, once each: no warning.
	files = writeReports(t, shardReport("1/2", "A"), shardReport("2/2", "B"))
	stdout.Reset()
	stderr.Reset()
	if code := run(append([]string{"depcon", "test", "-merge"}, files...), &stdout, &stderr); code != exitClean || stderr.Len() != 0 {
		t.Errorf("complete shards: exit %d, stderr %q; want 0 and nothing", code, stderr.String())
	}
}

// TestOutputFailsAtTheEnd merges a report with -sarif to a file that
// opens but cannot be written (/dev/full): the baseline and the report
// are written all the same, and the exit status is 2.
func TestOutputFailsAtTheEnd(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	files := writeReports(t, shardReport("", "A"))
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"depcon", "test", "-merge", "-json", "-sarif", "/dev/full", "-write-baseline", baseline, files[0]}, &stdout, &stderr)
	if code != exitError || !strings.Contains(stderr.String(), "-sarif: writing /dev/full: ") {
		t.Errorf("exit %d, stderr %q; want 2 and the -sarif failure", code, stderr.String())
	}
	if _, err := report.ReadBaseline(baseline); err != nil {
		t.Errorf("the baseline was not written: %v", err)
	}
	if _, err := report.ReadJSON(&stdout); err != nil {
		t.Errorf("the report was not written: %v", err)
	}
}

// TestStatus checks the order of the exit statuses: a missing output
// first, then findings, then packages that did not load.
func TestStatus(t *testing.T) {
	for _, c := range []struct {
		findings        int
		partial, output bool
		want            int
	}{
		{0, false, false, 0},
		{3, false, false, 1},
		{3, true, false, 1},
		{0, true, false, 2},
		{3, false, true, 2},
		{0, false, true, 2},
	} {
		if got := status(c.findings, c.partial, c.output); got != c.want {
			t.Errorf("status(%d, %v, %v) = %d, want %d", c.findings, c.partial, c.output, got, c.want)
		}
	}
}

// TestFlagValues checks that each invalid value names its flag, and that
// limits too small for a test binary are refused with the minimum.
func TestFlagValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "-p", "0", "./x"}, "depcon test: -p 0: want at least 1\n"},
		{[]string{"test", "-budget", "-1s", "./x"}, "depcon test: -budget -1s: want a positive duration\n"},
		{[]string{"test", "-iters", "0", "./x"}, "depcon test: -iters 0: want at least 1\n"},
		{[]string{"test", "-maxlen", "-2", "./x"}, "depcon test: -maxlen -2: want at least 1\n"},
		{[]string{"test", "-max-memory", "1", "./x"},
			"depcon test: -max-memory 1: a race-enabled test binary needs more to start: want at least 64 (MiB)\n"},
		{[]string{"test", "-max-tasks", "1", "./x"},
			"depcon test: -max-tasks 1: a race-enabled test binary needs more threads to start: want at least 16\n"},
		{[]string{"test", "-mode", "all", "-p", "0", "./x"},
			"depcon test: -mode is deprecated: use -find\ndepcon test: -p 0: want at least 1\n"},
		{[]string{"vet", "-confirm", "-p", "0", "./x"}, "depcon vet: -p 0: want at least 1\n"},
		{[]string{"vet", "-confirm", "-budget", "0s", "./x"}, "depcon vet: -budget 0s: want a positive duration\n"},
		{[]string{"vet", "-c", "-2", "./x"}, "depcon vet: -c -2: want a number of lines, or -1 for none\n"},
		{[]string{"bench", "-p", "0", "dir"}, "depcon bench: -p 0: want at least 1\n"},
		{[]string{"bench", "-seeds", "0", "dir"}, "depcon bench: -seeds 0: want at least 1\n"},
		{[]string{"bench", "-modes", "all", "-budget", "0s", "dir"},
			"depcon bench: -modes is deprecated: use -pairs\ndepcon bench: -budget 0s: want a positive duration\n"},
		{[]string{"pairs", "-callgraph", "rta", "./x"}, "depcon pairs: -callgraph \"rta\": want cha or vta\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"depcon"}, c.args...), &stdout, &stderr)
		if code != exitError || stderr.String() != c.want {
			t.Errorf("depcon %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
}

// TestSmallestLimits runs depcon test with the smallest -max-memory and
// -max-tasks it accepts on a package with a bug: the child starts and the
// bug is found and reproduced.
func TestSmallestLimits(t *testing.T) {
	t.Parallel()
	rep, code, stderr := depconTest(t, "-budget", "5s", "-first", "-max-memory", "64", "-max-tasks", "16", "../../testdata/runtime/queue")
	if code != exitFindings {
		t.Fatalf("exit status %d, want 1\n%s", code, stderr)
	}
	if !strings.Contains(rep.Isolation, "memory 64 MiB") || !strings.Contains(rep.Isolation, "16 tasks") {
		t.Logf("isolation %q: the bounds are not enforced here", rep.Isolation)
	}
	for _, v := range typeReport(t, rep, "Queue").Violations {
		if v.Reproduced != report.ReproYes {
			t.Errorf("%s %v: reproduced %q, want yes (the child ran out of a bound?)", v.Kind, v.Pair, v.Reproduced)
		}
	}
}

// TestHelp checks that -h and depcon help COMMAND exit 0 with the
// command's usage, without the deprecated flags.
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		cmd    []string
		usage  string
		hidden []string
	}{
		{[]string{"vet"}, "usage: depcon vet", []string{"-all", "-source", "-tags", "-fix", "-diff", "-debug", "-trace", "-v\n"}},
		{[]string{"vet", "-sarif"}, "usage: depcon vet -sarif", nil},
		{[]string{"vet", "-confirm"}, "usage: depcon vet -confirm", nil},
		{[]string{"pairs"}, "usage: depcon pairs", nil},
		{[]string{"test"}, "usage: depcon test", []string{"-mode "}},
		{[]string{"bench"}, "usage: depcon bench", []string{"-modes"}},
		{[]string{"lsp"}, "usage: depcon lsp", nil},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append(append([]string{"depcon"}, c.cmd...), "-h"), &stdout, &stderr)
		if code != exitClean || !strings.Contains(stderr.String(), c.usage) {
			t.Errorf("depcon %s -h: exit %d, stderr %q; want 0 and the usage", strings.Join(c.cmd, " "), code, stderr.String())
		}
		for _, h := range c.hidden {
			if strings.Contains(stderr.String(), "  "+h) {
				t.Errorf("depcon %s -h lists the deprecated %q", strings.Join(c.cmd, " "), h)
			}
		}
		stdout.Reset()
		stderr.Reset()
		code = run(append([]string{"depcon", "help"}, c.cmd...), &stdout, &stderr)
		if code != exitClean || !strings.Contains(stdout.String(), c.usage) || stderr.Len() != 0 {
			t.Errorf("depcon help %s: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout",
				strings.Join(c.cmd, " "), code, stdout.String(), stderr.String())
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "version"}} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"depcon"}, args...), &stdout, &stderr); code != exitClean || stdout.Len() == 0 {
			t.Errorf("depcon %s: exit %d, stdout %q", strings.Join(args, " "), code, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"depcon", "vet", "help"}, &stdout, &stderr); code != exitClean || !strings.Contains(stdout.String(), "    lockorder ") {
		t.Errorf("depcon vet help: exit %d, stdout %q; want 0 and the analyzers", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"depcon", "vet", "help", "lockorder"}, &stdout, &stderr); code != exitClean ||
		!strings.HasPrefix(stdout.String(), "lockorder: report locks acquired in inconsistent orders\n") {
		t.Errorf("depcon vet help lockorder: exit %d, stdout %q; want 0 and its documentation", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"depcon", "vet", "help", "nosuch"}, &stdout, &stderr); code != exitError {
		t.Errorf("depcon vet help nosuch: exit %d, want 2", code)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"depcon", "help", "nosuch"}, &stdout, &stderr); code != exitError ||
		!strings.Contains(stderr.String(), `unknown command "nosuch"`) {
		t.Errorf("depcon help nosuch: exit %d, stderr %q; want 2", code, stderr.String())
	}
	// A deprecated flag is still accepted, with a note.
	dir := writeModule(t, map[string]string{"clean/clean.go": srcClean})
	code, _, errOut := runIn(t, dir, "vet", "-all", "-source", "./clean")
	if code != exitClean || !strings.Contains(errOut, "depcon vet: -all has no effect (deprecated)\n") ||
		!strings.Contains(errOut, "depcon vet: -source has no effect (deprecated)\n") {
		t.Errorf("depcon vet -all -source: exit %d, stderr %q; want 0 and the notes", code, errOut)
	}
}

// TestVersion checks depcon version, -version, and the version line.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "-version", "--version"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"depcon", arg}, &stdout, &stderr); code != exitClean ||
			!strings.HasPrefix(stdout.String(), "depcon ") || !strings.HasSuffix(stdout.String(), "\n") {
			t.Errorf("depcon %s: exit %d, stdout %q", arg, code, stdout.String())
		}
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/depcon/depcon", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}}}
	got := versionOf(info, true)
	if !strings.HasPrefix(got, "depcon v1.2.3 revision 0123456789abcdef+modified (2026-01-02T03:04:05Z) go1.26.8 ") {
		t.Errorf("versionOf = %q", got)
	}
	if got := versionOf(nil, false); got != "depcon (no build information)" {
		t.Errorf("versionOf without build information = %q", got)
	}
	info.Main.Version, info.Settings = "", nil
	if got := versionOf(info, true); !strings.HasPrefix(got, "depcon (devel) go1.26.8 ") {
		t.Errorf("versionOf of a build without VCS = %q", got)
	}
}
