package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/depcon/depcon/runtime/driver"
	"github.com/depcon/depcon/runtime/load"
	"github.com/depcon/depcon/runtime/report"
)

// driverRun runs depcon test (a variable for the tests).
var driverRun = driver.Run

// driverDoc is the page that documents depcon test's violations.
const driverDoc = docBase + "github.com/depcon/depcon/runtime/driver"

// codeLens returns a lens on each type of the document's package
// declared in the document that has dependent pairs; its command tests
// the type. The lens of a type that does not look meant for concurrent
// use (no synchronisation, no doc comment saying so: depcon test leaves
// it out by default) says so.
func (s *Server) codeLens(ctx context.Context, u protocol.DocumentURI) []protocol.CodeLens {
	lenses := []protocol.CodeLens{}
	path := uriPath(u)
	if path == "" {
		return lenses
	}
	p := s.pkg(filepath.Dir(path))
	a := p.wait(ctx, s)
	if a == nil {
		return lenses
	}
	for _, t := range a.types {
		if t.loc.URI != u {
			continue
		}
		title := fmt.Sprintf("depcon: %d dependent pairs · test", len(t.pairs))
		switch {
		case len(t.pairs) == 1 && t.concurrent:
			title = "depcon: 1 dependent pair · test"
		case len(t.pairs) == 1:
			title = "depcon: 1 dependent pair (no synchronisation) · test"
		case !t.concurrent:
			title = fmt.Sprintf("depcon: %d dependent pairs (no synchronisation) · test", len(t.pairs))
		}
		lenses = append(lenses, protocol.CodeLens{
			Range: t.loc.Range,
			Command: &protocol.Command{Title: title, Command: CommandTest,
				Arguments: []any{TestArgs{Dir: p.dir, Type: t.name}}},
		})
	}
	return lenses
}

// executeCommand runs a command: depcon.test starts a test run in the
// background and returns at once; depcon.writeReproducer writes a
// reproducer and returns its path.
func (s *Server) executeCommand(params *protocol.ExecuteCommandParams) (any, error) {
	switch params.Command {
	case CommandTest:
		var args TestArgs
		if err := argument(params.Arguments, &args); err != nil || args.Dir == "" || args.Type == "" {
			return nil, fmt.Errorf("%w: %s wants {\"dir\": DIR, \"type\": NAME}", jsonrpc2.ErrInvalidParams, CommandTest)
		}
		budget := s.opts.Budget
		if args.Budget != "" {
			d, err := time.ParseDuration(args.Budget)
			if err != nil {
				return nil, fmt.Errorf("%w: budget: %w", jsonrpc2.ErrInvalidParams, err)
			}
			budget = d
		}
		dir := filepath.Clean(args.Dir)
		cfg, err := testConfig(s.opts, dir, args.Type, budget)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", jsonrpc2.ErrInvalidParams, err)
		}
		return nil, s.startTest(dir, args.Type, cfg, params.WorkDoneToken)
	case CommandWriteReproducer:
		var id string
		if err := argument(params.Arguments, &id); err != nil {
			return nil, fmt.Errorf("%w: %s wants a violation id", jsonrpc2.ErrInvalidParams, CommandWriteReproducer)
		}
		return s.writeReproducer(id)
	}
	return nil, fmt.Errorf("%w: unknown command %q", jsonrpc2.ErrInvalidParams, params.Command)
}

