package analysisdoc_test

import (
	"strings"
	"testing"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
)

const file = `// Package halting defines Analyzers that report programs that never end.
//
// # Analyzer halting
//
// halting: report loops that never end
//
// A for loop with no condition, no break and no return never ends:
//
//	for {
//	}
//
// # Analyzer haltingx
//
// haltingx: report loops that never end, and more
//
// # Examples
//
// More examples.
package halting

import _ "embed"
`

func TestExtract(t *testing.T) {
	for _, tc := range []struct{ name, want, err string }{
		{name: "halting", want: "report loops that never end\n\nA for loop with no condition, no break and no return never ends:\n\n\tfor {\n\t}"},
		{name: "haltingx", want: "report loops that never end, and more"},
		{name: "halt", err: "no heading 'Analyzer halt'"},
		{name: "Examples", err: "no heading 'Analyzer Examples'"},
	} {
		got, err := analysisdoc.Extract(file, tc.name)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Extract(%q): error %v, want one containing %q", tc.name, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("Extract(%q): %v", tc.name, err)
		case got != tc.want:
			t.Errorf("Extract(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestExtractErrors(t *testing.T) {
	for _, content := range []string{
		"",
		"not Go",
		"package halting\n",
		"// # Analyzer halting\n//\n// no summary line\npackage halting\n",
	} {
		if _, err := analysisdoc.Extract(content, "halting"); err == nil {
			t.Errorf("Extract(%q): no error", content)
		}
	}
}

func TestMustExtractPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustExtract of a file without the section did not panic")
		}
	}()
	analysisdoc.MustExtract("package halting\n", "halting")
}
