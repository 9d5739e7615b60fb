// Package bench implements depcon bench, which measures depcon on a corpus
// of packages with known thread-safety violations (testdata/corpus), the
// way DepCon+ is evaluated (Terragni & Pezzè, Tables II–IV).
//
// # Corpus
//
// A corpus directory holds one package per subdirectory, each with one
// type under test, and truth.json, an array of [Subject]: the type, the
// bug's label ("none" for a control, a correct type), the oracle kinds
// that count as finding it, the failing pair and the number of shared
// objects it needs. [LoadTruth] checks it against the directory and
// [CheckPlans] against the plans.
//
// # Runs
//
// The static phase loads and analyses each subject alone (runtime/load)
// and records its plan and the two times. The dynamic phase calls
// driver.Run once per mode and seed s = 1..N on all the subjects, with
// the same harness, iterations and budget B per type in every mode; only
// the pairs differ: dependent (depcon's M_pc ∪ M_d), all (every pair,
// least covered first, as CovCon) and random.
//
// A run of subject x (one mode, one seed) is successful when the driver
// reports on x's type a violation whose kind x allows, on any pair (some
// defects show on several pairs). Then:
//
//   - FDT is that violation's Elapsed: the time from the start of the
//     type's testing (after the static phase and the child's build, which
//     are measured apart) to the violation's confirmation;
//   - #GT is the number of generated tests up to and including the one
//     that exposed it (TestsBefore + 1).
//
// A failed run has no FDT, and its #GT is the number of tests run until
// the budget expired (or until the driver had nothing left to test).
// Every reported violation of a kind x does not allow is a false alarm;
// on a control, every violation is.
//
// # Aggregation
//
// For subject x and mode m over the N seeds:
//
//   - success_rate(x,m) = successful runs / N, a fraction in [0,1];
//   - fdt_s(x,m) and tests(x,m) are the means of FDT and #GT over the
//     successful runs, null (n/a) when there is none;
//   - FDT_B(x,m) is DepCon's mean over all N runs, a failed run counting
//     the budget B; #GT_B(x,m) the mean #GT over all N runs;
//   - the FDT speedup of depcon over baseline b is
//     FDT_B(x,b) / FDT_B(x,dependent), and the #GT reduction
//     #GT_B(x,b) / #GT_B(x,dependent), undefined when the divisor is 0;
//   - false_alarms(x) counts the false alarms over all modes and seeds;
//   - the reduction is that of the plan, 100·(|M| − |M_pc ∪ M_d|) / |M|.
//
// The summary's reduction_mean (in percent), success_rate_mean (of the
// dependent mode), fdt_speedup_vs_all, fdt_speedup_vs_random and
// tests_reduction_vs_all are arithmetic means over the buggy subjects
// (controls excluded) of the per-subject values, leaving out subjects
// where a value is undefined, as the "Avg." rows of DepCon's tables do;
// null when no subject has one. The text form adds the same means over
// the subjects whose kinds are all deadlocks (DepCon's deadlock mode) and
// over the others (its exception mode).
package bench
