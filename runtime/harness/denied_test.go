package harness

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestDenied checks which errors count as operations the isolation
// denied: system errors of the kinds it causes, not a package's own
// errors that use the same words.
func TestDenied(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, true},
		{fmt.Errorf("saving: %w", &os.PathError{Op: "mkdir", Path: "/y", Err: syscall.EROFS}), true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, true},
		{errors.New("permission denied"), false},
		{errors.New("acl: user bob: permission denied"), false},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, false},
		{nil, false},
	} {
		if got := deniedErr(tc.err); got != tc.want {
			t.Errorf("deniedErr(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	if !deniedText("open /root/x: permission denied") || deniedText("permission denied for user bob") {
		t.Errorf("deniedText: wrong on a panic message")
	}
}
