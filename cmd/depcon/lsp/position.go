package lsp

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// fileURI returns the document URI of a file path.
func fileURI(path string) protocol.DocumentURI {
	return uri.File(path)
}

// uriPath returns the file path of a file:// document URI, or "".
func uriPath(u protocol.DocumentURI) string {
	if !strings.HasPrefix(string(u), "file://") {
		return ""
	}
	return filepath.Clean(u.Filename())
}

// A mapper converts go/token positions (1-based lines, byte columns) to
// LSP positions (0-based lines, UTF-16 columns), reading each file once.
type mapper struct {
	files map[string][]string // file name → lines
}

func newMapper() *mapper { return &mapper{files: map[string][]string{}} }

func (m *mapper) lines(file string) []string {
	if ls, ok := m.files[file]; ok {
		return ls
	}
	data, err := os.ReadFile(file)
	var ls []string
	if err == nil {
		ls = strings.Split(string(data), "\n")
	}
	m.files[file] = ls
	return ls
}

// position converts a go/token position.
func (m *mapper) position(p token.Position) protocol.Position {
	line := max(p.Line-1, 0)
	col := max(p.Column-1, 0)
	ls := m.lines(p.Filename)
	if line < len(ls) {
		text := ls[line]
		col = min(col, len(text))
		return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(text[:col]))}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// rangeOf returns the range from start to end, or, when end is not
// valid, the identifier or word that starts at start (an empty range
// when there is none).
func (m *mapper) rangeOf(start, end token.Position) protocol.Range {
	r := protocol.Range{Start: m.position(start)}
	if hasEnd(start, end) {
		r.End = m.position(end)
		return r
	}
	end = start
	if ls := m.lines(start.Filename); start.Line >= 1 && start.Line <= len(ls) {
		text := ls[start.Line-1]
		col := min(max(start.Column-1, 0), len(text))
		n := 0
		for _, c := range text[col:] {
			if c != '_' && !isLetterOrDigit(c) {
				break
			}
			n += utf8.RuneLen(c)
		}
		if n == 0 && col < len(text) { // not a word: its first character
			_, n = utf8.DecodeRuneInString(text[col:])
		}
		end.Column += n
	}
	r.End = m.position(end)
	return r
}

// hasEnd reports whether end is a valid end of a range from start.
func hasEnd(start, end token.Position) bool {
	if !end.IsValid() || end.Filename != start.Filename {
		return false
	}
	return end.Line > start.Line || end.Line == start.Line && end.Column > start.Column
}

// location returns the location of a go/token position.
func (m *mapper) location(p token.Position) protocol.Location {
	return protocol.Location{URI: fileURI(p.Filename), Range: m.rangeOf(p, token.Position{})}
}

func isLetterOrDigit(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c > utf8.RuneSelf
}

// utf16Len returns the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}
