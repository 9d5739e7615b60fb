package testgen

import (
	"go/types"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFileArguments checks that a string parameter named like a file
// gets a relative name, and that no string argument is a name outside
// the test's directory, even where the package's constants are.
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
		if !slices.Contains(pathLits, args[0].Lit) {
			t.Fatalf("snapshotPath argument %q, want one of %q", args[0].Lit, pathLits)
		}
		if outsidePath(args[1].Lit) {
			t.Fatalf("name argument %q names a file outside the test's directory", args[1].Lit)
		}
		usedKey = usedKey || args[1].Lit == "key"
	}
	if !usedKey {
		t.Errorf("the package's constant %q was never used", "key")
	}
	for _, p := range pathLits {
		if outsidePath(p) {
			t.Errorf("pathLits has %q, outside the test's directory", p)
		}
	}
}
