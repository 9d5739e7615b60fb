package sched

import (
	"slices"
	"testing"

	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/harness"
)

// TestGapPoints checks the points of a method at which a call is kept
// before it locks again: those before an acquisition with no release of
// the method between, nearest first, at most maxGap; none in another
// method, none before the first critical section's own release.
func TestGapPoints(t *testing.T) {
	f := "(*Table).Retarget"
	sites := &instrument.Result{Sites: []instrument.Site{
		{ID: 1, Kind: instrument.KindPoint, Pos: "t.go:10:2", Func: f}, // position(name): a call that locks
		{ID: 2, Kind: instrument.KindPoint, Pos: "t.go:12:2", Func: f}, // canonical(addr)
		{ID: 3, Kind: instrument.KindPoint, Pos: "t.go:14:2", Func: f}, // if t.version.Load() != v
		{ID: 4, Kind: instrument.KindLock, Pos: "t.go:16:2", Func: f, Op: "Lock"},
		{ID: 5, Kind: instrument.KindPoint, Pos: "t.go:18:2", Func: f},
		{ID: 6, Kind: instrument.KindUnlocked, Pos: "t.go:19:2", Func: f, Op: "Unlock"},
		{ID: 7, Kind: instrument.KindPoint, Pos: "t.go:20:2", Func: f},
		{ID: 8, Kind: instrument.KindLock, Pos: "t.go:22:2", Func: f, Op: "Lock"},
		{ID: 9, Kind: instrument.KindPoint, Pos: "t.go:30:2", Func: "(*Table).Remove"},
		{ID: 10, Kind: instrument.KindLock, Pos: "t.go:31:2", Func: "(*Table).Remove", Op: "Lock"},
	}}
	if got, want := gapPoints(sites, sites.Site(5)), []int{3, 7, 2}; !slices.Equal(got, want) {
		t.Errorf("gap points %v, want %v (nearest first: 14 before the first Lock, 20 before the second, then 12)", got, want)
	}
	if got := gapPoints(sites, sites.Site(10)); !slices.Equal(got, []int{9}) {
		t.Errorf("Remove's gap points %v, want [9]", got)
	}
	if got := gapPoints(sites, nil); got != nil {
		t.Errorf("no site: %v", got)
	}
}

// TestReaches checks when a test's traced calls reach an order's sites:
// each hold's call at and past its sites, the other call at the site it
// waits for.
func TestReaches(t *testing.T) {
	o := Order{Holds: []harness.Hold{{G: 1, Past: 10, Free: true, UntilSite: 21}, {G: 0, UntilSite: 10}}}
	for _, tc := range []struct {
		reached [2][]int
		want    bool
	}{
		{[2][]int{{17, 21}, {9, 10, 11}}, true},
		{[2][]int{{17, 21}, {9, 37}}, false}, // the second call stops before 10
		{[2][]int{{17}, {9, 10}}, false},     // the first never gets to 21
		{[2][]int{{10}, {21}}, false},        // the sites, but in the other calls
	} {
		if got := reaches(o, tc.reached); got != tc.want {
			t.Errorf("reaches(%v) = %v, want %v", tc.reached, got, tc.want)
		}
	}
	at := Order{Holds: []harness.Hold{{G: 0, At: 5, UntilSite: 6}}}
	if !reaches(at, [2][]int{{5}, {6}}) || reaches(at, [2][]int{{6}, {5}}) {
		t.Error("an At hold: want reached only when its call gets to the site and the other to its until site")
	}
}
