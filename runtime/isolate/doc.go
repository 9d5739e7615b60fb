// Package isolate confines the processes that run third-party code.
//
// Every process depcon test starts from a child binary (probes,
// concurrent tests, replays, reproducers) runs through a Jail.
//
// On Linux a jailed process runs with
//
//   - the whole filesystem read-only, except a scratch directory that
//     is its working, temporary and home directory: the Go build and
//     module caches, the user's tree, /etc and the real temporary
//     directory cannot be written, and a method that changes directory
//     or resolves an absolute path gets EACCES (Landlock) or EROFS (the
//     mount namespace fallback);
//   - no network: a network namespace of its own with only a loopback
//     interface (or, where namespaces are denied, Landlock's TCP
//     restrictions), unless the policy allows the network;
//   - a PID namespace of its own: a process the code starts, even in a
//     new session, dies with the jailed process, and kill(-1) reaches
//     no process outside (where namespaces are denied, as by Docker's
//     default seccomp profile, only its process group and cgroups are
//     killed, and Landlock's scoping keeps its signals in);
//   - bounded memory and tasks (cgroup limits, or RLIMIT_NPROC where
//     cgroups cannot be written): a fork bomb or a huge allocation ends
//     the jailed process, not the machine;
//   - Landlock's IPC scoping where the kernel has it (no signals to, no
//     abstract UNIX sockets of, processes outside).
//
// The restrictions are applied by a launcher: the current executable,
// started again with a specification in its environment. The package's
// init function recognises it, applies the restrictions to its own
// thread and executes the target, so any program that imports this
// package (depcon, and the tests of the packages that use it) can jail.
//
// The filesystem is made read-only by Landlock where the kernel enforces
// it. Where it does not (kernels before 5.13, Landlock left out of the
// kernel's LSM list), by a mount namespace: the launcher is started with
// CLONE_NEWNS besides the PID and network namespaces (and CLONE_NEWUSER,
// uid and gid 0 mapped to the user's, when it is not root or root may
// not mount), and before executing the target it
//
//   - makes every mount private, so nothing it mounts propagates out;
//   - bind-mounts the scratch directory on itself;
//   - makes every other mount read-only: mount_setattr(2) recursively
//     from /, then the scratch bind writable again; where that call
//     fails (Linux before 5.12, an older seccomp filter), a read-only
//     bind remount of each mount of /proc/self/mountinfo, keeping the
//     flags it may not clear;
//   - enters its working directory again, through the new mounts;
//   - empties its capability bounding, inheritable and ambient sets and
//     sets no_new_privs, so the target, uid 0 in the namespace or root,
//     has no capability and cannot remount anything writable; a user
//     namespace it would make holds these mounts locked read-only.
//
// The environment is the caller's; /proc is the host's and read-only.
// The launcher is the current executable for both mechanisms because
// mounting needs code that runs in the new namespaces before the
// target, and a re-executed Go binary is the one such code at hand
// without a setuid helper, a shell or cgo: SysProcAttr makes the
// namespaces and uid mappings, the launcher's init does the rest.
//
// IsolationEnv (DEPCON_ISOLATION) chooses: "landlock" uses Landlock
// only, "namespaces" the mount namespace only, "auto" or unset Landlock
// where the kernel enforces it and the mount namespace otherwise.
//
// New detects which mechanisms the kernel and the user's privileges
// allow, by starting the launcher with each configuration in turn until
// one confines (a write beside the scratch directory must be denied, one
// in it allowed), and refuses (unless the policy accepts the risk) when
// neither Landlock nor the mount namespace can confine the filesystem,
// or nothing confines the network. Jail.Describe says what is in force.
package isolate
