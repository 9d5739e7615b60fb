package harness

import "time"

// A Request is one line of JSON the driver writes to the child's standard
// input.
type Request struct {
	// Op is OpRun (stress the two suffixes concurrently) or OpSeq (run
	// the suffixes one after the other, in order).
	Op   string `json:"op"`
	Test Test   `json:"test"`
	// Watchdog is how long the two suffixes of one iteration may take
	// before the child looks for a deadlock (OpRun), or how long one
	// sequential call may take before it is checked for being blocked.
	// The child raises it to 50 times the slowest iteration it has seen.
	Watchdog time.Duration `json:"watchdog"`
	// HardCap is how long a call or iteration that is still running (not
	// blocked) may take before it is reported as hanging.
	HardCap time.Duration `json:"hard_cap"`
	// MaxTime, when positive, ends a concurrent test's iterations once
	// they have run this long: objects that make every iteration slow
	// cost one test a bounded time, not the whole budget.
	MaxTime time.Duration `json:"max_time,omitempty"`
	// Sched, when set, runs the concurrent iterations (OpRun) under a
	// schedule enforced at the hooks of the rewritten package; nil lets
	// the Go scheduler interleave the two goroutines.
	Sched *Schedule `json:"sched,omitempty"`
	// Lin, when set, checks each concurrent iteration's outcome against
	// the sequential orders of the suffixes (see lin.go).
	Lin *Lin `json:"lin,omitempty"`
}

// Lin says how the outcome of a concurrent test is taken: the results
// of the suffix calls, but for those SkipResults leaves out (their
// results depend on timing: a call that may give up under contention),
// then the results of the Observers, method calls made on the shared
// objects after the suffixes returned.
type Lin struct {
	Observers   []Call  `json:"observers,omitempty"`
	SkipResults [2]bool `json:"skip_results,omitempty"`
	// Runs is how many times each sequential order is run before the
	// iterations (at least once; the second run pauses, see LinPauses).
	// An outcome that matches neither order makes them run moreRuns
	// times more before it is reported.
	Runs int `json:"runs,omitempty"`
}

// A LinResult is an outcome of a concurrent iteration that matches
// neither sequential order of its suffixes. Labels name its parts
// ("a.Inc result 0", "a.Len() result 0"); Got is the concurrent outcome
// and Seq those of the two orders (suffix 0 first, suffix 1 first), each
// part as the reproducer renders it; Compared lists the parts that were
// the same in every sequential run of an order (the others depend on
// more than the order).
type LinResult struct {
	Labels   []string    `json:"labels"`
	Got      []string    `json:"got"`
	Seq      [2][]string `json:"seq"`
	Compared []int       `json:"compared"`
	// Groups gives each part's group: 0 for the suffix calls' results, k
	// for those of observer k (1-based); each group must be the outcome
	// of one order. Failed lists the groups that are not.
	Groups []int `json:"groups"`
	Failed []int `json:"failed"`
}

// A Schedule says how the two suffix goroutines of a concurrent test are
// interleaved at the hooks.
type Schedule struct {
	Kind string `json:"kind"` // SchedTargeted, SchedPCT or SchedDelay
	// Holds are the waits of a targeted schedule: each makes one
	// goroutine wait at a hook until the other has gone past a site,
	// which forces an order of their operations.
	Holds []Hold `json:"holds,omitempty"`
	// Seed and Depth draw the PCT schedule of each iteration: random
	// priorities and Depth-1 priority change points among the hooks.
	Seed  uint64 `json:"seed,omitempty"`
	Depth int    `json:"depth,omitempty"`
	// From and Horizon resume a delay-bounded enumeration (SchedDelay)
	// that an earlier test left: From is the index of its first
	// schedule to run (0: the one without delays, which measures the
	// hook calls), Horizon the hook calls it is over (0: measure them).
	From    int `json:"from,omitempty"`
	Horizon int `json:"horizon,omitempty"`
	// Patience is how long a goroutine may be kept waiting at a hook
	// before it goes on anyway (the order could not be forced).
	Patience time.Duration `json:"patience"`
}

// Schedule kinds.
const (
	SchedTargeted = "targeted"
	SchedPCT      = "pct"
	// SchedDelay enumerates the delay-bounded schedules with up to
	// Depth (1 or 2) delays, one per iteration, and ends the test when
	// they are exhausted.
	SchedDelay = "delay"
)

