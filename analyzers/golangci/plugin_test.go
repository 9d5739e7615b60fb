package golangci

import (
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/suite"
)

func analyzerNames(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

// newFromRegistry builds the plugin the way golangci-lint does: through the
// registry, with the settings as viper decodes them from YAML.
func newFromRegistry(t *testing.T, conf any) (register.LinterPlugin, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatalf("plugin %q is not registered: %v", Name, err)
	}
	return newPlugin(conf)
}

func TestNoSettingsServesWholeSuite(t *testing.T) {
	want := analyzerNames(suite.Analyzers())
	if len(want) == 0 {
		t.Fatal("suite.Analyzers() is empty")
	}
	for _, conf := range []any{
		nil,
		map[string]any{},
		map[string]any{"disable": []any{}},
	} {
		p, err := newFromRegistry(t, conf)
		if err != nil {
			t.Fatalf("settings %#v: %v", conf, err)
		}
		if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
			t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatalf("settings %#v: BuildAnalyzers: %v", conf, err)
		}
		if got := analyzerNames(as); !slices.Equal(got, want) {
			t.Errorf("settings %#v: analyzers %v, want %v", conf, got, want)
		}
		if err := analysis.Validate(as); err != nil {
			t.Errorf("settings %#v: analysis.Validate: %v", conf, err)
		}
	}
}

func TestDisable(t *testing.T) {
	all := analyzerNames(suite.Analyzers())
	for _, off := range all {
		conf := map[string]any{"disable": []any{off, off}} // a repeat is harmless
		var want []string
		for _, n := range all {
			if n != off {
				want = append(want, n)
			}
		}

		p, err := newFromRegistry(t, conf)
		if len(want) == 0 {
			// Disabling the only analyzer leaves nothing to run.
			if err == nil || !strings.Contains(err.Error(), "every analyzer") {
				t.Errorf("disable %v: error %v, want one about every analyzer being disabled", all, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("disable %q: %v", off, err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatalf("disable %q: BuildAnalyzers: %v", off, err)
		}
		if got := analyzerNames(as); !slices.Equal(got, want) {
			t.Errorf("disable %q: analyzers %v, want %v", off, got, want)
		}
	}
}

func TestDisableEverything(t *testing.T) {
	var all []any
	for _, n := range analyzerNames(suite.Analyzers()) {
		all = append(all, n)
	}
	_, err := newFromRegistry(t, map[string]any{"disable": all})
	if err == nil || !strings.Contains(err.Error(), "every analyzer") {
		t.Fatalf("error %v, want one about every analyzer being disabled", err)
	}
}

func TestUnknownAnalyzer(t *testing.T) {
	known := analyzerNames(suite.Analyzers())
	_, err := newFromRegistry(t, map[string]any{"disable": []any{known[0], "nosuchcheck"}})
	if err == nil {
		t.Fatal("no error for an unknown analyzer name")
	}
	msg := err.Error()
	for _, want := range append([]string{Name, "disable", `unknown analyzer "nosuchcheck"`}, known...) {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, conf := range []any{
		map[string]any{"enable": []any{"deps"}}, // unknown key
		map[string]any{"disable": "deps"},       // not a list
		map[string]any{"disable": []any{1}},     // not a name
		[]any{"deps"},                           // not a mapping
	} {
		if _, err := newFromRegistry(t, conf); err == nil {
			t.Errorf("settings %#v: no error", conf)
		} else if !strings.Contains(err.Error(), Name+": invalid settings") {
			t.Errorf("settings %#v: error %q does not say the settings are invalid", conf, err)
		}
	}
}
