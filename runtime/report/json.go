package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(r io.Reader) (*Report, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("reading a report: %w", err)
	}
	for _, t := range rep.Types {
		if t.Violations == nil {
			t.Violations = []*Violation{}
		}
	}
	return &rep, nil
}
