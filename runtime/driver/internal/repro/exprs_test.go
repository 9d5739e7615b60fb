package repro

import (
	"go/types"
	"testing"
)

// TestReaderAsHarness checks that a reader parameter gets in the
// reproducer the concrete value harness.newReader gives it in the test:
// a *bytes.Reader for an interface, with a Close when it needs one, and
// the package's own type for *strings.Reader and *bufio.Reader.
func TestReaderAsHarness(t *testing.T) {
	ioReader := types.NewNamed(types.NewTypeName(0, types.NewPackage("io", "io"), "Reader", nil), types.NewInterfaceType(nil, nil), nil)
	closeSig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "", types.Universe.Lookup("error").Type())), false)
	readCloser := types.NewInterfaceType([]*types.Func{types.NewFunc(0, nil, "Close", closeSig)}, nil).Complete()
	strs := types.NewPointer(types.NewNamed(types.NewTypeName(0, types.NewPackage("strings", "strings"), "Reader", nil), types.NewStruct(nil, nil), nil))
	for _, tc := range []struct {
		t    types.Type
		want string
	}{
		{ioReader, `bytes.NewReader([]byte("ab"))`},
		{readCloser, `depconReadCloser{bytes.NewReader([]byte("ab"))}`},
		{strs, `strings.NewReader("ab")`},
	} {
		w := &writer{imports: map[string]string{}, prefix: "depcon"}
		if got := w.reader("ab", tc.t); got != tc.want {
			t.Errorf("reader for %s = %s, want %s", tc.t, got, tc.want)
		}
	}
}
