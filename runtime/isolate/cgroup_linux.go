package isolate

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// A cgroupDir is a cgroup of this run, in one hierarchy: the jailed
// processes' cgroups are made in it.
type cgroupDir struct {
	dir    string // .../depcon-PID
	v2     bool
	memory bool // it bounds memory
	pids   bool // it bounds tasks
}

// cgroups finds, for the memory and pids controllers, a hierarchy where
// this process may make cgroups, and makes the jail's cgroup there
// (depcon-PID-N among this process's own cgroup's children). Cgroups
// left by runs that were killed are removed first.
func cgroups() []cgroupDir {
	mounts := cgroupMounts()
	own := ownCgroups()
	var out []cgroupDir
	have := map[string]bool{}
	// cgroup v1: one hierarchy per controller.
	for _, ctl := range []string{"memory", "pids"} {
		for _, m := range mounts {
			if m.v2 || !m.controllers[ctl] {
				continue
			}
			path, ok := own[ctl]
			if !ok {
				continue
			}
			if d, ok := makeRunCgroup(m.base(path)); ok {
				out = append(out, cgroupDir{dir: d, memory: ctl == "memory", pids: ctl == "pids"})
				have[ctl] = true
			}
			break
		}
	}
	if have["memory"] && have["pids"] {
		return out
	}
	// cgroup v2: the controllers this process's cgroup hands to its
	// children.
	for _, m := range mounts {
		path, ok := own[""]
		if !m.v2 || !ok {
			continue
		}
		base := m.base(path)
		ctl, err := os.ReadFile(filepath.Join(base, "cgroup.subtree_control"))
		if err != nil {
			break
		}
		fields := map[string]bool{}
		for _, f := range strings.Fields(string(ctl)) {
			fields[f] = true
		}
		mem, pids := fields["memory"] && !have["memory"], fields["pids"] && !have["pids"]
		if !mem && !pids {
			break
		}
		d, ok := makeRunCgroup(base)
		if !ok {
			break
		}
		var want []string
		if mem {
			want = append(want, "+memory")
		}
		if pids {
			want = append(want, "+pids")
		}
		if os.WriteFile(filepath.Join(d, "cgroup.subtree_control"), []byte(strings.Join(want, " ")), 0) != nil {
			_ = removeCgroup(d)
			break
		}
		out = append(out, cgroupDir{dir: d, v2: true, memory: mem, pids: pids})
		break
	}
	return out
}

// jails numbers the jails of this process.
var jails atomic.Int64

// makeRunCgroup sweeps the cgroups of dead runs in base and makes this
// run's.
func makeRunCgroup(base string) (string, bool) {
	ents, _ := os.ReadDir(base)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "depcon-")
		if !ok || !e.IsDir() {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		if n, err := strconv.Atoi(pid); err == nil && n != os.Getpid() && !Alive(n) {
			_ = removeCgroupTree(filepath.Join(base, e.Name()))
		}
	}
	// One per jail: a process may have several (tests do).
	d := filepath.Join(base, fmt.Sprintf("depcon-%d-%d", os.Getpid(), jails.Add(1)))
	if err := os.Mkdir(d, 0o755); err != nil {
		return "", false
	}
	return d, true
}

// procCgroup makes the cgroup of one jailed process in d, named name,
// with the bounds of p.
func (d cgroupDir) procCgroup(name string, p Policy) (string, error) {
	dir := filepath.Join(d.dir, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	var limits [][2]string
	switch {
	case d.v2:
		if d.memory {
			limits = append(limits, [2]string{"memory.max", strconv.FormatInt(p.Memory, 10)},
				[2]string{"memory.swap.max", "0"})
		}
		if d.pids {
			limits = append(limits, [2]string{"pids.max", strconv.Itoa(p.Tasks)})
		}
	case d.memory:
		limits = append(limits, [2]string{"memory.limit_in_bytes", strconv.FormatInt(p.Memory, 10)},
			[2]string{"memory.memsw.limit_in_bytes", strconv.FormatInt(p.Memory, 10)})
	case d.pids:
		limits = append(limits, [2]string{"pids.max", strconv.Itoa(p.Tasks)})
	}
	for i, l := range limits {
		err := os.WriteFile(filepath.Join(dir, l[0]), []byte(l[1]), 0)
		if err != nil && (i == 0 || !errors.Is(err, os.ErrNotExist)) { // swap accounting may be off
			_ = removeCgroup(dir)
			return "", fmt.Errorf("setting %s of %s: %w", l[0], dir, err)
		}
	}
	return dir, nil
}

// outOfMemory reports whether the memory bound of the cgroup dir (of a
// cgroupDir that bounds memory) killed a process.
func outOfMemory(dir string, v2 bool) bool {
	name := "memory.oom_control"
	if v2 {
		name = "memory.events"
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "oom_kill" && f[1] != "0" {
			return true
		}
	}
	if !v2 {
		// Kernels before 4.13 have no oom_kill count.
		fc, err := os.ReadFile(filepath.Join(dir, "memory.failcnt"))
		return err == nil && strings.TrimSpace(string(fc)) != "0" && !strings.Contains(string(b), "oom_kill")
	}
	return false
}

// killCgroup kills every process of the cgroup dir.
func killCgroup(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// removeCgroup kills what is left in the cgroup dir and removes it,
// waiting up to a second for the killed processes to be gone.
func removeCgroup(dir string) error {
	var err error
	for range 50 {
		killCgroup(dir)
		if err = syscall.Rmdir(dir); err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// removeCgroupTree removes the cgroup dir and the cgroups in it.
func removeCgroupTree(dir string) error {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			_ = removeCgroupTree(filepath.Join(dir, e.Name()))
		}
	}
	return removeCgroup(dir)
}

// A cgroupMount is a mounted cgroup hierarchy.
type cgroupMount struct {
	point       string // where it is mounted
	root        string // the hierarchy's directory mounted there
	v2          bool
	controllers map[string]bool // v1
}

// base returns the directory of the cgroup path (as /proc/self/cgroup
// gives it) in the mount.
func (m cgroupMount) base(path string) string {
	rel, ok := strings.CutPrefix(path, m.root)
	if !ok {
		rel = path
	}
	return filepath.Join(m.point, rel)
}

// cgroupMounts returns the cgroup hierarchies of /proc/self/mountinfo.
func cgroupMounts() []cgroupMount {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	var out []cgroupMount
	for line := range strings.Lines(string(b)) {
		// id parent major:minor root point options [optional...] - fstype source superoptions
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		switch g[0] {
		case "cgroup2":
			out = append(out, cgroupMount{point: f[4], root: f[3], v2: true})
		case "cgroup":
			ctl := map[string]bool{}
			for _, o := range strings.Split(g[2], ",") {
				ctl[o] = true
			}
			out = append(out, cgroupMount{point: f[4], root: f[3], controllers: ctl})
		}
	}
	return out
}

// ownCgroups returns this process's cgroup per v1 controller, and its
// v2 cgroup under "".
func ownCgroups() map[string]string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for line := range strings.Lines(string(b)) {
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[1] == "" {
			out[""] = f[2]
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			out[c] = f[2]
		}
	}
	return out
}
