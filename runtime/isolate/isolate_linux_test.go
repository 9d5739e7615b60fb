package isolate

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// actionEnv names what TestMain does instead of running the tests, in a
// jailed copy of the test binary.
const actionEnv = "ISOLATE_TEST_ACTION"

func TestMain(m *testing.M) {
	if a, ok := os.LookupEnv(actionEnv); ok {
		os.Exit(act(a, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// act does what a hostile method would, and prints what became of it.
func act(action string, args []string) int {
	switch action {
	case "noop":
	case "docker": // args: the variant, then the test binary's arguments
		return enterDocker(args)
	case "env": // args: the variables to print
		for _, k := range args {
			if v, ok := os.LookupEnv(k); ok {
				fmt.Printf("%s=%s\n", k, v)
			} else {
				fmt.Printf("%s unset\n", k)
			}
		}
	case "write": // args: a file to create
		err := os.WriteFile(args[0], []byte("x"), 0o644)
		fmt.Println(errString(err))
	case "remove": // args: a directory to remove
		err := os.RemoveAll(args[0])
		_, serr := os.Stat(args[0])
		fmt.Println(errString(err), serr == nil)
	case "chdir-write": // args: a directory to enter, then write in
		err := os.Chdir(args[0])
		if err == nil {
			err = os.WriteFile("depcon-canary", []byte("x"), 0o644)
		}
		fmt.Println(errString(err))
	case "scratch-write":
		err := os.WriteFile("inside", []byte("x"), 0o644)
		if err == nil {
			err = os.WriteFile(filepath.Join(os.Getenv("TMPDIR"), "t"), []byte("x"), 0o644)
		}
		fmt.Println(errString(err))
	case "remount": // args: a file to create after making the mounts writable
		err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND, "")
		if err == nil {
			err = unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY})
		}
		if err == nil {
			err = unix.Unmount(filepath.Dir(args[0]), unix.MNT_DETACH)
		}
		fmt.Println(errString(err))
		fmt.Println(errString(os.WriteFile(args[0], []byte("x"), 0o644)))
	case "connect": // args: an address
		c, err := net.DialTimeout("tcp", args[0], 2*time.Second)
		if err == nil {
			c.Close()
		}
		fmt.Println(errString(err))
	case "loopback":
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err == nil {
			var c net.Conn
			c, err = net.Dial("tcp", l.Addr().String())
			if err == nil {
				c.Close()
			}
			l.Close()
		}
		fmt.Println(errString(err))
	case "fork": // start many processes that sleep
		n, err := 0, error(nil)
		for ; n < 5000; n++ {
			cmd := exec.Command("sleep", "30")
			if err = cmd.Start(); err != nil {
				break
			}
		}
		fmt.Println(n, errString(err))
	case "detach": // start a process in a session of its own, print its pid
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			fmt.Println(errString(err))
			break
		}
		fmt.Println(cmd.Process.Pid)
	case "alloc": // touch 8 GiB
		var keep [][]byte
		for range 8 << 10 {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		fmt.Println("allocated", len(keep))
	default:
		fmt.Println("unknown action", action)
		return 2
	}
	return 0
}

func errString(err error) string {
	if err == nil {
		return "ok"
	}
	return "error: " + err.Error()
}

// jail returns a jail of p, skipping the test where none is available.
func jail(t *testing.T, p Policy) *Jail {
	t.Helper()
	j, err := New(p)
	if err != nil {
		t.Skipf("no isolation here: %v", err)
	}
	t.Cleanup(j.Close)
	t.Logf("isolation: %s", j.Describe())
	return j
}

// run runs the test binary jailed with the action and returns its output.
func run(t *testing.T, j *Jail, action string, args ...string) (string, Outcome, error) {
	t.Helper()
	scratch := t.TempDir()
	for _, d := range []string{"tmp", "home"} {
		if err := os.Mkdir(filepath.Join(scratch, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := j.Command(ctx, scratch, self, args...)
	c.Cmd.Dir = scratch
	c.Cmd.Env = append(os.Environ(), actionEnv+"="+action, "TMPDIR="+filepath.Join(scratch, "tmp"),
		"HOME="+filepath.Join(scratch, "home"))
	var buf strings.Builder
	c.Cmd.Stdout, c.Cmd.Stderr = &buf, &buf
	err = c.Run()
	o := c.Release()
	t.Logf("%s %v: %s (%+v, %v)", action, args, strings.TrimSpace(buf.String()), o, err)
	return strings.TrimSpace(buf.String()), o, err
}

// writeDenied reports whether the output of a write action says the
// write was denied: by Landlock (EACCES) or a read-only mount (EROFS).
func writeDenied(out string) bool {
	return strings.Contains(out, "permission denied") || strings.Contains(out, "read-only file system")
}

func TestFilesystemIsReadOnlyOutsideScratch(t *testing.T) {
	checkFilesystem(t, jail(t, Policy{}))
}

// checkFilesystem checks that a process of j can write its scratch
// directory only: not a canary directory, nor stand-ins for the home and
// temporary directories (canary directories too), nor a directory it
// enters.
func checkFilesystem(t *testing.T, j *Jail) {
	t.Helper()
	canary := t.TempDir()
	keep := filepath.Join(canary, "keep")
	if err := os.WriteFile(keep, []byte("canary"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, j, "remove", canary)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !writeDenied(out) {
		t.Errorf("RemoveAll of a directory outside the scratch: %q, want permission denied or read-only file system", out)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "canary" {
		t.Errorf("canary damaged: %q, %v", b, err)
	}
	home, tmp := filepath.Join(canary, "home"), filepath.Join(canary, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(canary, "new"), filepath.Join(tmp, "depcon-canary"), filepath.Join(home, "depcon-canary")} {
		out, _, err := run(t, j, "write", p)
		if err != nil || !writeDenied(out) {
			t.Errorf("write %s: %q, %v; want it denied", p, out, err)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if out, _, err := run(t, j, "chdir-write", tmp); err != nil || !writeDenied(out) {
		t.Errorf("chdir to a canary directory and write: %q, %v; want it denied", out, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "depcon-canary")); err == nil {
		t.Errorf("%s was written", filepath.Join(tmp, "depcon-canary"))
	}
	if out, _, err := run(t, j, "scratch-write"); err != nil || out != "ok" {
		t.Errorf("writing in the scratch directory and TMPDIR: %q, %v; want ok", out, err)
	}
}

// namespaceJail returns a jail of p with the mount namespace fallback
// forced (IsolationEnv=namespaces), skipping the test, with the reason,
// where the kernel or the privileges do not allow it.
func namespaceJail(t *testing.T, p Policy) *Jail {
	t.Helper()
	t.Setenv(IsolationEnv, "namespaces")
	j := jail(t, p)
	if m := j.Mechanisms(); !m.MountNS || m.Landlock != 0 || !m.NetNS || !m.PIDNS {
		t.Fatalf("%s=namespaces: mechanisms %+v, want a read-only mount namespace, netns and pidns, no Landlock", IsolationEnv, m)
	}
	if !strings.HasPrefix(j.Describe(), "mountns (read-only root) + netns + pidns") {
		t.Errorf("Describe() = %q", j.Describe())
	}
	return j
}

// TestNamespaceFallback checks the filesystem and the network of a jail
// that uses the mount namespace fallback, with mount_setattr(2) and as
// on kernels without it, and that its process cannot make the mounts
// writable again.
func TestNamespaceFallback(t *testing.T) {
	for _, remount := range []bool{false, true} {
		t.Run(fmt.Sprintf("remount=%v", remount), func(t *testing.T) {
			legacyRemount = remount
			t.Cleanup(func() { legacyRemount = false })
			j := namespaceJail(t, Policy{})
			checkFilesystem(t, j)
			canary := filepath.Join(t.TempDir(), "new")
			out, _, err := run(t, j, "remount", canary)
			if err != nil || strings.Contains(out, "ok") {
				t.Errorf("remounting read-write and writing: %q, %v; want both denied", out, err)
			}
			if _, err := os.Stat(canary); err == nil {
				t.Errorf("%s was written", canary)
			}
			if out, _, err := run(t, j, "loopback"); err != nil || out != "ok" {
				t.Errorf("a server on the namespace's own loopback: %q, %v; want ok", out, err)
			}
		})
	}
	// The environment the process sees is the one it was given.
	j := namespaceJail(t, Policy{})
	out, _, err := run(t, j, "env", actionEnv, "PATH", IsolationEnv, specEnv)
	env := map[string]bool{}
	for _, kv := range strings.Split(out, "\n") {
		env[kv] = true
	}
	for _, kv := range []string{actionEnv + "=env", "PATH=" + os.Getenv("PATH"), IsolationEnv + "=namespaces"} {
		if !env[kv] {
			t.Errorf("%s is not in the environment of the jailed process (%v)", kv, err)
		}
	}
	if !env[specEnv+" unset"] {
		t.Errorf("the launcher's spec is in the environment of the jailed process: %q", out)
	}
}

// TestIsolationEnvUnknown checks that a value of IsolationEnv naming no
// mechanism is an error to correct, with or without -unsafe-no-isolation,
// which it does not suggest.
func TestIsolationEnvUnknown(t *testing.T) {
	t.Setenv(IsolationEnv, "seccomp")
	for _, unsafe := range []bool{false, true} {
		_, err := New(Policy{Unsafe: unsafe})
		if err == nil || !strings.Contains(err.Error(), IsolationEnv+"=seccomp") || strings.Contains(err.Error(), "unsafe") {
			t.Errorf("New with %s=seccomp, unsafe %v: %v, want an error naming it, no risk to accept", IsolationEnv, unsafe, err)
		}
	}
}

func TestNetworkDenied(t *testing.T) {
	j := jail(t, Policy{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	out, _, err := run(t, j, "connect", l.Addr().String())
	if err != nil || !strings.HasPrefix(out, "error:") {
		t.Errorf("connect: %q, %v; want an error", out, err)
	}
	select {
	case <-accepted:
		t.Errorf("the listener saw a connection")
	case <-time.After(100 * time.Millisecond):
	}
	if j.Mechanisms().NetNS {
		if out, _, err := run(t, j, "loopback"); err != nil || out != "ok" {
			t.Errorf("a server on the namespace's own loopback: %q, %v; want ok", out, err)
		}
	}
	jn := jail(t, Policy{Net: true})
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	if out, _, err := run(t, jn, "connect", l.Addr().String()); err != nil || out != "ok" {
		t.Errorf("connect with the network allowed: %q, %v; want ok", out, err)
	}
}

func TestTasksBounded(t *testing.T) {
	j := jail(t, Policy{Tasks: 64})
	if m := j.Mechanisms(); !m.CgroupTasks && !m.Nproc {
		t.Skip("tasks are not bounded here")
	}
	before := countSleeps(t)
	out, _, err := run(t, j, "fork")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var n int
	if _, err := fmt.Sscan(out, &n); err != nil || n > 64 || !strings.Contains(out, "error") {
		t.Errorf("fork: %q; want at most 64 processes started, then an error", out)
	}
	// The sleeps it started died with it.
	deadline := time.Now().Add(5 * time.Second)
	for countSleeps(t) > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if after := countSleeps(t); after > before {
		t.Errorf("%d processes started in the jail outlived it", after-before)
	}
}

func TestMemoryBounded(t *testing.T) {
	j := jail(t, Policy{Memory: 256 << 20})
	if !j.Mechanisms().CgroupMemory {
		t.Skip("memory is not bounded here")
	}
	out, o, err := run(t, j, "alloc")
	if err == nil || strings.Contains(out, "allocated") {
		t.Errorf("allocating 8 GiB under a 256 MiB bound: %q, %v; want the process killed", out, err)
	}
	if !o.OutOfMemory {
		t.Errorf("the outcome does not say the memory bound was reached (%v)", err)
	}
}

// countSleeps counts the processes running "sleep 30".
func countSleeps(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && string(b) == "sleep\x0030\x00" {
			n++
		}
	}
	return n
}

func TestDescribe(t *testing.T) {
	j := jail(t, Policy{})
	d := j.Describe()
	if !strings.HasPrefix(d, "landlock v") && !strings.HasPrefix(d, "mountns (read-only root)") {
		t.Errorf("Describe() = %q, want it to start with the filesystem's confinement", d)
	}
	u, err := New(Policy{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if u.Unconfined() {
		t.Errorf("a jail with mechanisms available is unconfined")
	}
}

// TestUnprivileged runs the tests above again as the user nobody, when
// run as root: the jail then needs a user namespace, and bounds tasks
// with RLIMIT_NPROC where the cgroups are root's.
func TestUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 || os.Getenv("ISOLATE_TEST_UNPRIVILEGED") != "" {
		t.Skip("not root, or already unprivileged")
	}
	dir, err := os.MkdirTemp("", "isolate-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "isolate.test")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.v", "-test.run=^Test(Filesystem|Network|Tasks|Describe|NamespaceFallback)")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ISOLATE_TEST_UNPRIVILEGED=1", "HOME="+dir, "TMPDIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the tests as nobody: %v", err)
	}
	if strings.Contains(string(out), "--- SKIP: TestFilesystem") {
		t.Skip("no isolation for an unprivileged user here")
	}
	if !strings.Contains(string(out), "+ userns") {
		t.Errorf("an unprivileged user's jail has no user namespace")
	}
}

// BenchmarkStart measures starting a process and waiting for it, jailed
// and unconfined: the launcher's execution, the namespaces, the cgroups
// and the Landlock ruleset are the jail's cost per child.
func BenchmarkStart(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	jailed, err := New(Policy{})
	if err != nil {
		b.Skipf("no isolation here: %v", err)
	}
	defer jailed.Close()
	plain := &Jail{policy: Policy{}.withDefaults(), unconfined: true, why: "the baseline"}
	for _, bc := range []struct {
		name string
		j    *Jail
	}{{"jailed", jailed}, {"unconfined", plain}} {
		b.Run(bc.name, func(b *testing.B) {
			scratch := b.TempDir()
			for b.Loop() {
				c := bc.j.Command(context.Background(), scratch, self)
				c.Cmd.Dir = scratch
				c.Cmd.Env = append(os.Environ(), actionEnv+"=noop")
				if err := c.Run(); err != nil {
					b.Fatal(err)
				}
				c.Release()
			}
		})
	}
}
