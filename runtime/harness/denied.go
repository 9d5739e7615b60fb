package harness

import (
	"errors"
	"regexp"
	"syscall"
)

// deniedErrnos are the system errors of the operations that depcon's
// isolation denies to the code under test: writes outside its scratch
// directory, connections, more processes than its bound.
var deniedErrnos = []syscall.Errno{
	syscall.EACCES, syscall.EPERM, syscall.EROFS,
	syscall.ENETUNREACH, syscall.ECONNREFUSED, syscall.EAGAIN,
}

// deniedErr reports whether err is a system error of an operation the
// isolation denies (an error of the package's own that merely says
// "permission denied" is not).
func deniedErr(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	for _, e := range deniedErrnos {
		if errno == e {
			return true
		}
	}
	return false
}

// deniedRE matches the end of the message of such a system error, as a
// panic with the error as its value prints it ("open /x: permission
// denied").
var deniedRE = regexp.MustCompile(`: (permission denied|operation not permitted|read-only file system|` +
	`network is unreachable|connection refused|resource temporarily unavailable)$`)

// deniedText reports whether a panic's message s is that of a system
// error of an operation the isolation denies.
func deniedText(s string) bool { return deniedRE.MatchString(s) }
