package deps_test

import (
	"go/token"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/analyzers/internal/testpkgs"
	"github.com/depcon/depcon/analyzers/lockorder"
	"github.com/depcon/depcon/analyzers/rwrdeadlock"
	"github.com/depcon/depcon/analyzers/selfdeadlock"
	"github.com/depcon/depcon/analyzers/summary"
	"github.com/depcon/depcon/runtime/load"
)

// TestPlanAgreesWithDiagnostics checks that the plan and the diagnostics
// decide re-acquisition, RWR and lock order alike (both use lockrules):
// on the diagnostics' own test packages, a self-deadlock or RWR reported
// in a method is a self or rwr pair of its type's plan with the same site,
// and every such pair of the plan is reported there, or is a call of a
// method of the type whose own pair is (the diagnostic is reported in the
// callee); a double-lock pair is a lock-order diagnostic at one of its
// sites. The diagnostics found through callbacks, interfaces and
// recursive calls (heldcalls) count too: the plan has them through
// Callbacks.
func TestPlanAgreesWithDiagnostics(t *testing.T) {
	cfg := testpkgs.Config(t)
	pkgs, err := packages.Load(cfg, "selfdeadlock", "rwrdeadlock", "hashtable", "lockorder",
		"selfdeadlock/callees", "selfdeadlock/indirect", "rwrdeadlock/crosspkg", "rwrdeadlock/chains", "lockorder/indirect") // the last five through callbacks
	if err != nil {
		t.Fatal(err)
	}
	analyzers := []*analysis.Analyzer{summary.Analyzer, deps.Analyzer, selfdeadlock.Analyzer, rwrdeadlock.Analyzer, lockorder.Analyzer}
	g, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	type pkgResult struct {
		plan  *deps.Plan
		sum   *summary.Result
		fset  *token.FileSet
		diags map[string]map[string]string // analyzer → position → message
	}
	results := map[string]*pkgResult{}
	roots := map[*packages.Package]bool{}
	for _, p := range pkgs {
		roots[p] = true
	}
	for act := range g.All() {
		if !roots[act.Package] {
			continue
		}
		r := results[act.Package.PkgPath]
		if r == nil {
			r = &pkgResult{fset: act.Package.Fset, diags: map[string]map[string]string{}}
			results[act.Package.PkgPath] = r
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		switch act.Analyzer {
		case deps.Analyzer:
			r.plan = act.Result.(*deps.Plan)
		case summary.Analyzer:
			r.sum = act.Result.(*summary.Result)
		}
		for _, d := range act.Diagnostics {
			if r.diags[act.Analyzer.Name] == nil {
				r.diags[act.Analyzer.Name] = map[string]string{}
			}
			r.diags[act.Analyzer.Name][act.Package.Fset.Position(d.Pos).String()] = d.Message
		}
	}
	checked := 0
	for path, r := range results {
		if r.plan == nil {
			t.Fatalf("%s: no plan", path)
		}
		for _, tp := range r.plan.All {
			// The methods of the type, by name, for following calls.
			methods := map[string]*ssa.Function{}
			for _, st := range r.sum.Types {
				if st.Obj.Name() == tp.Name {
					for _, m := range append(append([]*summary.Method(nil), st.Methods...), st.Unexported...) {
						methods[m.Name] = m.Func
					}
				}
			}
			sites := map[string]map[string]string{deps.DepSelf: {}, deps.DepRWR: {}} // kind → site → method
			for _, p := range tp.Pairs {
				for _, ev := range p.Evidence {
					switch ev.Kind {
					case deps.DepSelf:
						sites[ev.Kind][ev.Pos1] = p.M1
					case deps.DepRWR:
						m := p.M1
						if !strings.HasPrefix(ev.Text, p.M1+" ") {
							m = p.M2
						}
						sites[ev.Kind][ev.Pos1] = m
					case deps.DepD:
						if descending(ev.Loc1) && descending(ev.Loc2) {
							// Two traversals locking a node, then its
							// children: a deadlock only if the structure
							// has a cycle (test package tree), which the
							// plan tests and vet does not assert.
							continue
						}
						checked++
						lo := r.diags["lockorder"]
						if lo[ev.Pos1] == "" && lo[ev.Pos2] == "" {
							t.Errorf("%s.%s: %s~%s is double-lock dependent (%s) but lockorder reports neither site", path, tp.Name, p.M1, p.M2, ev.Text)
						}
					}
				}
			}
			for kind, analyzer := range map[string]string{deps.DepSelf: "selfdeadlock", deps.DepRWR: "rwrdeadlock"} {
				// Plan ⇒ diagnostic (here, or in the method called here).
				for site, m := range sites[kind] {
					checked++
					if r.diags[analyzer][site] != "" {
						continue
					}
					callee := calleeAt(r.fset, methods[m], site)
					if callee == "" || !hasSite(sites[kind], callee) {
						t.Errorf("%s.%s: the plan has a %s pair for %s at %s, which %s does not report (callee %q)", path, tp.Name, kind, m, site, analyzer, callee)
					}
				}
				// Diagnostic in a method ⇒ plan.
				for site, msg := range r.diags[analyzer] {
					if m := methodAt(r.fset, methods, site); m != "" {
						checked++
						if _, ok := sites[kind][site]; !ok {
							t.Errorf("%s.%s: %s reports %s in %s (%s), but the plan has no %s pair there", path, tp.Name, analyzer, site, m, msg, kind)
						}
					}
				}
			}
		}
	}
	t.Logf("%d sites compared", checked)
	if checked < 8 {
		t.Errorf("only %d sites compared", checked)
	}
}

func hasSite(sites map[string]string, method string) bool {
	for _, m := range sites {
		if m == method {
			return true
		}
	}
	return false
}

// calleeAt returns the name of the function called at site in fn.
func calleeAt(fset *token.FileSet, fn *ssa.Function, site string) string {
	if fn == nil {
		return ""
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && instr.Pos().IsValid() && fset.Position(instr.Pos()).String() == site {
				if callee := c.Common().StaticCallee(); callee != nil {
					return callee.Name()
				}
			}
		}
	}
	return ""
}

