package isolate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// specEnv is the environment variable that makes a process a launcher:
// it holds the spec of the restrictions to apply before executing the
// target, which is os.Args[0].
const specEnv = "DEPCON_ISOLATE_SPEC"

// launchFailed is the exit status of a launcher that could not apply a
// restriction.
const launchFailed = 125

// A spec is what a launcher applies to itself before executing its
// target.
type spec struct {
	Scratch     string   // the one directory it may write
	Landlock    bool     // make the filesystem read-only but Scratch with Landlock
	Mount       bool     // make the mounts read-only but a bind of Scratch (a new mount namespace)
	Remount     bool     // with Mount: remount each mount, not mount_setattr(2) (kernels before 5.12)
	DropCaps    bool     // drop every capability before executing the target
	LandlockNet bool     // deny TCP connect and bind with Landlock
	Loopback    bool     // bring the loopback interface up (a new network namespace)
	Cgroups     []string // cgroup.procs files to join
	Nproc       uint64   // RLIMIT_NPROC, 0 for none
	// Probe makes the launcher report what it applied on its standard
	// output, as a probeResult, instead of executing a target.
	Probe bool
}

// A probeResult is what a probing launcher applied.
type probeResult struct {
	Landlock  int    // the ABI version enforced, 0 for none
	Mount     bool   // the mounts are read-only but the scratch directory's
	Loopback  bool   // the loopback interface is up
	Confined  bool   // a write beside the scratch directory was denied
	Writable  bool   // a file could be made in the scratch directory
	Err       string // what failed
	Namespace bool   // it runs in a PID namespace of its own (its pid is 1)
}

func init() {
	s, ok := os.LookupEnv(specEnv)
	if !ok {
		return
	}
	// Whatever happens, this process never returns to its program.
	os.Exit(launch(s))
}

// launch applies the spec s and executes the target; it returns only
// when something failed, with the exit status.
func launch(s string) int {
	var sp spec
	if err := json.Unmarshal([]byte(s), &sp); err != nil {
		fmt.Fprintf(os.Stderr, "depcon isolation: reading the launcher's spec: %v\n", err)
		return launchFailed
	}
	_ = os.Unsetenv(specEnv)
	// Landlock and no_new_privs apply to the calling thread, which then
	// executes the target: keep this goroutine on it.
	runtime.LockOSThread()
	res, err := apply(&sp)
	if sp.Probe {
		res.Namespace = os.Getpid() == 1
		if err != nil {
			res.Err = err.Error()
		}
		_ = json.NewEncoder(os.Stdout).Encode(res)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "depcon isolation: %v\n", err)
		return launchFailed
	}
	path := os.Args[0]
	if !strings.Contains(path, "/") {
		if path, err = lookPath(path); err != nil {
			fmt.Fprintf(os.Stderr, "depcon isolation: %v\n", err)
			return launchFailed
		}
	}
	err = syscall.Exec(path, os.Args, os.Environ())
	fmt.Fprintf(os.Stderr, "depcon isolation: executing %s: %v\n", os.Args[0], err)
	return launchFailed
}

// apply applies the restrictions of sp to the calling thread (and, for
// the cgroups and limits, to the process).
func apply(sp *spec) (probeResult, error) {
	var res probeResult
	for _, procs := range sp.Cgroups {
		if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return res, fmt.Errorf("joining the cgroup %s: %w", filepath.Dir(procs), err)
		}
	}
	if sp.Nproc > 0 {
		lim := &unix.Rlimit{Cur: sp.Nproc, Max: sp.Nproc}
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, lim); err != nil {
			return res, fmt.Errorf("setting RLIMIT_NPROC: %w", err)
		}
	}
	// No core files: the kernel would write them in the working
	// directory or wherever core_pattern says.
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	if sp.Loopback {
		if err := loopbackUp(); err != nil {
			return res, fmt.Errorf("bringing the loopback interface up: %w", err)
		}
		res.Loopback = true
	}
	if sp.Mount {
		if err := readOnlyMounts(sp.Scratch, sp.Remount); err != nil {
			return res, fmt.Errorf("making the mounts read-only: %w", err)
		}
		res.Mount = true
	}
	if sp.Landlock {
		abi, err := restrictFS(sp)
		if err != nil {
			return res, err
		}
		res.Landlock = abi
	}
	if sp.DropCaps {
		if err := dropCaps(); err != nil {
			return res, err
		}
	}
	if sp.Probe && (sp.Landlock || sp.Mount) {
		name := ".depcon-probe-" + strconv.Itoa(os.Getpid())
		beside := filepath.Join(filepath.Dir(sp.Scratch), name)
		if res.Confined = denied(beside); !res.Confined {
			_ = os.Remove(beside)
		}
		res.Writable = !denied(filepath.Join(sp.Scratch, name)) && os.Remove(filepath.Join(sp.Scratch, name)) == nil
	}
	return res, nil
}

