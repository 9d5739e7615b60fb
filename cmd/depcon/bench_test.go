package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/depcon/depcon/runtime/bench"
	"github.com/depcon/depcon/runtime/testgen"
)

const corpusDir = "../../testdata/corpus"

// benchCorpus returns a corpus of two subjects of the corpus, in a module
// of their own: meter, whose race every mode finds in its first tests
// (on any pair with Mark, all listed as equivalent), and the control
// kvstore.
func benchCorpus(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	for _, pkg := range []string{"kvstore", "meter"} {
		data, err := os.ReadFile(filepath.Join(corpusDir, pkg, pkg+".go"))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(pkg, pkg+".go")] = string(data)
	}
	files[bench.TruthFile] = `[
  {"name": "kvstore", "type": "Store", "bug": "none", "kinds": [], "pair": [], "objects": 1, "note": ""},
  {"name": "meter", "type": "Meter", "bug": "lost-update", "kinds": ["race"], "pair": ["Mark", "Mark"], "objects": 1, "note": "",
   "equivalent": [["Count", "Mark"], ["Mark", "Reset"], ["Mark", "Snapshot"]]}
]`
	return writeModule(t, files)
}

// TestBenchUsage checks the usage errors of depcon bench and its -h.
func TestBenchUsage(t *testing.T) {
	mini := benchCorpus(t)
	for _, args := range [][]string{
		{},
		{"-seeds", "0", corpusDir},
		{"-budget", "-1s", corpusDir},
		{"-pairs", "dependent,sometimes", corpusDir},
		{"-pairs", "all,all", corpusDir},
		{"-sched", "stress,fast", corpusDir},
		{"-sched", "pct,pct", corpusDir},
		{"-sched", "", corpusDir},
		{"-subjects", "meter,nosuch", mini},
		{"-nosuchflag", corpusDir},
		{corpusDir, corpusDir},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"depcon", "bench"}, args...), &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("depcon bench %q: exit %d with stderr %q, want 2 and a message", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"depcon", "bench", "-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "usage: depcon bench") {
		t.Errorf("depcon bench -h: exit %d with %q, want 0 and the usage", code, stderr.String())
	}
	// A corpus without truth.json is not a usage error.
	stderr.Reset()
	if code := run([]string{"depcon", "bench", t.TempDir()}, &stdout, &stderr); code != exitError || stderr.Len() == 0 {
		t.Errorf("depcon bench on a directory without truth: exit %d with %q, want 2 and a message", code, stderr.String())
	}
}

func TestParseBench(t *testing.T) {
	opt, err := parseBench([]string{"-sched", "stress,targeted", "-pairs", "dependent", "dir"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opt.Scheds, []string{bench.SchedStress, bench.SchedTargeted}) || !slices.Equal(opt.Pairs, []string{testgen.PairsDependent}) {
		t.Errorf("schedulers %q, modes %q; want stress, targeted and dependent", opt.Scheds, opt.Pairs)
	}
	if opt, err = parseBench([]string{"dir"}, &bytes.Buffer{}); err != nil || !slices.Equal(opt.Scheds, []string{bench.SchedAll}) ||
		len(opt.Pairs) != 3 {
		t.Errorf("defaults: schedulers %q, modes %q, error %v; want all and the three modes", opt.Scheds, opt.Pairs, err)
	}
	opt, err = parseBench([]string{"-budget", "2s", "-seeds", "3", "-p", "2", "-json", "-subjects", "a,b", "dir"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.Dir != "dir" || opt.Budget.String() != "2s" || opt.Seeds != 3 || opt.Parallel != 2 || !opt.json ||
		!slices.Equal(opt.Subjects, []string{"a", "b"}) {
		t.Errorf("options %+v, want dir, 2s, 3 seeds, 2 at once, JSON and subjects a and b", opt)
	}
}

// TestBenchCommand runs depcon bench on meter of benchCorpus, with one
// seed, scheduler and mode, and checks the exit status, the log and the
// header and results of the text report. The budget leaves room for a
// loaded machine: under stress scheduling, seed 1 meets meter's race in
// its seventh test, about 2 s in on an idle machine.
func TestBenchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the child of a subject")
	}
	t.Parallel()
	cmd := exec.Command(depconBin(t), "bench", "-budget", "10s", "-seeds", "1", "-sched", "stress", "-pairs", "dependent",
		"-subjects", "meter", benchCorpus(t))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("depcon bench: exit %d (%v)\n%s", code, err, stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "depcon bench: 1 subjects, 1 schedulers, 1 pair selections, 1 seeds, budget 10s") ||
		!strings.Contains(stderr.String(), "depcon bench: seed 1/1, scheduler stress, pairs dependent: 1 of 1 bugs found") {
		t.Errorf("the log lacks the plan or the run:\n%s", stderr.Bytes())
	}
	out := stdout.String()
	for _, want := range []string{"depcon bench ", ": 1 buggy subjects (0 hard), 0 controls; schedulers stress; pairs dependent; seeds 1..1; budget 10s per type and run; 1 at once\n",
		"\nmachine: ", "load average (1, 5, 15 min) at the end: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the header lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(out, "depcon bench ") {
		t.Errorf("the output does not start with the header:\n%s", out)
	}
	found := false
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "meter" && f[1] == "1/1" {
			found = true
		}
	}
	if !found {
		t.Errorf("no line of meter with its bug found in its one run:\n%s", out)
	}
}
