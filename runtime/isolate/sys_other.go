//go:build !linux

package isolate

import (
	"fmt"
	"runtime"
	"time"
)

// waitDelay bounds the wait for a killed command's output.
const waitDelay = time.Second

// sysJail is empty where no mechanism exists.
type sysJail struct{}

func (*sysJail) close() {}

type sysProc struct{}

func detect(Policy) (*sysJail, Mechanisms, error) {
	return nil, Mechanisms{}, fmt.Errorf("no isolation mechanism on %s (depcon confines third-party code with Linux's Landlock and namespaces)",
		runtime.GOOS)
}

func (c *Cmd) start() error {
	setGroup(c.Cmd)
	return c.Cmd.Start()
}

func (c *Cmd) kill() error { return killGroup(c.Cmd) }

func (c *Cmd) release() Outcome { return Outcome{} }