// restrictFS enforces on the calling thread a Landlock ruleset that
// leaves the filesystem readable and executable, and writable only in
// sp.Scratch and a few device files. It returns the ABI version the
// kernel enforces.
func restrictFS(sp *spec) (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		// EPERM: a seccomp filter denies the call (Docker's default
		// profile before 20.10.18); EOPNOTSUPP: Landlock is built but
		// not enabled; ENOSYS: it is not built.
		return 0, fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	if abi < 1 {
		return 0, errors.New("landlock is not available")
	}
	cfg := landlock.V11
	if !sp.LandlockNet {
		cfg.HandledAccessNet = 0
	}
	cfg = cfg.BestEffort()
	fd, flags, err := cfg.NewRulesetFD(
		landlock.RODirs("/"),
		landlock.RWDirs(sp.Scratch).WithRefer(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom").IgnoreIfMissing(),
	)
	if err != nil {
		return 0, fmt.Errorf("making the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return 0, errors.New("landlock restricts nothing on this kernel")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return 0, fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return abi, nil
}

// denied reports whether creating the file path is denied (EACCES,
// EPERM or EROFS). A file it makes is left for the caller to remove.
func denied(path string) bool {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, os.ErrPermission) || errors.Is(err, unix.EROFS)
}

// readOnlyMounts makes every mount of the process's mount namespace
// read-only but a bind mount of scratch on itself, which stays
// writable. The namespace must be the process's own (CLONE_NEWNS) and
// the process must have CAP_SYS_ADMIN in the user namespace that owns
// it. With remount, or where mount_setattr(2) fails (kernels before
// 5.12, seccomp filters older than it), each mount is remounted
// read-only in turn.
func readOnlyMounts(scratch string, remount bool) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if scratch, err = filepath.EvalSymlinks(scratch); err != nil {
		return err
	}
	// Private first: without it, a mount made here would propagate to
	// the mounts the namespace was copied from (a shared root).
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	if err := unix.Mount(scratch, scratch, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("binding the scratch directory: %w", err)
	}
	err = unix.ENOSYS
	if !remount {
		err = unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
		if err == nil {
			err = unix.MountSetattr(unix.AT_FDCWD, scratch, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY})
			if err != nil {
				return fmt.Errorf("making the scratch directory writable: %w", err)
			}
		}
	}
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		// No mount_setattr(2), or a seccomp filter that does not know
		// it.
		err = remountReadOnly(scratch)
	}
	if err != nil {
		return err
	}
	// The working directory was entered through the mounts as they
	// were: enter it again through the read-only ones (and the
	// writable bind when it is the scratch directory).
	return os.Chdir(wd)
}

// remountReadOnly remounts read-only each mount of the namespace but
// scratch and the mounts below it. The flags the user namespace may
// not clear (nosuid, nodev, noexec) are kept; the atime flags are kept
// by not naming them. A mount that no path reaches any more (its mount
// point removed or hidden) is left: a path of the jailed process cannot
// reach it either.
func remountReadOnly(scratch string) error {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMountinfo(f[4])
		if mp == scratch || strings.HasPrefix(mp, scratch+"/") {
			continue
		}
		var st unix.Statfs_t
		if err := unix.Statfs(mp, &st); err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOTDIR) {
				continue
			}
			return fmt.Errorf("statfs %s: %w", mp, err)
		}
		keep := uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC)
		if err := unix.Mount("", mp, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|keep, ""); err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EACCES) {
				continue
			}
			return fmt.Errorf("remounting %s read-only: %w", mp, err)
		}
	}
	return nil
}

// unescapeMountinfo undoes the octal escapes (\040 for a space) of a
// path in /proc/self/mountinfo.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dropCaps empties the calling thread's capability bounding, ambient
// and inheritable sets, and sets no_new_privs: the program it executes
// then has no capability, even as uid 0, and cannot undo the read-only
// mounts.
func dropCaps() error {
	for c := 0; ; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) && c > 0 {
				break // past the last capability
			}
			return fmt.Errorf("dropping the capability %d: %w", c, err)
		}
	}
	// EINVAL before Linux 4.3, which has no ambient set.
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	return nil
}

// loopbackUp brings the interface lo up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// lookPath finds name in PATH without os/exec, whose LookPath refuses
// names relative to the working directory.
func lookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in PATH", name)
}
