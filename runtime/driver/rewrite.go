package driver

import (
	"errors"
	"go/ast"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/depcon/depcon/runtime/child"
	"github.com/depcon/depcon/runtime/driver/internal/instrument"
	"github.com/depcon/depcon/runtime/driver/internal/sched"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/testgen"
	"golang.org/x/tools/go/packages"
)

// rewriter returns the rewriting of pkg for the child's build: hooks at
// its lock operations, before the statements that access a field some
// dependent pair's evidence names, and before the statements of the
// evidence's sites. The sites placed are stored in *sites.
func rewriter(pkg *packages.Package, subjects []*testgen.Subject, sites **instrument.Result) child.Rewriter {
	return func(names child.Names) (map[string][]byte, error) {
		if len(pkg.Syntax) == 0 || pkg.TypesInfo == nil {
			return nil, errors.New("the package was loaded without its syntax")
		}
		want := instrument.Want{Fields: map[string]bool{}}
		for _, s := range subjects {
			for _, p := range s.Plan.Pairs {
				for _, e := range p.Evidence {
					for _, loc := range []string{e.Loc1, e.Loc2} {
						for _, f := range sched.LocFields(loc) {
							want.Fields[f] = true
						}
					}
					for _, pos := range []string{e.Pos1, e.Pos2} {
						if pos != "" {
							want.Positions = append(want.Positions, pos)
						}
					}
				}
			}
		}
		var files []*ast.File // those of the package's directory (not cgo's generated ones)
		for _, f := range pkg.Syntax {
			if slices.Contains(pkg.GoFiles, pkg.Fset.File(f.Pos()).Name()) {
				files = append(files, f)
			}
		}
		res, err := instrument.Rewrite(pkg.Fset, files, pkg.TypesInfo, os.ReadFile,
			instrument.HooksWithPrefix(names.Prefix), want)
		if err != nil {
			return nil, err
		}
		*sites = res
		return res.Files, nil
	}
}

// buildReason returns the first compiler error of a failed build, or
// the error's first line.
func buildReason(err error) string {
	var be *child.BuildError
	if errors.As(err, &be) {
		for _, l := range strings.Split(be.Output, "\n") {
			if strings.Contains(l, ".go:") {
				return strings.TrimSpace(l)
			}
		}
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return first
}

// traceTime is the least time a prefix's trace may take.
const traceTime = 50 * time.Millisecond

// prune drops from the prefix of c's test the calls that do not change
// which hooks the pair's calls reach when run after it (OpTrace): they
// change no branch the interleavings could explore. It returns the hook
// sites each call reached after the calls kept (nil when not traced: a
// test without prefix is traced only while targeted orders of its pair
// are left to choose from). A trace that fails leaves the prefix as it
// is.
func (r *typeRun) prune(c *testgen.Case) *[2][]int {
	t := c.Target
	if t.Seq || r.sites == nil || r.cfg.Sched == SchedStress || len(c.Test.Prefix) == 0 && r.policy.OrdersLeft(t) {
		return nil
	}
	req := r.request(harness.OpTrace, c.Test, t.M1, t.M2)
	req.MaxTime = max(traceTime, r.cfg.Budget/100) // slow objects: trace little, keep the rest
	rep := r.do(req)
	if rep == nil || rep.Result == nil || rep.Result.Status != harness.StatusOK {
		return nil
	}
	prefix := make([]harness.Call, 0, len(rep.Result.Kept))
	for _, i := range rep.Result.Kept {
		if i >= 0 && i < len(c.Test.Prefix) {
			prefix = append(prefix, c.Test.Prefix[i])
		}
	}
	r.rep.PrefixCalls += len(c.Test.Prefix)
	r.rep.PrefixPruned += len(c.Test.Prefix) - len(prefix)
	c.Test.Prefix = prefix
	return &rep.Result.Reached
}
