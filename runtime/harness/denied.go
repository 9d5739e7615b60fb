package harness

import (
	"errors"
	"os"
	"strings"
)

// deniedTexts are the messages of the operations that depcon's isolation
// denies to the code under test: writes outside its scratch directory,
// connections, more processes than its bound.
var deniedTexts = []string{
	"permission denied", "operation not permitted", "read-only file system",
	"network is unreachable", "connection refused", "resource temporarily unavailable",
}

// deniedErr reports whether err is an operation the isolation denied.
func deniedErr(err error) bool {
	return err != nil && (errors.Is(err, os.ErrPermission) || deniedText(err.Error()))
}

// deniedText reports whether the message s (an error's, a panic's) says
// an operation was denied.
func deniedText(s string) bool {
	s = strings.ToLower(s)
	for _, t := range deniedTexts {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}
