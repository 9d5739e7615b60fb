// Package sariftest validates SARIF logs against the official SARIF 2.1.0 JSON schema, for tests.
//
// The schema is runtime/sarif/testdata/sarif-schema-2.1.0.json (OASIS
// errata 01). It reads the schema from the source tree, so it works only
// where the depcon sources are, as in go test.
package sariftest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/depcon/depcon/runtime/sarif"
)

// SchemaPath returns the path of the schema file in the source tree.
func SchemaPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "sarif-schema-2.1.0.json")
}

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	data, err := os.ReadFile(SchemaPath())
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the SARIF schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarif.SchemaURI, doc); err != nil {
		return nil, err
	}
	return c.Compile(sarif.SchemaURI)
})

// Validate validates a SARIF log (its JSON text) against the schema.
func Validate(data []byte) error {
	sch, err := compiled()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(inst)
}
