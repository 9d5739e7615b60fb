package isolate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// waitDelay bounds the wait for a killed command's output.
const waitDelay = time.Second

// IsolationEnv is the environment variable that chooses how the
// filesystem is made read-only: "landlock" (Landlock only),
// "namespaces" (a mount namespace whose mounts are read-only, Landlock
// not used) or "auto" (the default: Landlock where the kernel enforces
// it, else the mount namespace).
const IsolationEnv = "DEPCON_ISOLATION"

// legacyRemount makes the mount namespace fallback remount each mount
// rather than use mount_setattr(2), as on kernels before 5.12 (tests set
// it).
var legacyRemount bool

// sysJail is a jail's Linux state.
type sysJail struct {
	self    string // the launcher: this executable
	cfg     launchConfig
	nproc   uint64
	policy  Policy
	cgroups []cgroupDir
	seq     atomic.Int64
}

// A launchConfig is how a launcher confines: the namespaces it is
// started in and what it applies to itself.
type launchConfig struct {
	cloneflags  uintptr // namespaces of a jailed process
	userns      bool    // cloneflags has CLONE_NEWUSER: uid and gid mappings
	loopback    bool    // a network namespace whose loopback interface is brought up
	landlock    bool    // the filesystem read-only by Landlock
	landlockNet bool    // TCP denied by Landlock
	mount       bool    // the filesystem read-only by the mounts of a mount namespace
	remount     bool    // with mount: each mount remounted, not mount_setattr(2)
}

// detect finds the mechanisms p can have: the cgroups this process may
// make, then probing launchers, one configuration after the other until
// one confines the filesystem (see candidates), tell what the kernel
// enforces.
func detect(p Policy) (*sysJail, Mechanisms, error) {
	var m Mechanisms
	mode := os.Getenv(IsolationEnv)
	switch mode {
	case "", "auto", "landlock", "namespaces":
	default:
		return nil, m, fmt.Errorf("%w: %s=%s: want landlock, namespaces or auto", errBadEnv, IsolationEnv, mode)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, m, fmt.Errorf("finding this executable, the launcher: %w", err)
	}
	s := &sysJail{self: self, policy: p, cgroups: cgroups()}
	for _, d := range s.cgroups {
		m.CgroupMemory = m.CgroupMemory || d.memory
		m.CgroupTasks = m.CgroupTasks || d.pids
		if d.v2 {
			m.Cgroup = "v2"
		} else if m.Cgroup == "" {
			m.Cgroup = "v1"
		}
	}
	var res *probeResult
	var landlockErr, mountErr error
	for _, cfg := range candidates(p, mode, os.Geteuid() == 0) {
		r, err := s.probeConfig(cfg)
		if err == nil {
			s.cfg, res = cfg, r
			break
		}
		switch {
		case cfg.mount:
			mountErr = err
		case cfg.cloneflags == 0:
			// Landlock alone failed: Landlock is not there.
			landlockErr = err
		}
	}
	if res == nil {
		s.close()
		switch mode {
		case "landlock":
			return nil, m, fmt.Errorf("%s=%s: %w", IsolationEnv, mode, landlockErr)
		case "namespaces":
			return nil, m, fmt.Errorf("%s=%s: no read-only mount namespace: %w", IsolationEnv, mode, mountErr)
		}
		return nil, m, fmt.Errorf("the kernel does not let depcon make the filesystem read-only: "+
			"Landlock is not available (%v), and no read-only mount namespace could be made (%v)", landlockErr, mountErr)
	}
	if !m.CgroupTasks && os.Geteuid() != 0 {
		// RLIMIT_NPROC counts the user's tasks (in a new user namespace,
		// those in the namespace); it does not bind root.
		s.nproc = uint64(p.Tasks)
		if !s.cfg.userns {
			s.nproc += uint64(userTasks(os.Getuid()))
		}
		m.Nproc = true
	}
	m.Landlock = res.Landlock
	m.MountNS = res.Mount
	m.NetNS = s.cfg.cloneflags&syscall.CLONE_NEWNET != 0
	m.PIDNS = s.cfg.cloneflags&syscall.CLONE_NEWPID != 0
	m.UserNS = s.cfg.userns
	m.LandlockNet = s.cfg.landlockNet && res.Landlock >= 4
	return s, m, nil
}

// candidates returns the configurations to try, in order of preference,
// for mode (IsolationEnv's value):
//
//   - Landlock in a PID and (unless p.Net) network namespace, without a
//     user namespace for root, then with one;
//   - Landlock alone, its TCP rules for the network (namespaces denied:
//     a container's seccomp profile, a sysctl, AppArmor);
//   - without Landlock (or with mode "namespaces"), a mount namespace
//     whose mounts are read-only but the scratch directory, with the PID
//     and network namespaces, without then with a user namespace for
//     root, and the capabilities dropped before the target runs.
func candidates(p Policy, mode string, root bool) []launchConfig {
	ns := uintptr(syscall.CLONE_NEWPID)
	if !p.Net {
		ns |= syscall.CLONE_NEWNET
	}
	var users []bool // with a user namespace
	if root {
		users = append(users, false)
	}
	users = append(users, true)
	with := func(flags uintptr, user bool, c launchConfig) launchConfig {
		c.cloneflags, c.userns, c.loopback = flags, user, flags&syscall.CLONE_NEWNET != 0
		if user {
			c.cloneflags |= syscall.CLONE_NEWUSER
		}
		return c
	}
	var out []launchConfig
	if mode != "namespaces" {
		for _, u := range users {
			out = append(out, with(ns, u, launchConfig{landlock: true}))
		}
		out = append(out, launchConfig{landlock: true, landlockNet: !p.Net})
	}
	if mode != "landlock" {
		for _, u := range users {
			out = append(out, with(ns|syscall.CLONE_NEWNS, u, launchConfig{mount: true, remount: legacyRemount}))
		}
	}
	return out
}

