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

// sysJail is a jail's Linux state.
type sysJail struct {
	self        string  // the launcher: this executable
	cloneflags  uintptr // namespaces of a jailed process
	userns      bool
	loopback    bool
	landlockNet bool
	nproc       uint64
	policy      Policy
	cgroups     []cgroupDir
	seq         atomic.Int64
}

// detect finds the mechanisms p can have: the cgroups this process may
// make, then a probing launcher started with every namespace, and again
// without namespaces when they are denied, tells what the kernel
// enforces.
func detect(p Policy) (*sysJail, Mechanisms, error) {
	var m Mechanisms
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
	flags := uintptr(syscall.CLONE_NEWPID)
	if !p.Net {
		flags |= syscall.CLONE_NEWNET
	}
	if os.Geteuid() != 0 {
		flags |= syscall.CLONE_NEWUSER
	}
	s.cloneflags, s.userns, s.loopback = flags, flags&syscall.CLONE_NEWUSER != 0, flags&syscall.CLONE_NEWNET != 0
	res, err := s.probe()
	if err != nil || res.Err != "" || !res.Namespace {
		// Namespaces denied (a container's seccomp profile, a kernel
		// setting): Landlock alone.
		s.cloneflags, s.userns, s.loopback = 0, false, false
		s.landlockNet = !p.Net
		res, err = s.probe()
	}
	if err != nil {
		s.close()
		return nil, m, err
	}
	if res.Err != "" {
		s.close()
		return nil, m, errors.New(res.Err)
	}
	if !res.Confined {
		s.close()
		return nil, m, errors.New("a write outside the scratch directory was not denied")
	}
	if !m.CgroupTasks && os.Geteuid() != 0 {
		// RLIMIT_NPROC counts the user's tasks (in a new user namespace,
		// those in the namespace); it does not bind root.
		s.nproc = uint64(p.Tasks)
		if !s.userns {
			s.nproc += uint64(userTasks(os.Getuid()))
		}
		m.Nproc = true
	}
	m.Landlock = res.Landlock
	m.NetNS = s.cloneflags&syscall.CLONE_NEWNET != 0
	m.PIDNS = s.cloneflags&syscall.CLONE_NEWPID != 0
	m.UserNS = s.userns
	m.LandlockNet = s.landlockNet && res.Landlock >= 4
	return s, m, nil
}

// probe starts a launcher that applies the jail's restrictions and says
// what it enforced.
func (s *sysJail) probe() (*probeResult, error) {
	scratch, err := os.MkdirTemp("", "depcon-probe-")
	if err != nil {
		return nil, fmt.Errorf("probing the isolation: %w", err)
	}
	defer os.RemoveAll(scratch)
	sp := spec{Scratch: scratch, Landlock: true, LandlockNet: s.landlockNet, Loopback: s.loopback, Probe: true}
	b, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.self)
	cmd.Dir = scratch
	cmd.Env = append(os.Environ(), specEnv+"="+string(b))
	cmd.SysProcAttr = s.attr()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("probing the isolation: %w %s", err, strings.TrimSpace(stderr.String()))
	}
	var res probeResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("probing the isolation: reading %q: %w", out, err)
	}
	return &res, nil
}

// attr returns the process attributes of a launcher.
func (s *sysJail) attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Cloneflags: s.cloneflags, Pdeathsig: syscall.SIGKILL}
	if s.userns {
		// Root in the namespace, so that the launcher keeps the
		// capabilities it needs there (the loopback interface) across
		// its execution; files it makes belong to the user.
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
	sp := spec{Scratch: c.scratch, Landlock: true, LandlockNet: s.landlockNet, Loopback: s.loopback, Nproc: s.nproc}
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
	c.Cmd.SysProcAttr = s.attr()
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
