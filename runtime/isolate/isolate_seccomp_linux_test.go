package isolate

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The tests of this file run the isolation's canaries in a process that
// sees what a process of a Docker container started with the default
// seccomp profile and the default capabilities sees, as far as the
// isolation is concerned:
//
//   - a seccomp filter with the default profile's decisions for the
//     system calls the isolation makes. The profile is
//     github.com/moby/profiles seccomp/default.json (v0.2.3, the one
//     moby's go.mod names; profiles/seccomp/default.json in moby before
//     v29): without CAP_SYS_ADMIN, clone with any of the flags
//     0x7E020000 (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,
//     NEWPID, NEWNET) fails with EPERM, clone3 with ENOSYS (so that
//     libcs fall back to clone), and unshare, setns, mount, umount2,
//     mount_setattr, open_tree, move_mount, fsopen, fsconfig and
//     fsmount, allowed only with CAP_SYS_ADMIN, with EPERM, the
//     profile's default errno; pivot_root is not in the profile (EPERM).
//     landlock_create_ruleset, landlock_add_rule, landlock_restrict_self
//     and prctl are allowed unconditionally (the Landlock calls since
//     Docker 20.10.18 and 23.0; before, they fell to the default
//     action, EPERM: the "old" variant below). Every other call is left
//     allowed: the filter does not reproduce the profile's allow list,
//     which has the calls of the Go runtime and of these tests.
//   - as root, Docker's default capability set (no CAP_SYS_ADMIN, no
//     CAP_SYS_RESOURCE), and the cgroup hierarchies mounted read-only,
//     as Docker mounts them in a container that is not privileged.
//
// Only amd64 and arm64 are emulated (the profile's clone rule reads
// another argument on s390x).

// dockerEnv names, in the process under the emulated profile, the
// variant it runs: "default" (the current profile) or "old" (a profile
// without the Landlock calls).
const dockerEnv = "ISOLATE_TEST_DOCKER"

// cannotEmulate is the exit status of the action "docker" where the
// profile cannot be emulated (no seccomp filters in the kernel).
const cannotEmulate = 77

// dockerCaps is Docker's default capability set (moby
// daemon/pkg/oci/caps/defaults.go).
var dockerCaps = []uintptr{
	unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_FSETID, unix.CAP_FOWNER, unix.CAP_MKNOD,
	unix.CAP_NET_RAW, unix.CAP_SETGID, unix.CAP_SETUID, unix.CAP_SETFCAP, unix.CAP_SETPCAP,
	unix.CAP_NET_BIND_SERVICE, unix.CAP_SYS_CHROOT, unix.CAP_KILL, unix.CAP_AUDIT_WRITE,
}

// cloneNamespaces is the mask of the profile's clone rule for callers
// without CAP_SYS_ADMIN: clone is allowed only when flags&mask == 0.
const cloneNamespaces = 0x7E020000

// auditArch returns the seccomp architecture of this process.
func auditArch() (uint32, bool) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, true
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, true
	}
	return 0, false
}