// A Hold makes goroutine G (0 runs the first suffix call, 1 the second)
// wait, once per iteration, at the first hook where all its conditions
// hold, until the other goroutine meets the Until conditions, finishes,
// blocks on a lock, or Patience runs out.
type Hold struct {
	G int `json:"g"`
	// Conditions on G's hook: at site At (0: any site), once G has gone
	// past site Past (0: always), holding no lock (Free), or right after
	// an acquisition that leaves it holding Depth locks (0: any hook).
	At    int  `json:"at,omitempty"`
	Past  int  `json:"past,omitempty"`
	Free  bool `json:"free,omitempty"`
	Depth int  `json:"depth,omitempty"`
	// Until conditions on the other goroutine: it has gone past site
	// UntilSite (reached a hook after it, or finished), acquired a lock
	// (UntilLock), blocked on a lock (UntilBlocked), or is kept at a hook
	// by a hold of its own (UntilHeld). With none, G waits until the
	// other finishes or blocks.
	UntilSite    int  `json:"until_site,omitempty"`
	UntilLock    bool `json:"until_lock,omitempty"`
	UntilBlocked bool `json:"until_blocked,omitempty"`
	UntilHeld    bool `json:"until_held,omitempty"`
}

// Request operations.
const (
	OpRun = "run"
	OpSeq = "seq"
	// OpTrace runs the suffix calls one after the other after growing
	// parts of the prefix, in a package rewritten with hooks, and
	// answers with the prefix calls that change which hooks the suffix
	// calls reach (Message.Kept).
	OpTrace = "trace"
)

// A Test is the description of one concurrent test: how to build the
// shared objects, the sequential prefix, and the two suffixes.
type Test struct {
	Type string `json:"type"` // name of the type under test, as registered
	// Objects holds, for each shared object, the call that constructs it:
	// a registered constructor, or Fn == "" for the zero value, or for
	// a composite literal when its one argument is a KStruct.
	Objects []Call `json:"objects"`
	Prefix  []Call `json:"prefix,omitempty"` // method calls on the shared objects
	// Suffix holds the calls the two goroutines make (OpRun), or the
	// calls made in order (OpSeq).
	Suffix []Call `json:"suffix"`
	Iters  int    `json:"iters"` // repetitions, with fresh objects each time (OpRun)
	// Shared are values the calls share (KShared): each is built once
	// per set-up, at its first use, and that value is passed at every
	// use: the two accounts that two concurrent Transfers are given in
	// opposite orders.
	Shared []Value `json:"shared,omitempty"`
}

// A Call is a constructor call (in Test.Objects and Value.Call) or a
// method call on shared object Recv (in Test.Prefix and Test.Suffix).
type Call struct {
	Recv int     `json:"recv"`
	Fn   string  `json:"fn"`
	Args []Value `json:"args,omitempty"`
}

// A Value describes an argument. Its meaning depends on K and on the type
// of the parameter it is passed to.
type Value struct {
	K string `json:"k"`
	// Lit is the literal of a basic value (KLit): a number, a string,
	// "true"/"false", or "max" and "min" for the bounds of the kind. For
	// KReader it holds the bytes to read; for KCtx and KFunc it names a
	// variant (see the kinds).
	Lit string `json:"lit,omitempty"`
	// Basic names the basic type of a KLit value passed to an interface
	// parameter ("int", "string", ...).
	Basic string `json:"basic,omitempty"`
	Obj   int    `json:"obj,omitempty"`  // KObj: index of the shared object
	Call  *Call  `json:"call,omitempty"` // KCall: a registered constructor
	// Elems are the elements of a KSlice value; a KSlice without
	// elements is an empty, non-nil slice.
	Elems []Value `json:"elems,omitempty"`
	// Field names, for an element of a KStruct value, the field it sets.
	Field string `json:"field,omitempty"`
	// Prefix and Result name, for a KResult value, the prefix call and
	// which of its results.
	Prefix int `json:"prefix,omitempty"`
	Result int `json:"result,omitempty"`
	// Index is, for a KShared value, the index of its value in
	// Test.Shared.
	Index int `json:"index,omitempty"`
	// Type names, for a KFunc value, the function type of the package
	// it has, registered with RegisterTypeOf: an adapter such as
	// http.HandlerFunc, passed to a parameter of an interface it
	// implements (http.Handler). For a KStub value it names the stub
	// type, registered the same way.
	Type string `json:"type,omitempty"`
}

