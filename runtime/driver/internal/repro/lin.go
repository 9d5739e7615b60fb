package repro

import (
	"fmt"
	"strings"

	"github.com/depcon/depcon/runtime/harness"
)

// linRefRuns is how many times the reproducer of a non-linearizable
// outcome runs each sequential order with a pause, to learn which parts
// of the outcome depend on more than the order (a clock, map order, what
// expires): once with each of depcon's pauses; harness.LinRareRuns more
// runs without one follow, as depcon runs them before it reports.
var linRefRuns = len(harness.LinPauses)

// linBody writes the body of the reproducer of a non-linearizable
// outcome: a function that builds fresh objects, runs the prefix and the
// two suffix calls in one order or concurrently, and returns their
// outcome; the sequential orders run linRefRuns times each, then the
// concurrent calls v.Iters times, failing on an outcome neither order
// gives.
func (w *writer) linBody(v *Violation) string {
	lin := v.Lin
	if lin == nil {
		lin = &harness.Lin{}
	}
	// The outcome is the rendering of the calls' results and of the
	// observers' (showSource), when there is any.
	shown := len(lin.Observers) > 0
	for i, c := range v.Test.Suffix {
		shown = shown || w.s.Methods[c.Fn].Results().Len() > 0 && !lin.SkipResults[i]
	}
	imports := []string{"runtime", "sync"}
	var b strings.Builder
	if shown {
		imports = append(imports, showImports...)
		b.WriteString(showSource)
	}
	for _, p := range imports {
		w.imports[p] = p
	}
	b.WriteString("run := func(order int, pause time.Duration) []string {\n")
	w.setup(&b, v)
	calls := w.suffixCalls(&b, v)
	b.WriteString("var r0, r1 []string\n")
	for i, c := range v.Test.Suffix {
		sig := w.s.Methods[c.Fn]
		if sig.Results().Len() == 0 || lin.SkipResults[i] {
			fmt.Fprintf(&b, "call%d := func() { %s }\n", i, calls[i])
		} else {
			fmt.Fprintf(&b, "call%d := func() { r%d = showAll(%s) }\n", i, i, calls[i])
		}
	}
	names := w.calls(v)
	// As depcon does, the sequential runs pause before each call and
	// before the outcome is taken, longer and longer, so that what a call
	// leaves to goroutines of its own, and what expires, show as varying.
	b.WriteString("wait := func() {\ntime.Sleep(pause)\n}\n")
	fmt.Fprintf(&b, "switch order {\ncase 0:\nwait()\ncall0()\nwait()\ncall1()\nwait()\ncase 1:\nwait()\ncall1()\nwait()\ncall0()\nwait()\ndefault:\n")
	b.WriteString("start := make(chan struct{})\nvar ready, wg sync.WaitGroup\nready.Add(2)\nwg.Add(2)\n")
	leave := "" // a call's return ends the contexts that last until then
	for _, cancel := range w.leavers {
		leave += "defer " + cancel + "()\n"
	}
	w.leavers = nil
	for i, c := range v.Test.Suffix {
		fmt.Fprintf(&b, "go func() {\ndefer wg.Done()\n%sdefer func() {\nif r := recover(); r != nil {\n"+
			"t.Errorf(\"%s.%s panicked: %%v\", r)\n}\n}()\nready.Done()\n<-start\ncall%d()\n}()\n", leave, obj(c.Recv),
			c.Fn, i)
	}
	b.WriteString("ready.Wait()\nclose(start)\ndone := make(chan struct{})\ngo func() {\nwg.Wait()\nclose(done)\n}()\n")
	expr, text := wait(v)
	fmt.Fprintf(&b, "select {\ncase <-done:\ncase <-time.After(%s):\nt.Fatal(%q)\n}\n}\n",
		expr, fmt.Sprintf("deadlock: %s and %s did not return within %s", names[0], names[1], text))
	// As depcon does, the outcome is taken once the goroutines the calls
	// left behind (a worker finishing a task) have settled.
	b.WriteString("for i, n := 0, runtime.NumGoroutine(); i < 20; i++ {\ntime.Sleep(100 * time.Microsecond)\n" +
		"m := runtime.NumGoroutine()\nif m == n {\nbreak\n}\nn = m\n}\n")
	b.WriteString("out := append(r0, r1...)\n")
	// The group of each part of the outcome, as depcon compares them:
	// the calls' results together, and each observer's on its own.
	var groups []string
	for i, c := range v.Test.Suffix {
		if !lin.SkipResults[i] {
			for range w.s.Methods[c.Fn].Results().Len() {
				groups = append(groups, "0")
			}
		}
	}
	for k, c := range lin.Observers {
		e := w.methodCall(c)
		fmt.Fprintf(&b, "%sout = append(out, showAll(%s)...)\n", w.flush(), e)
		for range w.s.Methods[c.Fn].Results().Len() {
			groups = append(groups, fmt.Sprint(k+1))
		}
	}
	b.WriteString(w.closeConns() + "return out\n}\n")
	fmt.Fprintf(&b, "groups := []int{%s}\n", strings.Join(groups, ", "))
	// The sequential outcomes, and the parts that vary between runs of
	// one order.
	var pauses []string
	for _, p := range harness.LinPauses {
		pauses = append(pauses, fmt.Sprint(int64(p)))
	}
	fmt.Fprintf(&b, "pauses := []time.Duration{%s}\n", strings.Join(pauses, ", "))
	fmt.Fprintf(&b, "var seq [2][]string\nvaries := map[int]bool{}\nrare := time.Now()\nfor n := 0; n < %d; n++ {\n",
		linRefRuns+harness.LinRareRuns)
	b.WriteString("pause := time.Duration(0)\nif n < len(pauses) {\npause = pauses[n]\nrare = time.Now()\n}\n")
	fmt.Fprintf(&b, "if n >= len(pauses)+%d && time.Since(rare) > %d {\nbreak\n}\n", harness.LinRareLeast, int64(harness.LinRareTime))
	b.WriteString("for o := 0; o < 2; o++ {\ngot := run(o, pause)\nif seq[o] == nil {\nseq[o] = got\ncontinue\n}\n" +
		"for i := range got {\nif i >= len(seq[o]) || got[i] != seq[o][i] {\nvaries[i] = true\n}\n}\n}\n}\n")
	b.WriteString("same := func(got, want []string, group int) bool {\nif len(got) != len(groups) || len(want) != len(groups) {\n" +
		"return false\n}\nfor i := range got {\nif groups[i] == group && !varies[i] && got[i] != want[i] {\n" +
		"return false\n}\n}\nreturn true\n}\n")
	b.WriteString("linearizable := func(got []string) bool {\nfor g := 0; g <= " + fmt.Sprint(len(lin.Observers)) +
		"; g++ {\nif !same(got, seq[0], g) && !same(got, seq[1], g) {\nreturn false\n}\n}\nreturn true\n}\n")
	fmt.Fprintf(&b, "for iter := 0; iter < %d; iter++ {\ngot := run(2, 0)\nif t.Failed() {\nreturn\n}\n", max(v.Iters, 1))
	fmt.Fprintf(&b, "if !linearizable(got) {\n"+
		"t.Fatalf(\"not linearizable: %s ∥ %s gave %%q; %s; %s gives %%q and %s; %s gives %%q\", got, seq[0], seq[1])\n}\n}\n",
		names[0], names[1], names[0], names[1], names[1], names[0])
	return b.String()
}

// suffixCalls writes the statements that build the suffix calls'
// arguments (before the goroutines start, as depcon does) and returns
// the calls.
func (w *writer) suffixCalls(b *strings.Builder, v *Violation) []string {
	var calls []string
	for i, c := range v.Test.Suffix {
		sig := w.s.Methods[c.Fn]
		var args []string
		for j, a := range c.Args {
			t := param(sig, j)
			e := w.expr(a, t)
			b.WriteString(w.flush())
			if !simple(a) {
				name := fmt.Sprintf("g%darg%d", i+1, j)
				fmt.Fprintf(b, "%s := %s\n", name, e)
				e = name
			}
			args = append(args, e)
		}
		calls = append(calls, w.join(c, sig, args))
	}
	return calls
}
