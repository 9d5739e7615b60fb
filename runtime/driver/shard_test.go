package driver

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/testgen"
)

// TestShard checks that the shards partition the selected types, differ
// by at most one type, balance the planned pairs, and do not depend on
// the order the types come in.
func TestShard(t *testing.T) {
	var sel []pkgSubjects
	total := 0
	for p := range 3 {
		ps := pkgSubjects{pkg: &packages.Package{PkgPath: fmt.Sprintf("example.com/p%d", p)}}
		for i := range 5 + p {
			pairs := (i*7 + p*3) % 11
			total += pairs
			ps.subjects = append(ps.subjects, &testgen.Subject{
				Plan: &deps.TypePlan{Name: fmt.Sprintf("T%d", i), Pairs: make([]deps.Pair, pairs)}})
		}
		sel = append(sel, ps)
	}
	names := func(sel []pkgSubjects) (out []string, pairs int) {
		for _, ps := range sel {
			for _, s := range ps.subjects {
				out = append(out, ps.pkg.PkgPath+"."+s.Plan.Name)
				pairs += s.Plan.Dependent()
			}
		}
		return out, pairs
	}
	all, _ := names(sel)
	for _, n := range []int{1, 2, 3, 4, 7, 30} {
		var union []string
		lo, hi := len(all), 0
		minPairs, maxPairs := total, 0
		for k := 1; k <= n; k++ {
			got, pairs := names(shard(sel, k, n))
			union = append(union, got...)
			lo, hi = min(lo, len(got)), max(hi, len(got))
			minPairs, maxPairs = min(minPairs, pairs), max(maxPairs, pairs)
			// The same shard from the packages in another order.
			rev := slices.Clone(sel)
			slices.Reverse(rev)
			again, _ := names(shard(rev, k, n))
			slices.Sort(got)
			slices.Sort(again)
			if !slices.Equal(got, again) {
				t.Errorf("shard %d/%d depends on the order: %v vs %v", k, n, got, again)
			}
		}
		slices.Sort(union)
		want := slices.Sorted(slices.Values(all))
		if !slices.Equal(union, want) {
			t.Errorf("%d shards: union %v, want %v", n, union, want)
		}
		if hi-lo > 1 {
			t.Errorf("%d shards: from %d to %d types", n, lo, hi)
		}
		if n <= 4 && maxPairs-minPairs > 10 {
			t.Errorf("%d shards: pairs from %d to %d", n, minPairs, maxPairs)
		}
	}
}

// TestShardMerge runs depcon test on a package of four types whole and in
// three shards, and checks that merging the shards' reports gives the
// whole run's report, timings aside.
func TestShardMerge(t *testing.T) {
	t.Parallel()
	run := func(args ...string) *Report {
		rep, code, stderr := depconTest(t, append([]string{"-budget", "1s", "-seed", "5", "-p", "1"}, append(args,
			testdataDir+"correct")...)...)
		if code != 0 {
			t.Fatalf("exit status %d\n%s", code, stderr)
		}
		return rep
	}
	whole := run()
	var files []string
	for k := 1; k <= 3; k++ {
		rep := run("-shard", fmt.Sprintf("%d/3", k))
		if len(rep.Types) > 2 {
			t.Errorf("shard %d/3 has %d of 4 types", k, len(rep.Types))
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		f := fmt.Sprintf("%s/shard%d.json", t.TempDir(), k)
		if err := writeFile(f, b.Bytes()); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var stdout, stderr bytes.Buffer
	if code := Main(append([]string{"-json", "-merge"}, files...), &stdout, &stderr); code != 0 {
		t.Fatalf("-merge: exit status %d\n%s", code, stderr.Bytes())
	}
	merged, err := ReadJSON(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := comparable(t, whole), comparable(t, merged); a != b {
		t.Errorf("merged shards differ from the whole run:\n%s\nvs\n%s", b, a)
	}
}

var timingRE = regexp.MustCompile(`"(elapsed_s|tests_generated|pairs_tested)": [0-9.]+`)

// comparable returns the JSON of rep without its timings and the counts
// that depend on them.
func comparable(t *testing.T, rep *Report) string {
	t.Helper()
	var b bytes.Buffer
	m := Merge(rep)
	for _, tr := range m.Types {
		// How many tests each schedule and order got depends on timing.
		tr.Interleavings, tr.Schedules, tr.PrefixCalls, tr.PrefixPruned = nil, nil, 0, 0
		// So does the note on a budget spent by slow requests.
		tr.Notes = slices.DeleteFunc(tr.Notes, func(n string) bool { return strings.HasPrefix(n, "only ") })
	}
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return timingRE.ReplaceAllString(b.String(), `"$1": 0`)
}

func writeFile(name string, b []byte) error { return os.WriteFile(name, b, 0o644) }