// dockerFilter returns a seccomp program with the default profile's
// decisions for a container without CAP_SYS_ADMIN (see the top of the
// file); with landlock false, the Landlock calls are denied as by the
// profiles before Docker 20.10.18.
func dockerFilter(arch uint32, landlock bool) []unix.SockFilter {
	const (
		ldW   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		nrOff = 0  // seccomp_data.nr
		arOff = 4  // seccomp_data.arch
		a0Off = 16 // seccomp_data.args[0], low word (little endian)
	)
	eperm := []uint32{
		unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT,
		unix.SYS_MOUNT_SETATTR, unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT,
		unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT,
	}
	if !landlock {
		eperm = append(eperm, unix.SYS_LANDLOCK_CREATE_RULESET, unix.SYS_LANDLOCK_ADD_RULE, unix.SYS_LANDLOCK_RESTRICT_SELF)
	}
	// The returns are the last three instructions; jumps are relative
	// to the next instruction.
	n := 3 + len(eperm) + 4 + 3
	allow, deny, nosys := n-3, n-2, n-1
	p := []unix.SockFilter{{Code: ldW, K: arOff}}
	p = append(p, unix.SockFilter{Code: jeq, K: arch, Jf: uint8(allow - 2)})
	p = append(p, unix.SockFilter{Code: ldW, K: nrOff})
	for _, nr := range eperm {
		p = append(p, unix.SockFilter{Code: jeq, K: nr, Jt: uint8(deny - len(p) - 1)})
	}
	p = append(p, unix.SockFilter{Code: jeq, K: unix.SYS_CLONE3, Jt: uint8(nosys - len(p) - 1)})
	p = append(p, unix.SockFilter{Code: jeq, K: unix.SYS_CLONE, Jf: uint8(allow - len(p) - 1)})
	p = append(p, unix.SockFilter{Code: ldW, K: a0Off})
	p = append(p, unix.SockFilter{Code: jset, K: cloneNamespaces, Jt: uint8(deny - len(p) - 1), Jf: uint8(allow - len(p) - 1)})
	p = append(p,
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	)
	if len(p) != n {
		panic(fmt.Sprintf("seccomp program: %d instructions, want %d", len(p), n))
	}
	return p
}

// enterDocker, the action "docker" of a copy of the test binary started
// in a mount namespace of its own (as root), makes the cgroups read-only
// and takes Docker's capabilities (as root), sets no_new_privs, installs
// the filter of variant (args[0]) on its thread and executes the test
// binary with the remaining arguments: the tests then run under the
// emulated profile, the filter inherited by every process they start.
func enterDocker(args []string) int {
	runtime.LockOSThread()
	fail := func(what string, err error) int {
		fmt.Fprintf(os.Stderr, "emulating Docker: %s: %v\n", what, err)
		return 1
	}
	arch, ok := auditArch()
	if !ok {
		return fail("architecture", errors.New(runtime.GOARCH+" is not emulated"))
	}
	if os.Geteuid() == 0 {
		if err := readOnlyCgroups(); err != nil {
			return fail("making the cgroups read-only", err)
		}
		if err := dockerCapabilities(); err != nil {
			return fail("taking Docker's capabilities", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", err)
	}
	prog := dockerFilter(arch, args[0] != "old")
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		fail("seccomp", e)
		return cannotEmulate
	}
	self, err := os.Executable()
	if err != nil {
		return fail("finding the test binary", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, actionEnv+"=") {
			env = append(env, kv)
		}
	}
	env = append(env, dockerEnv+"="+args[0])
	err = syscall.Exec(self, append([]string{self}, args[1:]...), env)
	return fail("executing the tests", err)
}

// readOnlyCgroups remounts the cgroup hierarchies read-only, in the
// process's own mount namespace, made private first.
func readOnlyCgroups() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return err
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		i := 0
		for i < len(f) && f[i] != "-" {
			i++
		}
		if len(f) < 5 || i+1 >= len(f) || (f[i+1] != "cgroup" && f[i+1] != "cgroup2") {
			continue
		}
		mp := unescapeMountinfo(f[4])
		if err := unix.Mount("", mp, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("%s: %w", mp, err)
		}
	}
	return nil
}

