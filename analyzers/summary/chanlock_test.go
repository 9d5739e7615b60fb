package summary_test

import (
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/summary"
)

// TestChanLocks checks which channel fields are taken as mutexes: the
// channel of one slot sent on to lock and received from to unlock (in a
// select too), not a semaphore of four slots, a token channel filled
// where it is made, a closed stream, or a wake-up channel filled without
// blocking and drained among other cases.
func TestChanLocks(t *testing.T) {
	pkgs, err := packages.Load(testpkgs.Config(t), "chanlock", "chanlockdl")
	if err != nil {
		t.Fatal(err)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{summary.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		got = append(got, slices.Collect(maps.Keys(act.Result.(*summary.Result).ChanLocks))...)
	}
	slices.Sort(got)
	want := []string{"chanlock.Batcher.lockC", "chanlock.Journal.lockC", "chanlock.Skipper.lockC", "chanlockdl.Log.lockC"}
	if !slices.Equal(got, want) {
		t.Errorf("channel locks %q, want %q", got, want)
	}
}
