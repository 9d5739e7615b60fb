package lsp

import (
	"context"
	"fmt"
	"sort"
	"time"

	"go.lsp.dev/protocol"

	"github.com/depcon/depcon/analyzers/deps"
	"github.com/depcon/depcon/runtime/report"
)

// A pkgState is what the server keeps of one package (one directory):
// the last analysis, the last test run of each type, and the documents
// it published diagnostics for. Its fields are guarded by Server.mu.
type pkgState struct {
	dir    string
	stamp  string     // fingerprint of the files result was computed from
	result *pkgResult // the last successful analysis, nil before one
	// running is set while an analysis runs, again when another was
	// asked for meanwhile; done is closed when the analyses end.
	running, again bool
	done           chan struct{}
	tests          map[string]*typeTest // by type name
	published      map[protocol.DocumentURI]bool
}

// A typeTest is the last test run of a type.
type typeTest struct {
	running    bool
	violations []*violationRec
}

// A violationRec is a violation a test run found, as published.
type violationRec struct {
	id        string
	dir, typ  string
	v         *report.Violation
	uri       protocol.DocumentURI
	diag      protocol.Diagnostic
	reproName string // the reproducer's file name, "" when there is none
	reproSrc  []byte
}

// refresh analyses the package again in the background and publishes
// its diagnostics, unless its files are those of the last analysis (a
// second file of the package opened, a file saved unchanged): then the
// last results are published again.
func (p *pkgState) refresh(s *Server) {
	s.mu.Lock()
	if p.running {
		p.again = true
		s.mu.Unlock()
		return
	}
	if p.result != nil && stamp(p.dir) == p.stamp {
		s.mu.Unlock()
		s.logf("%s unchanged: last analysis reused", p.dir)
		s.publish(p)
		return
	}
	p.running = true
	p.done = make(chan struct{})
	s.mu.Unlock()
	s.goBackground(func() { p.analyse(s) })
}

// analyse runs the analyses, until none was asked for during the last.
func (p *pkgState) analyse(s *Server) {
	for {
		st := stamp(p.dir)
		start := time.Now()
		a, err := analyze(p.dir)
		s.logf("analysed %s in %.1fs", p.dir, time.Since(start).Seconds())
		if err != nil {
			// Before the waiters go on: the log says why there is nothing.
			s.logMessage("depcon: %s: %v", p.dir, err)
		}
		s.mu.Lock()
		if a != nil {
			p.result, p.stamp = a, st
		}
		again := p.again && s.ctx.Err() == nil
		p.again = false
		if !again {
			p.running = false
			close(p.done)
		}
		s.mu.Unlock()
		s.publish(p)
		if !again {
			return
		}
	}
}

// wait waits for the package's analysis (starting one if none ran) and
// returns its result, nil when there is none.
func (p *pkgState) wait(ctx context.Context, s *Server) *pkgResult {
	s.mu.Lock()
	done := p.done
	s.mu.Unlock()
	if done == nil {
		p.refresh(s)
		s.mu.Lock()
		done = p.done
		s.mu.Unlock()
	}
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return p.result
}

// confirmedSuffix is appended to a static diagnostic a test confirms.
const confirmedSuffix = "confirmed by a generated test"

// publish publishes the diagnostics of the package: the analyzers' of
// the last analysis, with those a test confirmed marked, and the
// violations of the last test runs. Documents that had diagnostics and
// have none any more get an empty list.
func (s *Server) publish(p *pkgState) {
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.mu.Lock()
	diags := map[protocol.DocumentURI][]protocol.Diagnostic{}
	for u := range p.published {
		diags[u] = []protocol.Diagnostic{}
	}
	if a := p.result; a != nil {
		for _, f := range a.files {
			diags[fileURI(f)] = []protocol.Diagnostic{}
		}
		for _, sd := range a.static {
			d := sd.diag
			if rec := confirming(sd, p.tests[sd.src.Type], a.typeInfoOrNil(sd.src.Type)); rec != nil {
				d.Message = fmt.Sprintf("%s (%s: %s, %s, seed %d)", d.Message, confirmedSuffix, rec.v.Kind,
					pairText(rec.v), rec.v.Seed)
			}
			diags[sd.uri] = append(diags[sd.uri], d)
		}
	}
	names := make([]string, 0, len(p.tests))
	for name := range p.tests {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, rec := range p.tests[name].violations {
			// Follow the method's declaration as the file changes.
			if t := p.result.typeInfoOrNil(rec.typ); t != nil {
				if loc, ok := t.methods[rec.v.Pair[0]]; ok {
					rec.uri, rec.diag.Range = loc.URI, loc.Range
				}
			}
			diags[rec.uri] = append(diags[rec.uri], rec.diag)
		}
	}
	p.published = map[protocol.DocumentURI]bool{}
	uris := make([]protocol.DocumentURI, 0, len(diags))
	for u, ds := range diags {
		uris = append(uris, u)
		if len(ds) > 0 {
			p.published[u] = true
		}
	}
	s.mu.Unlock()
	sort.Slice(uris, func(i, j int) bool { return uris[i] < uris[j] })
	for _, u := range uris {
		_ = s.client.PublishDiagnostics(s.ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: diags[u]})
	}
}

// confirming returns the violation of the type's last test run that
// confirms a static diagnostic (report.Violation.Confirms), or nil.
func confirming(sd *staticDiag, t *typeTest, info *typeInfo) *violationRec {
	if t == nil {
		return nil
	}
	var pairs []deps.Pair
	if info != nil {
		pairs = info.pairs
	}
	for _, rec := range t.violations {
		if rec.v.Confirms(sd.src, pairs) {
			return rec
		}
	}
	return nil
}

// pairText renders a violation's pair: "Get ∥ Inc", or "Put (called
// alone)" for a single call.
func pairText(v *report.Violation) string {
	if v.Kind == report.KindSelfDeadlock {
		return v.Pair[0] + " (called alone)"
	}
	return v.Pair[0] + " ∥ " + v.Pair[1]
}
