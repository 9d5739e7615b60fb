// Package bench measures depcon on a corpus of packages with known thread-safety violations.
//
// It measures depcon the way DepCon+ is evaluated (Terragni & Pezzè,
// Tables II–IV), on a corpus such as testdata/corpus: [Measure] runs
// what depcon bench (the command, in cmd/depcon) asks for, and the
// [Report] prints its results.
//
// # Corpus
//
// A corpus directory holds one package per subdirectory, each with one
// type under test, and truth.json, an array of [Subject]: the type, the
// bug's label ("none" for a control, a correct type), the oracle kinds
// that count as finding it, the failing pair, the pairs on which the same
// defect shows too (equivalent), the number of shared objects it needs,
// whether it is hard (its bug needs a narrow interleaving), and judgements
// of other violations depcon reported on it (also: pair, kind, whether it
// is real, why). [LoadTruth] checks it against the directory and
// [CheckPlans] against the plans; the whole corpus needs at least
// [MinControls] controls with dependent pairs (a control without any is
// not tested with the dependent pairs, so it proves nothing about false
// alarms), and the report gives each control's count.
//
// # Runs
//
// The static phase loads and analyses each subject alone (runtime/load),
// records its plan and the two times, and builds and times the subject's
// child (its package with the harness, a race-enabled test binary) as
// depcon test does; cost(x) = load + analysis + build. The first subject's
// child is built once before, so that no subject pays for the race runtime.
//
// The dynamic phase calls driver.Run once per scheduler, pair selection
// and seed s = 1..N, with the same harness, iterations and budget B per
// type in every run. The schedulers (-sched) are those of depcon test:
// stress, pct, targeted and all. The pair selections (-pairs) are
// dependent (depcon's M_pc ∪ M_d), all (every pair, least covered first,
// as CovCon) and random. For each subject depcon test looks for the kind
// of its bug (Subject.Find, -find), as DepCon+ does: deadlocks when every
// kind it allows is a deadlock or self-deadlock, exceptions otherwise.
// Looking for exceptions, every pair selection tests one shared object
// per pair (dependent: the M_pc pairs; all and random: every pair);
// two-object targets exist only when looking for deadlocks (dependent:
// the M_d, RWR and self pairs, each with the objects its evidence needs;
// all and random: every pair with one and with two objects). A control
// is tested for both at once, so that a false alarm of either shows.
//
// A run of subject x is successful when the driver reports on x's type a
// confirmed violation of a kind x allows on x's failing pair or on one of
// its equivalent pairs (in either method order). Then:
//
//   - FDT is that violation's Elapsed: the time from the start of the
//     type's testing to the violation's confirmation;
//   - FDT+ (fdt_total) is cost(x) + FDT: every cost counted, from loading
//     the package to the violation (the cost is the same for every pair
//     selection: the baselines' generator uses the plan too, to choose
//     prefixes);
//   - #GT is the number of generated tests up to and including the one
//     that exposed it (TestsBefore + 1).
//
// A failed run has no FDT, and its #GT is the number of tests run until
// the budget expired (or until the driver had nothing left to test). The
// driver stops a type at its bug (driver.Config.StopAt), not at its first
// violation: the violations found before it, on other pairs or of other
// kinds, do not fail the run. Every other confirmed violation is listed with
// its pair and kind; on a buggy subject it is a false alarm unless
// truth.json judges it real (also), on a control it always is.
//
// # Aggregation
//
// For subject x, scheduler S and pair selection m over the N seeds:
//
//   - success_rate(x,S,m) = successful runs / N, a fraction in [0,1];
//   - fdt_s, fdt_total_s and tests are the means of FDT, FDT+ and #GT
//     over the successful runs, null (n/a) when there is none;
//   - FDT_B(x,S,m) is DepCon's mean over all N runs, a failed run counting
//     the budget B; FDT+_B = cost(x) + FDT_B; #GT_B the mean #GT over all
//     N runs;
//   - against a baseline b, with the same scheduler: the FDT speedup
//     FDT_B(x,S,b) / FDT_B(x,S,dependent), the total FDT speedup
//     FDT+_B(x,S,b) / FDT+_B(x,S,dependent), the #GT reduction
//     #GT_B(x,S,b) / #GT_B(x,S,dependent); each undefined when either
//     term is 0;
//   - false_alarms counts the false alarms over the runs;
//   - the reduction is that of the plan, 100·(|M| − |M_pc ∪ M_d|) / |M|.
//
// The summary aggregates the buggy subjects (controls excluded) over
// those where a value is defined. Speedups and reductions are ratios:
// they are aggregated by their geometric mean, exp(mean(ln r)), and their
// median (the mean of the two middle values for an even count); their
// arithmetic mean, the "Avg." of DepCon's tables, is given too, labelled
// as such. Ratios are aggregated over all buggy subjects and over those
// where depcon test looks for exceptions and for deadlocks. Success
// rates, FDT_B, FDT+_B, #GT_B and the reduction are averaged
// arithmetically.
//
// Per scheduler S and pair selection m, over the hard subjects and over
// the others (ordinary): the mean success rate; the mean and median FDT
// over all the successful runs of the group; the mean and median of the
// subjects' FDT_B. The slowdown of S against stress is, per ordinary
// subject, FDT_B(x,S,m) / FDT_B(x,stress,m), aggregated like every ratio
// (only when stress ran). False alarms are counted per scheduler and pair
// selection on the controls and on the buggy subjects.
package bench
