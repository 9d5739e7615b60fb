package testgen

import (
	"go/constant"
	"go/types"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/depcon/depcon/runtime/harness"
)

// TestFileArguments checks that a string parameter named like a file
// gets a name in a directory of its own (harness.KPath), and that no
// string argument is a name outside the test's directory, even where the
// package's constants are.
func TestFileArguments(t *testing.T) {
	s, err := NewSubject(load(t), mapPlan())
	if err != nil {
		t.Fatal(err)
	}
	s.Literals = []string{"/etc", "../up", "a/../../b", "~/.ssh", `C:\x`, `\\server\share`, "key"}
	v := &valuer{s: s, rng: rand.New(rand.NewPCG(1, 2))}
	str := types.Typ[types.String]
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(
		types.NewParam(0, nil, "snapshotPath", str), types.NewParam(0, nil, "name", str)), nil, false)
	usedKey := false
	for range 500 {
		args := v.args(sig, 0)
		if args[0].K != harness.KPath || !slices.Contains(pathLits, args[0].Lit) {
			t.Fatalf("snapshotPath argument %q, want one of %q", args[0].Lit, pathLits)
		}
		if OutsidePath(args[1].Lit) {
			t.Fatalf("name argument %q names a file outside the test's directory", args[1].Lit)
		}
		usedKey = usedKey || args[1].Lit == "key"
	}
	if !usedKey {
		t.Errorf("the package's constant %q was never used", "key")
	}
	for _, p := range pathLits {
		if OutsidePath(p) {
			t.Errorf("pathLits has %q, outside the test's directory", p)
		}
	}
}

// TestEnumArguments checks that a parameter of an enum-like type of the
// package mostly gets one of the package's constants of that type.
func TestEnumArguments(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	mode := types.NewNamed(types.NewTypeName(0, pkg, "Mode", nil), types.Typ[types.Int], nil)
	pkg.Scope().Insert(mode.Obj())
	for i, name := range []string{"ModeRead", "ModeWrite", "ModeAppend"} {
		pkg.Scope().Insert(types.NewConst(0, pkg, name, mode, constant.MakeInt64(int64(4+i))))
	}
	enums := enumsOf(pkg)
	if got := enums[mode.Obj()]; !slices.Equal(got, []string{"6", "4", "5"}) {
		t.Fatalf("enums of Mode: %q, want its three constants", got)
	}
	v := &valuer{s: &Subject{Pkg: pkg, enums: enums}, rng: rand.New(rand.NewPCG(1, 2))}
	hits := 0
	for range 200 {
		val := v.value(mode, 0)
		if val.K == harness.KLit && (val.Lit == "4" || val.Lit == "5" || val.Lit == "6") {
			hits++
		}
	}
	if hits < 100 {
		t.Errorf("a constant of Mode in %d of 200 arguments, want most", hits)
	}
}

func TestImportable(t *testing.T) {
	for _, tc := range []struct {
		path, from string
		want       bool
	}{
		{"example.com/z", "example.com/m", true},
		{"example.com/y/internal/z", "example.com/m", false},
		{"example.com/y/internal/z", "example.com/y", true},
		{"example.com/y/internal/z", "example.com/y/cache", true},
		{"example.com/y/internal", "example.com/yy", false},
	} {
		if got := importable(tc.path, tc.from); got != tc.want {
			t.Errorf("importable(%q, %q) = %v, want %v", tc.path, tc.from, got, tc.want)
		}
	}
}
