package driver

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/depcon/depcon/analyzers/contract"
	"github.com/depcon/depcon/runtime/harness"
	"github.com/depcon/depcon/runtime/load"
)

const docsSrc = `package p

import (
	"sync"
	"time"
)

type common struct{ mu sync.Mutex }

// Reboot restarts the pool; use ReleaseTimeout() before rebooting,
// otherwise you may run into data race.
func (c *common) Reboot() {}

// Inner is a pool of goroutines. Once all your tasks have been
// submitted, you must call Wait().
type Inner struct{ n int }

// Pool wraps an Inner.
type Pool struct {
	*common
	in    Inner
	ttl   time.Duration
	added time.Time
}

// Len returns the number of entries.
func (p *Pool) Len() int { return p.in.n }

// Has reports whether the entry is still fresh.
func (p *Pool) Has() bool { return p.fresh() }

func (p *Pool) fresh() bool { return time.Since(p.added) < p.ttl }

// Stamp reads the clock itself.
func (p *Pool) Stamp() int64 { return time.Now().UnixNano() }

// Submitter submits work.
type Submitter interface {
	// Go submits f without waiting for it to complete.
	Go(f func())
	// Len returns what the interface says.
	Len() int
}

func (p *Pool) Go(f func()) {}

var defaultPool = &Pool{}

var pools struct{ main Pool }

// GetDefaultPool returns the process-wide pool.
func GetDefaultPool() *Pool { return defaultPool }

// MainPool returns another process-wide pool.
func MainPool() *Pool { return &pools.main }

// NewPool returns a new pool, or the default one.
func NewPool(fresh bool) *Pool {
	if !fresh {
		return defaultPool
	}
	return &Pool{}
}
`

func loadSrc(t *testing.T, src string) *packages.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &packages.Package{Types: pkg, TypesInfo: info, Syntax: []*ast.File{f}, Fset: fset}
}

// TestDocsAndClock checks what the driver reads of a type from its
// source: the documentation of promoted methods, that of the types it
// wraps, and the methods whose results depend on the clock (directly or
// through a helper), which are no observers.
func TestDocsAndClock(t *testing.T) {
	pkg := loadSrc(t, docsSrc)
	docs := contract.MethodDocs(pkg.Syntax, pkg.Types, pkg.TypesInfo, "Pool")
	if !strings.Contains(docs["Reboot"], "otherwise you may run into data race") {
		t.Errorf("Reboot's doc %q: the promoted method's documentation is missing", docs["Reboot"])
	}
	if !strings.Contains(docs["Len"], "number of entries") {
		t.Errorf("Len's doc %q: its own comment comes first", docs["Len"])
	}
	if !strings.Contains(docs["Go"], "without waiting for it to complete") {
		t.Errorf("Go's doc %q: the interface method it implements documents it", docs["Go"])
	}
	if w := contract.WrappedDocs(pkg.Syntax, pkg.Types, "Pool"); !strings.Contains(w, "you must call Wait()") {
		t.Errorf("wrapped docs %q, want Inner's", w)
	}
	if got := sharedGetters(pkg); len(got) != 2 || !got["GetDefaultPool"] || !got["MainPool"] {
		t.Errorf("shared getters %v, want GetDefaultPool and MainPool (NewPool builds one on some path)", got)
	}
	clock := clockMethods(pkg, "Pool")
	if !clock["Has"] || !clock["Stamp"] || clock["Len"] || clock["Reboot"] {
		t.Errorf("clock methods %v, want Has (through fresh) and Stamp only", clock)
	}
}

// TestComparedValuesOf checks which values a method is found to compare
// its parameters with.
func TestComparedValuesOf(t *testing.T) {
	pkgs, err := load.Packages("", []string{testdataDir + "emptyname"})
	if err != nil {
		t.Fatal(err)
	}
	got := comparedValues(pkgs[0], "Groups")
	if vs := got["Add"][0]; len(vs) != 1 || vs[0].K != harness.KLit || vs[0].Lit != "*" {
		t.Errorf("Add's name is compared with %+v, want the reserved \"*\"", vs)
	}
	if len(got["Count"]) != 0 {
		t.Errorf("Count compares %+v, want nothing", got["Count"])
	}
}

// TestInternalHelpers checks that the unexported methods of a type of an
// internal package, helpers run under their caller's lock, are entry
// points of the tests only with -unexported.
func TestInternalHelpers(t *testing.T) {
	pkgs, err := load.Packages("", []string{testdataDir + "internal/store"})
	if err != nil {
		t.Fatal(err)
	}
	plans, _, err := load.Plans(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for _, unexported := range []bool{false, true} {
		subjects, _, _ := selectTypes(pkgs[0], plans[pkgs[0].PkgPath], Config{Unexported: unexported}, nil)
		if len(subjects) != 1 {
			t.Fatalf("-unexported=%v: %d subjects, want Store", unexported, len(subjects))
		}
		want := []string{"Put"}
		if unexported {
			want = []string{"Put", "compact"}
		}
		if got := subjects[0].Names; !slices.Equal(got, want) {
			t.Errorf("-unexported=%v: methods %v, want %v", unexported, got, want)
		}
	}
}
