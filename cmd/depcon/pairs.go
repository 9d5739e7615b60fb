package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/load"
)

const pairsUsage = `usage: depcon pairs [-json] [-unexported] [-type REGEXP] [-callgraph cha|vta] PACKAGES

Pairs prints, for each type of PACKAGES, its methods with the locks held
at their shared accesses, |M|, |M_pc|, |M_d|, |M_pc ∪ M_d|, the reduction,
and every dependent pair with its evidence.

A package that does not load (or imports one that does not) is named on
standard error, one line each, and the plans of the others are printed.

Exit status: 0 when the plans are printed; 2 on a usage error, or when
some packages did not load (the plans of the others are printed).

Flags:
`

// pairsMain implements depcon pairs: it prints, per type under test, the
// methods, |M|, |M_pc|, |M_d|, |M_pc ∪ M_d|, the reduction, and each
// dependent pair with its evidence. By default it prints the plans'
// exported view (exported types, exported methods, the pairs among them);
// with -unexported, the full view (unexported types and methods too).
func pairsMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("depcon pairs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the plans as JSON")
	typeRE := fs.String("type", "", "only the types whose name matches this `regexp`")
	unexported := fs.Bool("unexported", false, "print the full view of the plans: unexported types and methods too")
	cg := fs.String("callgraph", "", "whole-program mode: resolve dynamic calls with this call graph (`cha` or vta) instead of modelling them as unknown code")
	fs.Usage = func() {
		fmt.Fprint(stderr, pairsUsage)
		fs.PrintDefaults()
	}
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	patterns := packageArgs(fs)
	re, err := regexp.Compile(*typeRE)
	if err != nil {
		fmt.Fprintf(stderr, "depcon pairs: -type: %v\n", err)
		return exitError
	}
	if *cg != "" && *cg != load.CallGraphCHA && *cg != load.CallGraphVTA {
		fmt.Fprintf(stderr, "depcon pairs: -callgraph %q: want %s or %s\n", *cg, load.CallGraphCHA, load.CallGraphVTA)
		return exitError
	}
	pkgs, failed, err := load.Partial("", patterns)
	reportFailed(stderr, "depcon pairs", failed)
	if err != nil {
		if len(failed) == 0 {
			fmt.Fprintf(stderr, "depcon pairs: %v\n", err)
		}
		return exitError
	}
	var plans map[string]*deps.Plan
	if *cg != "" {
		plans, err = load.PlansProgram(pkgs, *cg)
	} else {
		plans, _, err = load.Plans(pkgs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "depcon pairs: %v\n", err)
		return exitError
	}
	var paths []string
	for p := range plans {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []jsonType
	for _, path := range paths {
		types := plans[path].Types
		if *unexported {
			types = plans[path].All
		}
		for _, t := range types {
			if !re.MatchString(t.Name) {
				continue
			}
			if *asJSON {
				out = append(out, toJSON(path, t))
			} else {
				printType(stdout, path, t)
			}
		}
	}
	if *asJSON {
		if out == nil {
			out = []jsonType{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "depcon pairs: writing the plans: %v\n", err)
			return exitError
		}
	}
	if len(failed) > 0 {
		return exitError
	}
	return exitClean
}

type jsonType struct {
	Package    string     `json:"package"`
	Type       string     `json:"type"`
	Exported   bool       `json:"exported"`
	Concurrent bool       `json:"concurrent"`
	Why        string     `json:"concurrent_why,omitempty"`
	Methods    []string   `json:"methods"`
	Unexported []string   `json:"unexported_methods,omitempty"` // those of Methods
	Omitted    int        `json:"unexported_omitted,omitempty"`
	PairsTotal int        `json:"pairs_total"`
	PairsPC    int        `json:"pairs_pc"`
	PairsD     int        `json:"pairs_d"`
	Dependent  int        `json:"pairs_dependent"`
	Reduction  float64    `json:"reduction"`
	Pairs      []jsonPair `json:"pairs"`
	// Truncated counts the methods whose summaries were cut at their
	// size limit (deps.Method.Truncated), TruncatedMethods names them:
	// all their pairs are kept, and unguarded says nothing of the
	// type's fields.
	Truncated        int      `json:"truncated,omitempty"`
	TruncatedMethods []string `json:"truncated_methods,omitempty"`
}

type jsonPair struct {
	M1       string          `json:"m1"`
	M2       string          `json:"m2"`
	Deps     []string        `json:"deps"`
	Objects  int             `json:"objects"`
	Evidence []deps.Evidence `json:"evidence"`
	Question string          `json:"question,omitempty"`
}

func toJSON(path string, t *deps.TypePlan) jsonType {
	j := jsonType{Package: path, Type: t.Name, Exported: t.Exported, Concurrent: t.Concurrent, Why: t.ConcurrentWhy, Methods: []string{}, Omitted: t.Omitted,
		PairsTotal: t.PairsTotal, PairsPC: t.PairsPC, PairsD: t.PairsD,
		Dependent: t.Dependent(), Reduction: t.Reduction(), Pairs: []jsonPair{}}
	for _, m := range t.Methods {
		j.Methods = append(j.Methods, m.Name)
		if !m.Exported {
			j.Unexported = append(j.Unexported, m.Name)
		}
	}
	j.TruncatedMethods = t.TruncatedMethods()
	j.Truncated = len(j.TruncatedMethods)
	for _, p := range t.Pairs {
		j.Pairs = append(j.Pairs, jsonPair{M1: p.M1, M2: p.M2, Deps: p.Deps, Objects: p.Objects(), Evidence: p.Evidence,
			Question: p.Question})
	}
	return j
}

func printType(w io.Writer, path string, t *deps.TypePlan) {
	fmt.Fprintf(w, "%s.%s", path, t.Name)
	if !t.Concurrent {
		fmt.Fprintf(w, " (no synchronisation)")
	} else if t.ConcurrentWhy != "" {
		fmt.Fprintf(w, " (concurrent: %s)", t.ConcurrentWhy)
	}
	if t.Omitted > 0 {
		fmt.Fprintf(w, " (%s left out)", plural(t.Omitted, "unexported method"))
	}
	fmt.Fprintf(w, "\n  methods (%d):", len(t.Methods))
	for _, m := range t.Methods {
		fmt.Fprintf(w, " %s", m.Name)
		if len(m.Locks) > 0 {
			fmt.Fprintf(w, "%v", m.Locks)
		}
	}
	if cut := t.TruncatedMethods(); len(cut) > 0 {
		what := "the summary of %s was cut at its size limit: all its pairs are kept"
		if len(cut) > 1 {
			what = "the summaries of %s were cut at their size limit: all their pairs are kept"
		}
		fmt.Fprintf(w, "\n  truncated (%d): "+what, len(cut), strings.Join(cut, ", "))
	}
	fmt.Fprintf(w, "\n  |M| = %d, |M_pc| = %d, |M_d| = %d, |M_pc ∪ M_d| = %d, reduction %.1f%%\n",
		t.PairsTotal, t.PairsPC, t.PairsD, t.Dependent(), t.Reduction())
	for _, p := range t.Pairs {
		fmt.Fprintf(w, "  %s ~ %s [%s]", p.M1, p.M2, p.JoinDeps())
		if p.Objects() == 2 {
			fmt.Fprintf(w, " (two objects)")
		}
		fmt.Fprintln(w)
		for _, e := range p.Evidence {
			fmt.Fprintf(w, "      %s\n", e.Text)
		}
	}
	fmt.Fprintln(w)
}
