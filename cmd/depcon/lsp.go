package main

import (
	"io"
	"os"

	"github.com/depcon/depcon/cmd/depcon/lsp"
)

// lspMain implements depcon lsp: the language server, on standard input
// and output (see package lsp).
func lspMain(args []string, stderr io.Writer) int {
	return lsp.Main(args, os.Stdin, os.Stdout, stderr)
}