// Value kinds.
const (
	KLit = "lit" // a basic value
	KObj = "obj" // a shared object
	// KCall is the first result of a registered constructor (Call), or
	// its dynamic value when it is an interface that does not fit the
	// parameter.
	KCall = "call"
	// KResult is result Result of prefix call Prefix, made earlier in
	// the same set-up: the subscription a Subscribe returned, for an
	// Unsubscribe; the encoding a Marshal returned, for an Unmarshal.
	// The value is rebuilt with every set-up, from that set-up's call.
	KResult = "result"
	// KStruct is a struct value, or a pointer to a new one for a pointer
	// parameter, whose exported fields Elems set, each naming its field
	// (Field): a configuration with small positive sizes and intervals
	// rather than zeros.
	KStruct = "struct"
	// KCtx is a context: context.Background() for Lit "", an already
	// cancelled context for "cancelled", a context whose deadline is
	// 1ms away for "timeout", and, for CtxLeave, one cancelled once
	// one of the two concurrent calls has returned (or RequestTimeout
	// has passed).
	KCtx = "ctx"
	// KFunc is a function of the parameter's type. For Lit "" it returns
	// zero values; for "true" it returns true for bool results, 1 for
	// numeric ones and zero values for the others, so that a Range or
	// ForEach style callback goes on iterating. With Type, the function
	// has that registered type (an adapter) and is converted to the
	// parameter's interface.
	KFunc  = "func"
	KZero  = "zero"  // the zero value: nil for pointers, slices, maps, interfaces
	KNew   = "new"   // a pointer to a new zero value
	KSlice = "slice" // a slice of Elems
	KMap   = "map"   // an empty map
	KChan  = "chan"  // a channel with a buffer of one
	// KReader is a new reader of the bytes of Lit: a *strings.Reader or
	// *bufio.Reader for a parameter of that type, else a *bytes.Reader,
	// or, for an interface that also needs Close (io.ReadCloser,
	// io.ReadSeekCloser...), a *bytes.Reader with a no-op Close. Any other
	// parameter type fails.
	KReader = "reader"
	// KWriter is a new, empty writer: a *strings.Builder or
	// *bufio.Writer for a parameter of that type, else a *bytes.Buffer,
	// or, for an interface that also needs Close, Flush or Sync
	// (io.WriteCloser...), a *bytes.Buffer with no-op ones. Lit is
	// unused. Any other parameter type fails.
	KWriter = "writer"
	// KPath is a file name for a parameter that names a file: Lit
	// ("depcon-file.tmp") in a new, empty directory made for this value
	// alone, so that each object and each iteration opens a file of its
	// own (a database's file lock, taken by one object, does not block
	// the next); Lit "." names the new directory itself, for a
	// parameter naming a directory that must exist. The directories are
	// under the child's TMPDIR, in the
	// jail's scratch directory, and are removed when the request ends.
	KPath = "path"
	// KResponse is a new httptest.ResponseRecorder, for a parameter of
	// type http.ResponseWriter or *httptest.ResponseRecorder.
	KResponse = "response"
	// KRequest is a new GET request of "/", for a parameter of type
	// *http.Request, whose context ends after RequestTimeout, or once
	// one of the two concurrent calls has returned.
	KRequest = "request"
	// KFresh is a string no other value of the process has: Lit
	// followed by a number, new at each build (the name of a registry
	// that refuses duplicates, in every iteration).
	KFresh = "fresh"
	// KConn is one end of a new in-memory, synchronous, full-duplex
	// connection (net.Pipe), for a parameter a net.Conn fits
	// (io.ReadWriteCloser, net.Conn...). With Call, the other end is the
	// connection of a peer that Call builds: a constructor of the
	// package whose KPeer argument gets it (a Server for a Client's
	// connection). Without, a goroutine reads the other end and discards
	// what it reads, and never writes. Both ends are closed when the
	// iteration that built them is over.
	KConn = "conn"
	// KListener is a new TCP listener on a free port of the loopback
	// interface, for a parameter of type net.Listener, closed after
	// RequestTimeout or once one of the two concurrent calls has
	// returned (a server's Serve then returns), and when the iteration
	// that built it is over. Nothing connects to it.
	KListener = "listener"
	// KPeer is, among the arguments of a KConn value's Call, the other
	// end of that connection.
	KPeer = "peer"
	// KShared is the value Test.Shared[Index], the same at every use in
	// a set-up.
	KShared = "shared"
	// KStub is a new value of the registered stub type Type (see
	// RegisterTypeOf): a type the registration file declares to
	// implement the parameter's interface, whose methods do nothing.
	KStub = "stub"
	// KFuncRef is the registered function Lit itself, as a value of the
	// parameter's function type: the package's NewLocalWindow for a
	// newWindow func() (Window, StopFunc) parameter.
	KFuncRef = "funcref"
)

