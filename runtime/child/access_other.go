//go:build !unix

package child

import "os"

// writable reports whether dir's mode lets its owner write it (the
// closest answer without writing into the user's tree).
func writable(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.Mode().Perm()&0o200 != 0
}
