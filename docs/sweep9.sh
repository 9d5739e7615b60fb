#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on the modules of the ninth
# fresh sweep, with types meant for concurrent use (a generic cache and its
# sharded form, a connection pool, a consistent-hashing ring, a leaky-bucket
# collector, a semaphore, striped and atomic adders, an observable property,
# a latency meter, a pub/sub publisher, an adaptive circuit breaker, a
# micro-batcher, a task scheduler and its executor, sliding-window rate
# limiters, a lock-free queue and stack) that depcon was run on in none of
# realworld.sh, sweep.sh, sweep2.sh, sweep3.sh, sweep4.sh, sweep5.sh,
# sweep6.sh, sweep7.sh and sweep8.sh: from a scratch module that requires
# pinned versions, by import path (the packages are in the module cache,
# read-only). leakybucket-go and semaphore have no tag and are pinned at
# their newest commit; lockfree is pinned at its only tag, under the path it
# had then (it later moved to golang.design/x/lockfree, whose v0.0.1 is the
# same code, and whose tests import this path).
#
#   docs/sweep9.sh [OUTDIR]
#
# BUDGET (default 20s) is the budget per type, SEED (default 1) the seed, P
# (default 1) the number of types tested at once (depcon test -p); DEPCON, if
# set, is the depcon binary to run instead of one built from this checkout.
# It needs the Go module proxy. The report of each package goes to
# OUTDIR/<n>.txt, its reproducers to OUTDIR/<n>-repro/; a summary line per
# package is printed. docs/REALWORLD.md records a run and judges each
# violation. Run it inside an isolation layer of its own: it executes
# third-party code.
modules=(
	github.com/erni27/imcache@v1.2.1
	github.com/fatih/pool@v3.0.0+incompatible
	github.com/buraksezer/consistent@v1.0.0
	github.com/kevinms/leakybucket-go@v0.0.0-20200115003610-082473db97ca
	github.com/abiosoft/semaphore@v0.0.0-20240818083615-bc6b5b10c137
	github.com/linxGnu/go-adder@v0.2.0
	github.com/imkira/go-observer@v1.0.3
	github.com/jamiealquiza/tachymeter@v2.0.0+incompatible
	github.com/moby/pubsub@v1.0.0
	github.com/go-kratos/aegis@v0.2.0
	github.com/joeycumines/go-microbatch@v0.1.1
	github.com/procyon-projects/chrono@v1.1.0
	github.com/Narasimha1997/ratelimiter@v1.1.1
	github.com/changkun/lockfree@v0.0.1
)
packages=(
	github.com/erni27/imcache
	github.com/fatih/pool
	github.com/buraksezer/consistent
	github.com/kevinms/leakybucket-go
	github.com/abiosoft/semaphore
	github.com/linxGnu/go-adder
	github.com/imkira/go-observer
	github.com/jamiealquiza/tachymeter
	github.com/moby/pubsub
	github.com/go-kratos/aegis/circuitbreaker/sre
	github.com/joeycumines/go-microbatch
	github.com/procyon-projects/chrono
	github.com/Narasimha1997/ratelimiter
	github.com/changkun/lockfree
)
# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
