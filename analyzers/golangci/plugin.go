package golangci

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/depcon/depcon/analyzers/suite"
)

// Name is the name under which the plugin registers itself, and so the name
// of the linter in .golangci.yml (linters.enable and
// linters.settings.custom) and in the FromLinter field of its issues.
const Name = "depcon"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings, read from
// linters.settings.custom.depcon.settings in .golangci.yml.
type Settings struct {
	// Disable lists analyzers of the suite (by their analysis.Analyzer
	// Name) that are not run. An unknown name is an error.
	Disable []string `json:"disable"`
}

// Plugin is depcon's register.LinterPlugin.
type Plugin struct {
	settings Settings
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New is the plugin's constructor as golangci-lint calls it: conf is the raw
// value of the settings key (nil when absent). The settings are checked
// here, so a bad configuration stops golangci-lint before any package is
// loaded.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid settings: %w", Name, err)
	}
	p := &Plugin{settings: s}
	if _, err := p.BuildAnalyzers(); err != nil {
		return nil, err
	}
	return p, nil
}

// BuildAnalyzers returns the analyzers of suite.Analyzers, less the ones the
// settings disable.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	all := suite.Analyzers()

	known := make(map[string]bool, len(all))
	for _, a := range all {
		known[a.Name] = true
	}
	disabled := make(map[string]bool, len(p.settings.Disable))
	var unknown []string
	for _, name := range p.settings.Disable {
		if !known[name] {
			unknown = append(unknown, fmt.Sprintf("%q", name))
			continue
		}
		disabled[name] = true
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s: settings.disable: unknown analyzer %s (known analyzers: %s)",
			Name, strings.Join(unknown, ", "), strings.Join(names(all), ", "))
	}

	var enabled []*analysis.Analyzer
	for _, a := range all {
		if !disabled[a.Name] {
			enabled = append(enabled, a)
		}
	}
	if len(enabled) == 0 {
		return nil, fmt.Errorf("%s: settings.disable turns off every analyzer (%s); remove %s from linters.enable instead",
			Name, strings.Join(names(all), ", "), Name)
	}
	return enabled, nil
}

// GetLoadMode reports that the analyzers need type information (and facts
// of the dependencies), not only syntax.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

func names(as []*analysis.Analyzer) []string {
	ns := make([]string, 0, len(as))
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	slices.Sort(ns)
	return ns
}