// CtxLeave is the Lit of a KCtx value cancelled once one of the two
// concurrent calls has returned, or after RequestTimeout: a Serve(ctx)
// that serves until its context ends returns then. Calls that wait for
// each other on locks are not released by it.
const CtxLeave = "leave"

// ChanLeave is the Lit of a KChan value closed once one of the two
// concurrent calls has returned, or after RequestTimeout: a Poll(quit)
// that works until its quit channel is closed returns then. Only a
// channel of empty structs, a signal, gets it.
const ChanLeave = "leave"

// A Message is one line of JSON the child writes to the driver on file
// descriptor 3: progress (EvStep, EvTick) and, last, one EvResult per
// request.
type Message struct {
	Ev string `json:"ev"`
	// Step names the sequential step being run (EvStep) or the step a
	// result is about: "object 0", "prefix 2", "suffix 1".
	Step   string `json:"step,omitempty"`
	Status string `json:"status,omitempty"` // EvResult: one of the Status constants
	Msg    string `json:"msg,omitempty"`    // panic value, error text, or explanation
	Iter   int    `json:"iter,omitempty"`   // the iteration of a concurrent failure
	// Goroutine is the suffix (0 or 1) that panicked, or -1.
	Goroutine int `json:"goroutine"`
	// Stacks are the stacks of the two suffix goroutines when the failure
	// was seen ("" for one that had returned), or the stack of the failing
	// sequential call in Stacks[0].
	Stacks [2]string `json:"stacks"`
	// Waits are the wait states of the two suffix goroutines in a hang
	// ("sync.Mutex.Lock", "chan receive", "" for a returned one).
	Waits   [2]string `json:"waits"`
	Dropped []Drop    `json:"dropped,omitempty"` // prefix calls dropped because they failed
	// Offspring holds, for a sequential call blocked other than on a lock
	// (StatusBlocked), the stacks of the goroutines it started that wait
	// for a lock: it waits for them, they wait for it.
	Offspring []string `json:"offspring,omitempty"`
	// Durations are the run times of the suffix calls (OpSeq).
	Durations []time.Duration `json:"durations,omitempty"`
	// Denied holds, for an OpSeq, the error or panic of each suffix call
	// that failed because the isolation denied it an operation (a write
	// outside its directory, a connection), "" for the others.
	Denied []string `json:"denied,omitempty"`
	// Kept lists the prefix calls an OpTrace keeps, by index; Reached
	// the hook sites each suffix call reached after them, in either
	// order of the two.
	Kept    []int    `json:"kept,omitempty"`
	Reached [2][]int `json:"reached,omitempty"`
	// Sched says how the iterations of a scheduled test went.
	Sched *SchedResult `json:"sched,omitempty"`
	// Lin is the outcome of StatusNotLinearizable; LinOff says why a
	// test that asked for the linearizability check could not make it
	// (a sequential order blocks or panics, an observer fails).
	Lin    *LinResult `json:"lin,omitempty"`
	LinOff string     `json:"lin_off,omitempty"`
	// LinVaried is set when a concurrent outcome matched a sequential
	// order only once the orders had been run more: parts of the outcome
	// vary between runs of one order (a clock, work left to goroutines),
	// which more runs before the iterations (Lin.Runs) would have shown.
	LinVaried bool `json:"lin_varied,omitempty"`
}

