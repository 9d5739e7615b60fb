package isolate

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// A Policy is what a jailed process may do.
type Policy struct {
	// Net lets the process use the network.
	Net bool
	// Unsafe accepts running without isolation where none is available:
	// New then returns a jail that confines nothing (Unconfined reports
	// it) instead of failing.
	Unsafe bool
	// Memory bounds the memory of a jailed process and what it starts,
	// in bytes; 0 means DefaultMemory.
	Memory int64
	// Tasks bounds the processes and threads of a jailed process and
	// what it starts; 0 means DefaultTasks.
	Tasks int
}

// Defaults of a Policy.
const (
	DefaultMemory = 4 << 30
	DefaultTasks  = 1024
)

// errBadEnv is the error of a value of IsolationEnv that names no
// mechanism: the user corrects it.
var errBadEnv = errors.New("invalid isolation setting")

func (p Policy) withDefaults() Policy {
	if p.Memory <= 0 {
		p.Memory = DefaultMemory
	}
	if p.Tasks <= 0 {
		p.Tasks = DefaultTasks
	}
	return p
}

// Mechanisms are the restrictions a jail applies.
type Mechanisms struct {
	// Landlock is the Landlock ABI version in force (0: none): the
	// filesystem is read-only but for the scratch directory.
	Landlock int
	// MountNS reports that the filesystem is read-only, but for the
	// scratch directory, through the mounts of a mount namespace of the
	// process's own (where Landlock is not used); the process has no
	// capability.
	MountNS bool
	// LandlockNet reports that Landlock denies TCP connect and bind
	// (the network confinement where no network namespace is allowed).
	LandlockNet bool
	// NetNS, PIDNS and UserNS report the namespaces the process gets: a
	// network namespace with only a loopback interface, a PID namespace,
	// and the user namespace that makes them possible without root.
	NetNS, PIDNS, UserNS bool
	// Cgroup is the cgroup version bounding memory and tasks ("v1",
	// "v2"), "" when cgroups cannot be written.
	Cgroup string
	// CgroupMemory and CgroupTasks report which bounds the cgroups set.
	CgroupMemory, CgroupTasks bool
	// Nproc reports that RLIMIT_NPROC bounds the tasks (without cgroup).
	Nproc bool
}

// confinesFS reports whether the filesystem outside the scratch
// directory is read-only.
func (m Mechanisms) confinesFS() bool { return m.Landlock > 0 || m.MountNS }

// confinesNet reports whether connections are denied.
func (m Mechanisms) confinesNet() bool { return m.NetNS || m.LandlockNet }

// A Jail starts processes under a policy with the mechanisms New found.
type Jail struct {
	policy Policy
	mech   Mechanisms
	// unconfined: no mechanism is used (Policy.Unsafe accepted it).
	unconfined bool
	// why, when unconfined, is why the isolation is not available.
	why string
	sys *sysJail // the platform's state (cgroups, namespace flags)
}

// New returns a jail for p with the strongest mechanisms the kernel and
// the user's privileges allow. It fails when the filesystem or (unless
// p.Net) the network cannot be confined, unless p.Unsafe accepts it; the
// error says why and names the flag that accepts the risk.
func New(p Policy) (*Jail, error) {
	p = p.withDefaults()
	j := &Jail{policy: p}
	sys, mech, err := detect(p)
	if err == nil {
		switch {
		case !mech.confinesFS():
			err = errors.New("the kernel does not let depcon make the filesystem read-only (neither Landlock nor a mount namespace)")
		case !p.Net && !mech.confinesNet():
			err = errors.New("the kernel allows neither a network namespace nor Landlock's network rules")
		}
	}
	if errors.Is(err, errBadEnv) {
		return nil, err // a value to correct, no risk to accept
	}
	if err != nil {
		if !p.Unsafe {
			if sys != nil {
				sys.close()
			}
			return nil, fmt.Errorf("isolation: %v: depcon test runs third-party code and will not run it unconfined; "+
				"-unsafe-no-isolation accepts the risk (see docs/SECURITY.md)", err)
		}
		if sys != nil && mech.confinesFS() {
			// The risk accepted is the network's: the filesystem stays
			// confined.
			j.sys, j.mech, j.why = sys, mech, err.Error()
			return j, nil
		}
		if sys != nil {
			sys.close()
		}
		j.unconfined, j.why = true, err.Error()
		return j, nil
	}
	j.sys, j.mech = sys, mech
	return j, nil
}

