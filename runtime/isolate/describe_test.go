package isolate

import (
	"strings"
	"testing"
)

// TestDescribeSays checks that the isolation line names what is in force
// and what is not.
func TestDescribeSays(t *testing.T) {
	p := Policy{}.withDefaults()
	for _, tc := range []struct {
		j    *Jail
		want []string
	}{
		{&Jail{policy: p, mech: Mechanisms{Landlock: 7, NetNS: true, PIDNS: true, Cgroup: "v1", CgroupMemory: true, CgroupTasks: true}},
			[]string{"landlock v7", "netns", "pidns", "cgroup v1 (memory 4 GiB, 1024 tasks)"}},
		{&Jail{policy: p, mech: Mechanisms{Landlock: 4, LandlockNet: true, Nproc: true}},
			[]string{"landlock v4", "landlock tcp", "rlimits (memory unbounded, 1024 tasks)"}},
		{&Jail{policy: p, mech: Mechanisms{Landlock: 3}, why: "no network confinement"},
			[]string{"landlock v3", "network NOT confined", "tasks unbounded"}},
		{&Jail{policy: p, unconfined: true, why: "no Landlock"}, []string{"none (-unsafe-no-isolation: no Landlock)"}},
	} {
		d := tc.j.Describe()
		for _, w := range tc.want {
			if !strings.Contains(d, w) {
				t.Errorf("Describe() = %q, want %q in it", d, w)
			}
		}
	}
}
