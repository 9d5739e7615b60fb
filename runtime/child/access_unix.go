//go:build unix

package child

import "syscall"

// writable reports whether this process may make files in dir.
func writable(dir string) bool { return syscall.Access(dir, 0x2 /* W_OK */) == nil }