// methodAt returns the name of the method whose body holds site.
func methodAt(fset *token.FileSet, methods map[string]*ssa.Function, site string) string {
	for name, fn := range methods {
		syn := fn.Syntax()
		if syn == nil {
			continue
		}
		start, end := fset.Position(syn.Pos()), fset.Position(syn.End())
		file, rest, _ := strings.Cut(site, ":")
		lineStr, _, _ := strings.Cut(rest, ":")
		line, _ := strconv.Atoi(lineStr)
		if file == start.Filename && line >= start.Line && line <= end.Line {
			return name
		}
	}
	return ""
}

// descending reports whether a double-lock evidence's order "a -> b"
// goes from an object's lock to the lock of an object it reaches
// ("recv.mu -> recv.kids[*].mu").
func descending(order string) bool {
	a, b, ok := strings.Cut(order, " -> ")
	i, j := strings.LastIndexByte(a, '.'), strings.LastIndexByte(b, '.')
	return ok && i > 0 && j > i && strings.HasPrefix(b, a[:i]) && strings.ContainsRune(".[", rune(b[i]))
}

// TestEveryDiagnosticHasAPair checks that each diagnostic of the
// analyzers whose findings a generated test can reproduce (a data race,
// a deadlock of two calls or one) is in a method of a type with a
// dependent pair whose test can confirm it (load.Diagnostic.Concerns, the
// rule depcon vet -confirm and depcon test apply): no such warning is
// left that no test could confirm, but those whose other half is in a
// function or a method of another type (generated tests pair the methods
// of one type). Lock leaks and blocked operations are reported for one
// method alone and have no pair.
func TestEveryDiagnosticHasAPair(t *testing.T) {
	cfg := testpkgs.Config(t)
	cfg.Mode = load.Mode
	pkgs, err := packages.Load(cfg, "selfdeadlock", "selfdeadlock/callees", "selfdeadlock/indirect", "rwrdeadlock", "rwrdeadlock/crosspkg",
		"rwrdeadlock/deferred", "rwrdeadlock/chains", "lockorder", "lockorder/crosspkg", "lockorder/indirect", "lockorder/crosscycle", "lockorder/traversal", "hashtable",
		"unguarded", "unguarded/wrapper", "bufreader", "writewrite", "entryheld")
	if err != nil {
		t.Fatal(err)
	}
	a, err := load.Analyze(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Errors) > 0 {
		t.Fatal(a.Errors)
	}
	checked, elsewhere := 0, 0
	for _, d := range a.Diagnostics {
		if d.Type == "" || d.Analyzer == "lockleak" || d.Analyzer == "blockedlock" {
			continue
		}
		checked++
		found := false
		for _, tp := range a.Plans[d.Package].All {
			if tp.Name != d.Type {
				continue
			}
			for _, p := range tp.Pairs {
				found = found || d.Concerns(p.M1, p.M2, p.Evidence)
			}
		}
		gap := strings.HasSuffix(d.Pos.Filename, "lockorder/indirect/callbacks.go") && d.Type == "DeviceSet"
		switch {
		case found && gap:
			t.Errorf("%s: %s: the plan has its pair now; remove it from the known gaps", d.Pos, d.Message)
		case found:
		case len(d.Elsewhere) > 0:
			elsewhere++
		case gap:
			// A known gap: the lock of a value a call returns
			// (info := d.lookup(hash); info.lock.Lock()) has no access
			// path, and summaries record no acquisition of such locks
			// (only heldcalls holds them, by their SSA names, which
			// would collide across functions): the plan misses the
			// order Mutex → DevInfo.lock that lockorder sees.
		default:
			t.Errorf("%s: %s (%s in %s.%v): no dependent pair concerns it", d.Pos, d.Message, d.Analyzer, d.Type, d.Methods)
		}
	}
	t.Logf("%d diagnostics in methods, %d of them also in functions or other types' methods, without a pair", checked, elsewhere)
	if checked < 30 {
		t.Errorf("only %d diagnostics checked", checked)
	}
}