// dockerCapabilities leaves the calling thread Docker's default
// capabilities only, in its bounding, permitted, effective and
// inheritable sets: a root process it executes has them and no other.
func dockerCapabilities() error {
	keep := map[uintptr]bool{}
	var set [2]uint32
	for _, c := range dockerCaps {
		keep[c] = true
		set[c/32] |= 1 << (c % 32)
	}
	for c := uintptr(0); c <= unix.CAP_LAST_CAP; c++ {
		if keep[c] {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping the capability %d: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	for i := range data {
		data[i] = unix.CapUserData{Effective: set[i], Permitted: set[i], Inheritable: set[i]}
	}
	return unix.Capset(&hdr, &data[0])
}

// underDocker runs the tests named by run in a copy of the test binary
// under the emulated profile of variant, as root or (nobody) as the
// user nobody, and returns their verbose output.
func underDocker(t *testing.T, variant, run string, nobody bool) string {
	t.Helper()
	if _, ok := auditArch(); !ok {
		t.Skipf("the profile is not emulated on %s", runtime.GOARCH)
	}
	if os.Getenv(dockerEnv) != "" {
		t.Skip("already under the emulated profile")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: its parent is closed to nobody.
	dir, err := os.MkdirTemp("", "isolate-docker-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := self
	attr := &syscall.SysProcAttr{}
	if os.Geteuid() == 0 && !nobody {
		// Docker's container has a mount namespace of its own: its
		// cgroups are read-only there only.
		attr.Cloneflags = syscall.CLONE_NEWNS
	}
	if nobody {
		if os.Geteuid() != 0 {
			t.Skip("not root: cannot run as nobody")
		}
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "isolate.test")
		if err := os.WriteFile(bin, src, 0o755); err != nil {
			t.Fatal(err)
		}
		attr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	cmd := exec.Command(bin, variant, "-test.v", "-test.run="+run)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), actionEnv+"=docker", "HOME="+dir, "TMPDIR="+dir)
	cmd.SysProcAttr = attr
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	var exit *exec.ExitError
	switch {
	case errors.Is(err, unix.EPERM):
		t.Skipf("no mount namespace for the emulation here: %v", err)
	case errors.As(err, &exit) && exit.ExitCode() == cannotEmulate:
		t.Skipf("the profile cannot be emulated here: %s", out)
	case err != nil:
		t.Fatalf("the tests under the emulated profile: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: "+strings.Trim(run, "^$")) {
		t.Fatalf("%s did not pass under the emulated profile", run)
	}
	return string(out)
}

// TestDockerDefaultSeccomp runs the isolation's canaries under the
// emulation of Docker's default profile: Landlock is allowed, the
// namespaces are not, so the filesystem is confined by Landlock and the
// network by its TCP rules, and the report names no namespace.
func TestDockerDefaultSeccomp(t *testing.T) {
	for _, nobody := range []bool{false, true} {
		t.Run(fmt.Sprintf("nobody=%v", nobody), func(t *testing.T) {
			underDocker(t, "default", "^TestInDockerProfile$", nobody)
		})
	}
}

// TestDockerOldSeccomp runs New under the emulation of a profile that
// denies the Landlock calls (Docker before 20.10.18): nothing confines
// the filesystem, and New refuses, naming both mechanisms and the flag.
func TestDockerOldSeccomp(t *testing.T) {
	underDocker(t, "old", "^TestInDockerProfile$", false)
}

// TestInDockerProfile is the part of the tests above that runs under
// the emulated profile.
func TestInDockerProfile(t *testing.T) {
	variant := os.Getenv(dockerEnv)
	if variant == "" {
		t.Skip("not under the emulated profile")
	}
	// The filter is in force.
	if err := unix.Unshare(unix.CLONE_NEWUSER); !errors.Is(err, unix.EPERM) {
		t.Fatalf("unshare(CLONE_NEWUSER) under the filter: %v, want EPERM", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_CLONE3, 0, 0, 0); e != unix.ENOSYS {
		t.Fatalf("clone3 under the filter: %v, want ENOSYS", e)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var caps [2]unix.CapUserData
	if err := unix.Capget(&hdr, &caps[0]); err != nil {
		t.Fatal(err)
	}
	if caps[0].Effective&(1<<unix.CAP_SYS_ADMIN|1<<unix.CAP_SYS_RESOURCE) != 0 {
		t.Fatalf("CAP_SYS_ADMIN or CAP_SYS_RESOURCE in effect (%#x): not Docker's capabilities", caps[0].Effective)
	}
	if variant == "old" {
		_, err := New(Policy{})
		if err == nil {
			t.Fatal("New under a profile that denies Landlock and the namespaces: a jail, want a refusal")
		}
		t.Logf("refused: %v", err)
		for _, want := range []string{"make the filesystem read-only", "Landlock is not available (landlock_create_ruleset: operation not permitted)",
			"no read-only mount namespace could be made (probing the isolation: fork/exec " + os.Args[0] + ": operation not permitted)", "-unsafe-no-isolation"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal does not say %q", want)
			}
		}
		u, err := New(Policy{Unsafe: true})
		if err != nil {
			t.Fatal(err)
		}
		defer u.Close()
		if !u.Unconfined() || !strings.HasPrefix(u.Describe(), "none (-unsafe-no-isolation: ") {
			t.Errorf("with the risk accepted: unconfined %v, %q", u.Unconfined(), u.Describe())
		}
		return
	}
	j := jail(t, Policy{})
	m := j.Mechanisms()
	if m.Landlock == 0 {
		t.Skip("no Landlock in this kernel: the profile's decisions for it cannot be checked here")
	}
	if m.NetNS || m.PIDNS || m.UserNS || m.MountNS {
		t.Errorf("namespaces in force under a profile that denies them: %+v", m)
	}
	d := j.Describe()
	if m.Landlock >= 4 {
		if !m.LandlockNet || !strings.Contains(d, " + landlock tcp + ") {
			t.Errorf("Landlock v%d: the network is not confined by its TCP rules: %+v, %q", m.Landlock, m, d)
		}
	}
	for _, absent := range []string{"netns", "pidns", "userns", "mountns"} {
		if strings.Contains(d, absent) {
			t.Errorf("Describe() = %q names %s, which the profile denies", d, absent)
		}
	}
	if m.Cgroup != "" && os.Geteuid() == 0 {
		t.Errorf("cgroups in force with the hierarchies read-only: %+v", m)
	}
	if !m.CgroupMemory && !strings.Contains(d, "memory unbounded") {
		t.Errorf("Describe() = %q does not say memory is unbounded", d)
	}
	t.Run("filesystem", func(t *testing.T) { checkFilesystem(t, j) })
	t.Run("network", TestNetworkDenied)
	t.Run("tasks", TestTasksBounded)
	t.Run("detached", func(t *testing.T) {
		// A process the code starts in a session of its own dies with
		// the jailed process through the PID namespace or the cgroups;
		// with neither (root here, as in a container), it is out of
		// reach: the report's line names neither.
		out, _, err := run(t, j, "detach")
		pid, perr := strconv.Atoi(out)
		if err != nil || perr != nil {
			t.Fatalf("detach: %q, %v", out, err)
		}
		// Its pid is this namespace's: the jail has no PID namespace.
		gone := !sleeping(pid)
		if !gone {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		switch {
		case m.Cgroup != "" && !gone:
			t.Errorf("a detached process outlived its jailed parent despite the cgroups (%s)", d)
		case m.Cgroup == "" && gone:
			t.Errorf("a detached process died without cgroups or a PID namespace: the test does not see what it should")
		case m.Cgroup == "":
			t.Logf("a detached process outlives its jailed parent: %s", d)
		}
	})
	// The mount namespace fallback, forced, is refused with the reason.
	t.Setenv(IsolationEnv, "namespaces")
	_, err := New(Policy{})
	if err == nil || !strings.Contains(err.Error(), "no read-only mount namespace") || !strings.Contains(err.Error(), "operation not permitted") {
		t.Errorf("%s=namespaces under the profile: %v, want a refusal saying the namespaces are not permitted", IsolationEnv, err)
	}
	t.Logf("%s=namespaces: %v", IsolationEnv, err)
}

// sleeping reports whether pid is a process running "sleep 30".
func sleeping(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	return err == nil && string(b) == "sleep\x0030\x00"
}
