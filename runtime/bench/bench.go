// Package bench implements depcon bench.
package bench

import (
	"fmt"
	"io"
)

// Main runs depcon bench with args (the arguments after "bench") and
// returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "depcon bench: not implemented yet")
	return 2
}
