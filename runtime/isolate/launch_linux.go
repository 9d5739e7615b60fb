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
	Landlock    bool     // make the filesystem read-only but Scratch
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
	Loopback  bool   // the loopback interface is up
	Confined  bool   // a write beside the scratch directory was denied
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
	if sp.Landlock {
		abi, err := restrictFS(sp)
		if err != nil {
			return res, err
		}
		res.Landlock = abi
		if sp.Probe {
			res.Confined = denied(filepath.Join(filepath.Dir(sp.Scratch), ".depcon-probe-"+strconv.Itoa(os.Getpid())))
		}
	}
	return res, nil
}

// restrictFS enforces on the calling thread a Landlock ruleset that
// leaves the filesystem readable and executable, and writable only in
// sp.Scratch and a few device files. It returns the ABI version the
// kernel enforces.
func restrictFS(sp *spec) (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
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

// denied reports whether creating the file path is denied.
func denied(path string) bool {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err == nil {
		f.Close()
		_ = os.Remove(path)
		return false
	}
	return errors.Is(err, os.ErrPermission)
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
