// Package driver implements depcon test.
package driver

import (
	"fmt"
	"io"
)

// Main runs depcon test with args (the arguments after "test") and returns
// the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "depcon test: not implemented yet")
	return 2
}