// Close releases what the jail holds (its cgroups). Processes it
// started must have been waited for.
func (j *Jail) Close() {
	if j != nil && j.sys != nil {
		j.sys.close()
	}
}

// Unconfined reports whether the jail confines nothing.
func (j *Jail) Unconfined() bool { return j.unconfined }

// Mechanisms returns the restrictions in force.
func (j *Jail) Mechanisms() Mechanisms { return j.mech }

// Policy returns the jail's policy, with its defaults.
func (j *Jail) Policy() Policy { return j.policy }

// Describe says in one line what is in force, such as
// "landlock v7 + netns + pidns + cgroup v1 (memory 4 GiB, 1024 tasks)"
// or, with the mount namespace fallback, "mountns (read-only root) +
// netns + pidns + userns + rlimits (memory unbounded, 1024 tasks)".
func (j *Jail) Describe() string {
	if j.unconfined {
		return "none (-unsafe-no-isolation: " + j.why + ")"
	}
	m := j.mech
	var parts []string
	if m.Landlock > 0 {
		parts = append(parts, fmt.Sprintf("landlock v%d", m.Landlock))
	}
	if m.MountNS {
		parts = append(parts, "mountns (read-only root)")
	}
	switch {
	case j.policy.Net:
		parts = append(parts, "network allowed")
	case m.NetNS:
		parts = append(parts, "netns")
	case m.LandlockNet:
		parts = append(parts, "landlock tcp")
	default:
		parts = append(parts, "network NOT confined (-unsafe-no-isolation)")
	}
	if m.PIDNS {
		parts = append(parts, "pidns")
	}
	if m.UserNS {
		parts = append(parts, "userns")
	}
	var bounds []string
	if m.CgroupMemory {
		bounds = append(bounds, "memory "+bytesString(j.policy.Memory))
	} else {
		bounds = append(bounds, "memory unbounded")
	}
	if m.CgroupTasks || m.Nproc {
		bounds = append(bounds, fmt.Sprintf("%d tasks", j.policy.Tasks))
	} else {
		bounds = append(bounds, "tasks unbounded")
	}
	limits := "rlimits"
	if m.Cgroup != "" {
		limits = "cgroup " + m.Cgroup
	}
	parts = append(parts, limits+" ("+strings.Join(bounds, ", ")+")")
	return strings.Join(parts, " + ")
}

func bytesString(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// A Cmd is a command run in a jail. Set the fields of Cmd (Dir, Env,
// standard streams, ExtraFiles) before Start; Path, Args and SysProcAttr
// are the jail's.
type Cmd struct {
	Cmd     *exec.Cmd
	jail    *Jail
	scratch string
	proc    *sysProc // the platform's per-process state

	mu       sync.Mutex // guards proc's cgroups, released and outcome
	released bool
	outcome  Outcome
}

// An Outcome is what the jail saw of a process it ran.
type Outcome struct {
	// OutOfMemory reports that the memory bound ended the process.
	OutOfMemory bool
}

// Command returns a command that runs name with args in the jail, with
// write access to the directory scratch only (it must exist; it is the
// caller's to remove). The whole process tree is killed when ctx is
// done.
func (j *Jail) Command(ctx context.Context, scratch, name string, args ...string) *Cmd {
	c := &Cmd{Cmd: exec.CommandContext(ctx, name, args...), jail: j, scratch: scratch}
	c.Cmd.Cancel = c.Kill
	c.Cmd.WaitDelay = waitDelay
	return c
}

// Start starts the command in the jail.
func (c *Cmd) Start() error {
	return c.start()
}

// Wait waits for the command to exit (see exec.Cmd.Wait).
func (c *Cmd) Wait() error { return c.Cmd.Wait() }

// Run starts the command and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Kill kills the command and every process it started.
func (c *Cmd) Kill() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kill()
}

// Release kills what is left of the command's processes and frees what
// the jail held for it; call it once the command has been waited for.
// It returns what the jail saw.
func (c *Cmd) Release() Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.released {
		c.released = true
		_ = c.kill()
		c.outcome = c.release()
	}
	return c.outcome
}

// Toolchain returns a command that is not jailed, for the go command
// (which builds third-party code but runs none of it), in a process
// group of its own that is killed whole when ctx is done.
func Toolchain(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	setGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = waitDelay
	return cmd
}
