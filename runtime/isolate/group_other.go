//go:build !unix

package isolate

import (
	"os"
	"os/exec"
)

// setGroup does nothing where there are no process groups.
func setGroup(*exec.Cmd) {}

// killGroup kills cmd's process (what it started may survive it).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// Alive reports whether the process pid exists.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