// probeConfig starts a launcher with cfg and returns what it enforced,
// or why cfg does not confine.
func (s *sysJail) probeConfig(cfg launchConfig) (*probeResult, error) {
	res, err := s.probe(cfg)
	switch {
	case err != nil:
		return nil, err
	case res.Err != "":
		return nil, errors.New(res.Err)
	case cfg.cloneflags != 0 && !res.Namespace:
		return nil, errors.New("the launcher is not in a PID namespace of its own")
	case !res.Confined:
		return nil, errors.New("a write outside the scratch directory was not denied")
	case !res.Writable:
		return nil, errors.New("the scratch directory cannot be written")
	case cfg.loopback && !res.Loopback:
		return nil, errors.New("the loopback interface is not up")
	}
	return res, nil
}

// probe starts a launcher that applies cfg's restrictions and says what
// it enforced.
func (s *sysJail) probe(cfg launchConfig) (*probeResult, error) {
	scratch, err := os.MkdirTemp("", "depcon-probe-")
	if err != nil {
		return nil, fmt.Errorf("probing the isolation: %w", err)
	}
	defer os.RemoveAll(scratch)
	sp := cfg.spec(scratch)
	sp.Probe = true
	b, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.self)
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), specEnv+"="+string(b))
	cmd.SysProcAttr = cfg.attr()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("probing the isolation: %w: %s", err, msg)
		}
		return nil, fmt.Errorf("probing the isolation: %w", err)
	}
	var res probeResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("probing the isolation: reading %q: %w", out, err)
	}
	return &res, nil
}

// spec returns the spec of a launcher of cfg writing in scratch.
func (cfg launchConfig) spec(scratch string) spec {
	return spec{Scratch: scratch, Landlock: cfg.landlock, LandlockNet: cfg.landlockNet, Loopback: cfg.loopback,
		Mount: cfg.mount, Remount: cfg.remount, DropCaps: cfg.mount}
}

// attr returns the process attributes of a launcher.
func (cfg launchConfig) attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Cloneflags: cfg.cloneflags, Pdeathsig: syscall.SIGKILL}
	if cfg.userns {
		// Root in the namespace, so that the launcher keeps the
		// capabilities it needs there (the loopback interface, the
		// mounts) across its execution; files it makes belong to the
		// user.
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
	return a
}

func (s *sysJail) close() {
	for _, d := range s.cgroups {
		_ = removeCgroupTree(d.dir)
	}
	s.cgroups = nil
}

// sysProc is a jailed process's Linux state.
type sysProc struct {
	cgroups []cgroupDir // its own cgroups (dir is the process's)
}

func (c *Cmd) start() error {
	j := c.jail
	if j.unconfined {
		setGroup(c.Cmd)
		return c.Cmd.Start()
	}
	if c.Cmd.Err != nil {
		return c.Cmd.Err
	}
	s := j.sys
	sp := s.cfg.spec(c.scratch)
	sp.Nproc = s.nproc
	p := &sysProc{}
	name := "c" + strconv.FormatInt(s.seq.Add(1), 10)
	for _, d := range s.cgroups {
		dir, err := d.procCgroup(name, s.policy)
		if err != nil {
			c.proc = p
			c.release()
			return fmt.Errorf("isolation: %w", err)
		}
		p.cgroups = append(p.cgroups, cgroupDir{dir: dir, v2: d.v2, memory: d.memory, pids: d.pids})
		sp.Cgroups = append(sp.Cgroups, filepath.Join(dir, "cgroup.procs"))
	}
	c.proc = p
	b, err := json.Marshal(sp)
	if err != nil {
		c.release()
		return err
	}
	env := c.Cmd.Env
	if env == nil {
		env = os.Environ()
	}
	c.Cmd.Env = append(env[:len(env):len(env)], specEnv+"="+string(b))
	// The launcher is this executable; it executes Args[0], the target.
	c.Cmd.Args[0] = c.Cmd.Path
	c.Cmd.Path = s.self
	c.Cmd.SysProcAttr = s.cfg.attr()
	if err := c.Cmd.Start(); err != nil {
		c.release()
		return err
	}
	return nil
}

// kill kills the command's process group and, where it has cgroups,
// every process in them (those that left the group).
func (c *Cmd) kill() error {
	err := killGroup(c.Cmd)
	if c.proc != nil {
		for _, d := range c.proc.cgroups {
			killCgroup(d.dir)
		}
	}
	return err
}

// release removes the command's cgroups and tells whether the memory
// bound killed it.
func (c *Cmd) release() Outcome {
	var o Outcome
	if c.proc == nil {
		return o
	}
	for _, d := range c.proc.cgroups {
		if d.memory && outOfMemory(d.dir, d.v2) {
			o.OutOfMemory = true
		}
		_ = removeCgroup(d.dir)
	}
	c.proc.cgroups = nil
	return o
}

// userTasks counts the tasks (threads) of the user uid.
func userTasks(uid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		fi, err := os.Stat(filepath.Join("/proc", e.Name()))
		if err != nil {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid {
			tasks, _ := os.ReadDir(filepath.Join("/proc", e.Name(), "task"))
			n += len(tasks)
		}
	}
	return n
}