// A SchedResult counts, over the iterations of a scheduled test, those
// whose every hold was met (the order was forced, or happened on its
// own) and, for the others, why a hold was let go.
type SchedResult struct {
	Iters  int            `json:"iters"`
	Forced int            `json:"forced"`
	Why    map[string]int `json:"why,omitempty"`
	// Steps is the largest number of hook calls of an iteration.
	Steps int `json:"steps"`
	// Exhausted is set when the delay-bounded schedules were all run;
	// DelayBound is then the most delays of a schedule among them:
	// every schedule with that many delays or fewer was run.
	Exhausted  bool `json:"exhausted,omitempty"`
	DelayBound int  `json:"delay_bound,omitempty"`
	// Next and Horizon let a later test resume the delay-bounded
	// enumeration (Schedule.From, Schedule.Horizon): the index of its
	// first schedule not run, and the hook calls it is over.
	Next    int `json:"next,omitempty"`
	Horizon int `json:"horizon,omitempty"`
}

// Why a hold was let go before its Until conditions were met.
const (
	WhyNotReached = "not reached"          // G never met the hold's conditions
	WhyFinished   = "other finished"       // the other goroutine returned first
	WhyBlocked    = "other blocked"        // the other blocked on a lock G may hold
	WhyPatience   = "patience ran out"     // the other did not get there in time
	WhyBothHeld   = "both goroutines held" // each waited for the other
)

// StepSetup is the step of a concurrent test's later iterations while
// their objects are rebuilt and their prefix runs again.
const StepSetup = "setup"

// StepReference is the step of a concurrent test that runs the
// sequential orders of its suffixes for the linearizability oracle.
const StepReference = "reference"

// The step board: a child started with StepFDEnv set to "4" writes each
// step it begins (see Message.Step) to the file at descriptor 4, at
// offset 0, as one record of StepRecord bytes (the step, a newline, NULs),
// instead of sending it as an EvStep message. A step is announced twice
// an iteration; a write where the driver reads it only when the child
// died costs far less than a message it wakes up for.
const (
	StepFDEnv  = "DEPCON_STEP_FD"
	StepRecord = 64
)

// Message events.
const (
	EvStep   = "step"
	EvTick   = "tick"
	EvResult = "result"
)

// Result statuses.
const (
	StatusOK = "ok"
	// StatusObjectFailed: a constructor failed in the first iteration:
	// it panicked, returned a non-nil error or false as its second
	// result, or returned nil or a value of another type than the type
	// under test. StatusArgsFailed: building an argument of a suffix
	// call failed in the first iteration.
	StatusObjectFailed = "object-failed"
	StatusArgsFailed   = "args-failed"
	// StatusPanic: a suffix call panicked (Step and Goroutine say which).
	StatusPanic = "panic"
	// StatusBlocked: a sequential step is blocked in a lock or channel
	// wait (Waits[0]); StatusRunning: it is still running at HardCap.
	StatusBlocked = "blocked"
	StatusRunning = "running"
	// StatusHang: the concurrent suffixes did not all return; Waits say
	// how they wait ("" for a returned one, "running" for a busy one).
	StatusHang = "hang"
	// StatusNotLinearizable: the outcome of a concurrent iteration (Iter)
	// is that of neither sequential order of the suffixes (Lin).
	StatusNotLinearizable = "not-linearizable"
	// StatusSetupFailed: building the objects, running the prefix or
	// building the suffix arguments failed where it had succeeded before,
	// so the suffixes were not run: a constructor or the argument
	// building failed in a later iteration, or a prefix call panicked
	// in a later iteration or again after its objects were rebuilt (see
	// Drop). Step names the failing step ("object 0", "prefix 2",
	// "args"), Iter the iteration, Msg the error or panic, and Stacks[0]
	// the stack of a panic.
	StatusSetupFailed = "setup-failed"
	// StatusError: the request itself is wrong (unknown type, method...).
	StatusError = "error"
)

// A Drop records a prefix call of the first iteration that was dropped
// from the test because it failed when run sequentially. A call that
// returned an error is dropped and the objects are kept: an error return
// leaves no lock held. A call that panicked is dropped and the objects
// are discarded, since the panic may have left one locked: fresh objects
// are built and the prefix is run again without the dropped calls. A
// prefix call that panics in that second run fails the test with
// StatusSetupFailed. Later iterations run the prefix without the dropped
// calls.
type Drop struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}