// argument decodes the first argument of a command into v.
func argument(args []any, v any) error {
	if len(args) == 0 {
		return errors.New("no argument")
	}
	b, err := json.Marshal(args[0])
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// startTest starts depcon test with cfg on one type of the package in
// dir.
func (s *Server) startTest(dir, name string, cfg driver.Config, token *protocol.ProgressToken) error {
	p := s.pkg(dir)
	s.mu.Lock()
	t := p.tests[name]
	if t == nil {
		t = &typeTest{}
		p.tests[name] = t
	}
	if t.running {
		s.mu.Unlock()
		return fmt.Errorf("%s is being tested already", name)
	}
	t.running = true
	createToken := token == nil && s.progress
	if token == nil {
		s.nextID++
		token = protocol.NewProgressToken(fmt.Sprintf("depcon.test/%d", s.nextID))
	}
	ctx, cancel := context.WithCancel(s.ctx)
	key := token.String()
	s.runs[key] = cancel
	s.mu.Unlock()
	s.goBackground(func() {
		defer func() {
			cancel()
			s.mu.Lock()
			delete(s.runs, key)
			t.running = false
			s.mu.Unlock()
		}()
		report := s.progressReporter(ctx, token, createToken, "depcon test "+name)
		recs, msg := s.runTest(ctx, p, name, cfg, report.writer())
		report.end(msg)
		s.mu.Lock()
		for _, old := range t.violations {
			delete(s.violations, old.id)
		}
		t.violations = recs
		for _, rec := range recs {
			s.violations[rec.id] = rec
		}
		s.mu.Unlock()
		s.publish(p)
	})
	return nil
}

// runTest runs depcon test with cfg (testConfig's) on the type and
// returns its violations, as diagnostics, and a summary.
func (s *Server) runTest(ctx context.Context, p *pkgState, name string, cfg driver.Config, progress *progressWriter) ([]*violationRec, string) {
	cfg.Progress = progress
	type runResult struct {
		rep *report.Report
		err error
	}
	done := make(chan runResult, 1)
	start := time.Now()
	s.goBackground(func() {
		rep, err := driverRun(ctx, cfg)
		done <- runResult{rep, err}
	})
	var res runResult
	select {
	case res = <-done:
	case <-ctx.Done():
		// Loading the package does not stop at once: the run ends in the
		// background (done is buffered).
		return nil, "canceled"
	}
	s.logf("tested %s in %s in %.1fs", name, p.dir, time.Since(start).Seconds())
	rep, err := res.rep, res.err
	if ctx.Err() != nil {
		return nil, "canceled"
	}
	if err != nil {
		s.showMessage(protocol.MessageTypeError, "depcon test %s: %v", name, err)
		if rep == nil {
			return nil, err.Error()
		}
	}
	a := p.wait(ctx, s)
	var recs []*violationRec
	summary := "no violation found"
	for _, tr := range rep.Types {
		if tr.Type != name {
			continue
		}
		if tr.Skipped != "" {
			summary = "not tested: " + tr.Skipped
			continue
		}
		summary = fmt.Sprintf("no violation found: %d pairs tested, %d tests", tr.PairsTested, tr.TestsGenerated)
		var kinds []string
		for _, v := range tr.Violations {
			recs = append(recs, s.violationRec(p.dir, name, a, v))
			kinds = append(kinds, v.Kind+" "+pairText(v))
		}
		if len(kinds) > 0 {
			summary = fmt.Sprintf("%d violation(s): %s", len(kinds), strings.Join(kinds, ", "))
		}
	}
	return recs, summary
}

// violationRec makes the record, and the diagnostic, of a violation.
func (s *Server) violationRec(dir, typ string, a *pkgResult, v *report.Violation) *violationRec {
	s.mu.Lock()
	s.nextID++
	id := fmt.Sprintf("v%d", s.nextID)
	s.mu.Unlock()
	rec := &violationRec{id: id, dir: dir, typ: typ, v: v}
	var loc, other protocol.Location
	if t := a.typeInfoOrNil(typ); t != nil {
		loc, other = t.method(v.Pair[0]), t.method(v.Pair[1])
	} else if a != nil && len(a.files) > 0 {
		loc = protocol.Location{URI: fileURI(a.files[0])}
		other = loc
	}
	rec.uri = loc.URI
	msg := fmt.Sprintf("depcon test: %s: %s, seed %d: %s", v.Kind, pairText(v), v.Seed, v.Message)
	severity := protocol.DiagnosticSeverityError
	switch v.Reproduced {
	case report.ReproYes:
		msg += " (reproduced)"
	case report.ReproNo:
		msg += " (unconfirmed: its reproducer passed)"
		severity = protocol.DiagnosticSeverityWarning
	}
	d := protocol.Diagnostic{
		Range:           loc.Range,
		Severity:        severity,
		Code:            v.Kind,
		CodeDescription: &protocol.CodeDescription{Href: protocol.URI(driverDoc)},
		Source:          "depcon",
		Message:         msg,
		Data:            map[string]any{"violation": id},
	}
	if v.Pair[1] != v.Pair[0] && other.URI != "" {
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: other, Message: v.Pair[1] + ", the other method of the pair"})
	}
	m := newMapper()
	for _, e := range v.Evidence {
		for _, pos := range []string{e.Pos1, e.Pos2} {
			if p, ok := load.ParsePosition(pos); ok {
				d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
					Location: m.location(p), Message: e.Text})
			}
		}
	}
	rec.diag = d
	switch {
	case v.Reproducer == "":
	case report.IsReproducerPath(v.Reproducer):
		if src, err := os.ReadFile(v.Reproducer); err == nil {
			rec.reproName, rec.reproSrc = filepath.Base(v.Reproducer), src
		}
	default:
		rec.reproName = fmt.Sprintf("depcon_%s_%s_test.go", strings.ToLower(typ), strings.ReplaceAll(v.Kind, "-", ""))
		rec.reproSrc = []byte(v.Reproducer)
	}
	return rec
}

