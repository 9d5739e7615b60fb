package blockedlock

import (
	_ "embed"
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/depcon/depcon/analyzers/internal/analysisdoc"
	"github.com/depcon/depcon/analyzers/lockflow"
)

//go:embed doc.go
var doc string

// Analyzer reports blocking channel, WaitGroup and Cond operations
// performed while holding a lock that the other side needs to unblock
// them.
var Analyzer = &analysis.Analyzer{
	Name:     "blockedlock",
	Doc:      analysisdoc.MustExtract(doc, "blockedlock"),
	URL:      "https://pkg.go.dev/github.com/depcon/depcon/analyzers/blockedlock",
	Requires: []*analysis.Analyzer{buildssa.Analyzer, lockflow.Analyzer},
	Run:      run,
}

// A checker holds the operations of a package and what the analysis
// knows of their objects and of the package's calls.
type checker struct {
	pass   *analysis.Pass
	prog   *lockflow.Program
	sites  []*site
	byObj  map[string][]*site
	taint  map[string]bool   // objects used in ways not followed
	condL  map[string]string // the class of each Cond's lock ("": unknown)
	buffer map[string]bool   // channels made with a buffer (or unknown size)
	calls  map[*ssa.Function][]*ssa.Call
	refd   map[*ssa.Function]bool // used other than by a direct call
	names  map[string]bool        // method names called through interfaces
	entry  map[*ssa.Function]map[string]lockflow.Lock
	busy   map[*ssa.Function]bool
	locals map[string]*localChan // the local channels followed, by object
}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	c := &checker{
		pass:   pass,
		prog:   pass.ResultOf[lockflow.Analyzer].(*lockflow.Program),
		byObj:  map[string][]*site{},
		taint:  map[string]bool{},
		condL:  map[string]string{},
		buffer: map[string]bool{},
		calls:  map[*ssa.Function][]*ssa.Call{},
		refd:   map[*ssa.Function]bool{},
		names:  map[string]bool{},
		entry:  map[*ssa.Function]map[string]lockflow.Lock{},
		busy:   map[*ssa.Function]bool{},
	}
	fns := ssainfo.SrcFuncs
	for _, fn := range fns {
		c.scan(fn)
	}
	c.scanReturned()
	for _, s := range c.sites {
		c.byObj[s.obj] = append(c.byObj[s.obj], s)
	}
	c.check()
	return nil, nil
}

// check reports the sends, receives and waits (and the selects) that
// block holding a lock the other side needs.
func (c *checker) check() {
	reported := map[token.Pos]bool{}
	selects := map[*ssa.Select]bool{}
	for _, s := range c.sites {
		if s.kind != send && s.kind != recv && s.kind != wait && s.kind != condWait || s.exits != nil {
			continue
		}
		if s.sel != nil {
			if s.sel.Blocking && !selects[s.sel] {
				selects[s.sel] = true
				c.checkSelect(s.sel, reported)
			}
			continue
		}
		for _, cls := range sortedClasses(c.locksAt(s.fn, s.at)) {
			l := c.locksAt(s.fn, s.at)[cls]
			if !l.Held {
				continue
			}
			if s.kind == condWait {
				if own, ok := c.condL[s.obj]; !ok || own == "" || own == cls {
					continue // Wait releases the cond's own lock
				}
			}
			f, ok := c.blocked(s, l)
			if !ok || reported[s.pos] {
				continue
			}
			reported[s.pos] = true
			what := fmt.Sprintf("%s %s", s.kind, s.loc.Display)
			if s.kind == condWait {
				own := c.condL[s.obj]
				what += " (which releases only its own lock, " + own[strings.LastIndexByte(own, '.')+1:] + ")"
			}
			c.report(s.pos, what, f)
		}
	}
}

// checkSelect reports a select without default all of whose cases block
// on operations whose other sides need the same lock.
func (c *checker) checkSelect(sel *ssa.Select, reported map[token.Pos]bool) {
	var cases []*site
	for _, s := range c.sites {
		if s.sel == sel {
			cases = append(cases, s)
		}
	}
	if len(cases) != len(sel.States) || len(cases) == 0 {
		return
	}
	locks := c.locksAt(cases[0].fn, sel)
	for _, cls := range sortedClasses(locks) {
		l := locks[cls]
		if !l.Held {
			continue
		}
		var first finding
		ok := true
		for i, s := range cases {
			f, blocks := c.blocked(s, l)
			if !blocks {
				ok = false
				break
			}
			if i == 0 {
				first = f
			}
		}
		if !ok || reported[sel.Pos()] {
			continue
		}
		reported[sel.Pos()] = true
		what := "select"
		if len(cases) == 1 {
			what = fmt.Sprintf("select on %s %s", cases[0].kind, cases[0].loc.Display)
		}
		c.report(sel.Pos(), what, first)
	}
}

func (c *checker) report(pos token.Pos, what string, f finding) {
	l, o, ol := f.lock, f.other, f.olock
	how := "with " + ol.Path.Display + " held"
	switch {
	case f.again:
		how = "after locking " + ol.Path.Display + " on some path (its goroutine may be waiting for " + ol.Path.Display + " instead)"
	case !ol.Held:
		how = "only after locking " + ol.Path.Display
	}
	verb := "locked"
	if l.Acq.Read {
		verb = "read-locked"
	}
	where := c.short(o.pos)
	end := "neither side can proceed"
	if f.again {
		end = "then neither side can proceed"
	}
	msg := fmt.Sprintf("%s blocks while holding %s (%s at %s), but the %s that would unblock it (in %s at %s) happens %s: %s",
		what, l.Path.Display, verb, c.short(l.Acq.Pos), o.kind.noun(), o.fn.Name(), where, how, end)
	rel := []analysis.RelatedInformation{{Pos: o.pos, Message: fmt.Sprintf("%s %s, %s", o.kind, o.loc.Display, how)}}
	if ol.Acq.Pos.IsValid() {
		rel = append(rel, analysis.RelatedInformation{Pos: ol.Acq.Pos, Message: ol.Path.Display + " acquired here"})
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: rel})
}

func (c *checker) short(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func sortedClasses(m map[string]lockflow.Lock) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
