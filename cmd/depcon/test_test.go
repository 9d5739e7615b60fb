package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depcon/depcon/runtime/report"
)

// depconTest runs the depcon command's test with -json and args, and
// returns the report (nil when the exit status is 2), the exit status and
// the standard error. It checks that no child of the packages' test
// binaries is left.
func depconTest(t *testing.T, args ...string) (*report.Report, int, string) {
	t.Helper()
	cmd := exec.Command(depconBin(t), append([]string{"test", "-json"}, args...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("depcon test %s: %v", strings.Join(args, " "), err)
	}
	code := cmd.ProcessState.ExitCode()
	t.Logf("depcon test %s: exit %d in %.1fs", strings.Join(args, " "), code, time.Since(start).Seconds())
	noLeftovers(t)
	if code == 2 {
		return nil, code, stderr.String()
	}
	rep, err := report.ReadJSON(&stdout)
	if err != nil {
		t.Fatalf("bad JSON report: %v\n%s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	return rep, code, stderr.String()
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

// typeReport returns the report of the type name in rep.
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

// TestTestUsage checks the usage errors of depcon test, and its -h.
func TestTestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-find", "fast", "./x"},
		{"-pairs", "some", "./x"},
		{"-sched", "soon", "./x"},
		{"-pct-depth", "4", "./x"},
		{"-type", "(", "./x"},
		{"-iters", "0", "./x"},
		{"-budget", "0s", "./x"},
		{"-shard", "3/2", "./x"},
		{"-shard", "half", "./x"},
		{"-timeout", "-1s", "./x"},
		{"-baseline", filepath.Join(t.TempDir(), "none.json"), "./x"},
		{"-merge", filepath.Join(t.TempDir(), "none.json")},
		{"-nosuchflag", "./x"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"depcon", "test"}, args...), &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("depcon test %q: exit status %d, stderr %q: want 2 and a message", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"depcon", "test", "-find", "fast", "./x"}, &stdout, &stderr)
	if want := "depcon test: -find \"fast\": want exception, deadlock or all\n"; code != 2 || stderr.String() != want {
		t.Errorf("depcon test -mode fast: exit status %d, stderr %q; want 2 and %q", code, stderr.String(), want)
	}
	stderr.Reset()
	code = run([]string{"depcon", "test", "-h"}, &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stderr.String(), testUsage) || !strings.Contains(stderr.String(), "-sarif") {
		t.Errorf("depcon test -h: exit status %d, stderr %q; want 0 and the usage with the flags", code, stderr.String())
	}
}

// TestBaseline checks that -write-baseline writes the violations found,
// and that a run given that file with -baseline reports them as known
// and exits 0, while a baseline that lists another pair changes nothing.
func TestBaseline(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "baseline.json")
	rep, code, stderr := depconTest(t, "-budget", "10s", "-first", "-write-baseline", file, "../../testdata/runtime/queue")
	if code != 1 {
		t.Fatalf("exit status %d, want 1\n%s", code, stderr)
	}
	b, err := report.ReadBaseline(file)
	if err != nil {
		t.Fatal(err)
	}
	v := typeReport(t, rep, "Queue").Violations[0]
	if len(b.Violations) != 1 || b.Violations[0].Type != "Queue" || b.Violations[0].Kind != v.Kind ||
		b.Violations[0].Pair != sortedPair(v.Pair) {
		t.Fatalf("baseline %+v, want the violation %s %v", b.Violations, v.Kind, v.Pair)
	}
	rep, code, stderr = depconTest(t, "-budget", "10s", "-first", "-baseline", file, "../../testdata/runtime/queue")
	if code != 0 {
		t.Errorf("with the baseline: exit status %d, want 0\n%s", code, stderr)
	}
	for _, v := range typeReport(t, rep, "Queue").Violations {
		if !v.Known {
			t.Errorf("with the baseline: %s %v not known", v.Kind, v.Pair)
		}
	}
	other := &report.Baseline{Version: 1, Violations: []report.BaselineEntry{{Package: b.Violations[0].Package, Type: "Queue",
		Kind: v.Kind, Pair: [2]string{"Len", "Len"}}}}
	if n := other.Apply(rep); n != 0 {
		t.Errorf("a baseline of another pair marks %d violations known", n)
	}
}

// sortedPair returns the pair of methods in the order baselines list
// them: by name, a single call as it is.
func sortedPair(p [2]string) [2]string {
	if p[1] != "" && p[1] < p[0] {
		p[0], p[1] = p[1], p[0]
	}
	return p
}

// TestShardMerge runs depcon test on a package of four types whole and in
// three shards, and checks that merging the shards' reports with -merge
// gives the whole run's report, timings aside.
func TestShardMerge(t *testing.T) {
	t.Parallel()
	runShard := func(args ...string) *report.Report {
		rep, code, stderr := depconTest(t, append([]string{"-budget", "1s", "-seed", "5", "-p", "1"}, append(args,
			"../../testdata/runtime/correct")...)...)
		if code != 0 {
			t.Fatalf("exit status %d\n%s", code, stderr)
		}
		return rep
	}
	whole := runShard()
	var files []string
	for k := 1; k <= 3; k++ {
		rep := runShard("-shard", fmt.Sprintf("%d/3", k))
		if len(rep.Types) > 2 {
			t.Errorf("shard %d/3 has %d of 4 types", k, len(rep.Types))
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		f := fmt.Sprintf("%s/shard%d.json", t.TempDir(), k)
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	merged, code, stderr := depconTest(t, append([]string{"-merge"}, files...)...)
	if code != 0 {
		t.Fatalf("-merge: exit status %d\n%s", code, stderr)
	}
	if a, b := withoutTimings(t, whole), withoutTimings(t, merged); a != b {
		t.Errorf("merged shards differ from the whole run:\n%s\nvs\n%s", b, a)
	}
}

// withoutTimings returns the JSON of rep without its timings and the
// counts that depend on them.
// timed matches a note that gives a duration.
var timed = regexp.MustCompile(`\b[0-9.]+(ns|µs|ms|s|m)\b`)

func withoutTimings(t *testing.T, rep *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	m := report.Merge(rep)
	for _, tr := range m.Types {
		// How many tests each schedule and order got depends on timing.
		tr.Interleavings, tr.Schedules, tr.PrefixCalls, tr.PrefixPruned = nil, nil, 0, 0
		// So do the notes that measure time: a budget spent by slow
		// requests, a constructor found slow.
		tr.Notes = slices.DeleteFunc(tr.Notes, func(n string) bool {
			return strings.HasPrefix(n, "only ") || timed.MatchString(n)
		})
	}
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	timing := regexp.MustCompile(`"(elapsed_s|tests_generated|pairs_tested)": [0-9.]+`)
	return timing.ReplaceAllString(b.String(), `"$1": 0`)
}
