package main

import (
	"fmt"
	"io"
)

func pairsMain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "depcon pairs: not implemented yet")
	return 2
}
