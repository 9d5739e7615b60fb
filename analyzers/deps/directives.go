package deps

import (
	"strings"

	"github.com/depcon/depcon/analyzers/contract"
)

// ignore takes out of the plan the pairs the //depcon:ignore directives
// of the type's doc comment name, recording them in Ignored.
func (t *TypePlan) ignore(doc string) {
	for _, args := range contract.Directives(doc, contract.DirIgnore) {
		spec, reason, _ := strings.Cut(args, " ")
		names, ok := strings.CutPrefix(spec, "pair=")
		m1, m2, ok2 := strings.Cut(names, ",")
		if !ok || !ok2 {
			continue
		}
		m1, m2 = strings.TrimSpace(m1), strings.TrimSpace(m2)
		if m1 > m2 {
			m1, m2 = m2, m1
		}
		for i, p := range t.Pairs {
			if p.M1 != m1 || p.M2 != m2 {
				continue
			}
			if p.Has(DepPC) {
				t.PairsPC--
			}
			if p.Has(DepD) || p.Has(DepRWR) || p.Has(DepSelf) {
				t.PairsD--
			}
			t.Pairs = append(t.Pairs[:i], t.Pairs[i+1:]...)
			note := m1 + " ∥ " + m2
			if reason = strings.TrimSpace(reason); reason != "" {
				note += ": " + reason
			}
			t.Ignored = append(t.Ignored, note)
			break
		}
	}
}
