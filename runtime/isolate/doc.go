// Package isolate confines the processes that run third-party code:
// every process depcon test starts from a child binary (probes,
// concurrent tests, replays, reproducers) runs through a Jail.
//
// On Linux a jailed process runs with
//
//   - the whole filesystem read-only (Landlock), except a scratch
//     directory that is its working, temporary and home directory: the
//     Go build and module caches, the user's tree, /etc and the real
//     temporary directory cannot be written, and a method that changes
//     directory or resolves an absolute path gets EACCES;
//   - no network: a network namespace of its own with only a loopback
//     interface (or, where namespaces are denied, Landlock's TCP
//     restrictions), unless the policy allows the network;
//   - a PID namespace of its own: a process the code starts, even in a
//     new session, dies with the jailed process, and kill(-1) reaches
//     no process outside;
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
// New detects which mechanisms the kernel and the user's privileges
// allow, by starting the launcher once with all of them, and refuses
// (unless the policy accepts the risk) when the filesystem or the
// network cannot be confined. Jail.Describe says what is in force.
package isolate