// typeInfoOrNil is typeInfo on a possibly nil analysis.
func (a *pkgResult) typeInfoOrNil(name string) *typeInfo {
	if a == nil {
		return nil
	}
	return a.typeInfo(name)
}

// codeActions returns "write reproducer test" for the violations of the
// diagnostics of the request, or, for clients that send none, of the
// violations in its range.
func (s *Server) codeActions(params *protocol.CodeActionParams) []protocol.CodeAction {
	actions := []protocol.CodeAction{}
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	add := func(rec *violationRec) {
		if rec == nil || rec.reproName == "" || seen[rec.id] {
			return
		}
		seen[rec.id] = true
		actions = append(actions, protocol.CodeAction{
			Title:       "write reproducer test",
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{rec.diag},
			Command: &protocol.Command{Title: "write reproducer test " + rec.reproName,
				Command: CommandWriteReproducer, Arguments: []any{rec.id}},
		})
	}
	for _, d := range params.Context.Diagnostics {
		if data, ok := d.Data.(map[string]any); ok {
			if id, ok := data["violation"].(string); ok {
				add(s.violations[id])
			}
		}
	}
	for _, rec := range s.sortedViolations() {
		r := rec.diag.Range
		if rec.uri == params.TextDocument.URI && r.Start.Line >= params.Range.Start.Line && r.Start.Line <= params.Range.End.Line {
			add(rec)
		}
	}
	return actions
}

// sortedViolations returns the violations by id; s.mu is held.
func (s *Server) sortedViolations() []*violationRec {
	out := make([]*violationRec, 0, len(s.violations))
	for _, rec := range s.violations {
		out = append(out, rec)
	}
	// ids are "v<n>": sort by length, then text.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (len(out[j].id) < len(out[j-1].id) ||
			len(out[j].id) == len(out[j-1].id) && out[j].id < out[j-1].id); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// writeReproducer writes the reproducer of a violation next to its
// package and returns its path. It does not overwrite a file.
func (s *Server) writeReproducer(id string) (string, error) {
	s.mu.Lock()
	rec := s.violations[id]
	s.mu.Unlock()
	if rec == nil || rec.reproName == "" {
		return "", fmt.Errorf("no reproducer for violation %q (the type was tested again since?)", id)
	}
	path := filepath.Join(rec.dir, rec.reproName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("writing the reproducer: %w", err)
	}
	_, err = f.Write(rec.reproSrc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("writing the reproducer: %w", err)
	}
	s.showMessage(protocol.MessageTypeInfo, "depcon: wrote %s", path)
	return path, nil
}

// A progress reports a test run through $/progress.
type progress struct {
	s       *Server
	ctx     context.Context
	token   *protocol.ProgressToken
	enabled bool
	w       *progressWriter
}

// progressReporter begins the progress of a run under token, creating
// the token first when create is set.
func (s *Server) progressReporter(ctx context.Context, token *protocol.ProgressToken, create bool, title string) *progress {
	pr := &progress{s: s, ctx: s.ctx, token: token, enabled: true}
	if create {
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: *token}); err != nil {
			pr.enabled = false
		}
	}
	pr.send(&protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: title,
		Cancellable: true, Message: "building the test binary"})
	pr.w = &progressWriter{report: func(msg string) {
		pr.send(&protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Cancellable: true, Message: msg})
	}}
	return pr
}

func (pr *progress) send(value any) {
	if pr.enabled {
		_ = pr.s.client.Progress(pr.ctx, &protocol.ProgressParams{Token: *pr.token, Value: value})
	}
}

func (pr *progress) writer() *progressWriter { return pr.w }

// end ends the progress with a message.
func (pr *progress) end(msg string) {
	pr.send(&protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: msg})
}

// A progressWriter receives the progress line of depcon test (rewritten
// in place with "\r\033[K") and reports it, at most every 250ms.
type progressWriter struct {
	mu     sync.Mutex
	report func(string)
	last   time.Time
}

func (w *progressWriter) Write(b []byte) (int, error) {
	text := strings.ReplaceAll(string(b), "\033[K", "")
	var line string
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if l = strings.TrimSpace(l); l != "" {
			line = l
		}
	}
	w.mu.Lock()
	send := line != "" && time.Since(w.last) >= 250*time.Millisecond
	if send {
		w.last = time.Now()
	}
	w.mu.Unlock()
	if send {
		w.report(line)
	}
	return len(b), nil
}
