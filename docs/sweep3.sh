#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a fourth set of modules
# with types meant for concurrent use (a stream multiplexer, caches, rate
# limiter stores, a semaphore, a worker pool, queues and a ring buffer,
# concurrent maps, a debouncer, batch loaders and singleflight, loggers and
# a rotating log sink, a job scheduler, statsd metrics clients, an ID
# generator, a circuit breaker, an event bus and a server-sent-events
# broker) that depcon was run on in none of realworld.sh, sweep.sh and
# sweep2.sh: from a scratch module that requires pinned versions, by import
# path (the packages are in the module cache, read-only).
#
#   docs/sweep3.sh [OUTDIR]
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
	github.com/xtaci/smux@v1.5.58
	github.com/karlseguin/ccache/v3@v3.0.5
	github.com/Code-Hex/go-generics-cache@v1.5.1
	github.com/go-pkgz/expirable-cache/v3@v3.0.0
	github.com/ulule/limiter/v3@v3.11.2
	github.com/sethvargo/go-limiter@v0.7.1
	github.com/marusama/semaphore/v2@v2.5.0
	github.com/Jeffail/tunny@v0.1.4
	github.com/enriquebris/goconcurrentqueue@v0.7.0
	github.com/smallnest/ringbuffer@v0.2.1
	github.com/alphadose/haxmap@v1.4.0
	github.com/cornelk/hashmap@v1.0.8
	github.com/bep/debounce@v1.2.1
	github.com/graph-gophers/dataloader/v7@v7.1.0
	resenje.org/singleflight@v0.4.3
	github.com/apex/log@v1.9.0
	github.com/go-kit/log@v0.2.1
	github.com/lestrrat-go/file-rotatelogs@v2.4.0+incompatible
	github.com/jasonlvhit/gocron@v0.0.1
	github.com/DataDog/datadog-go/v5@v5.9.1
	github.com/cactus/go-statsd-client/v5@v5.1.0
	github.com/sony/sonyflake@v1.2.0
	github.com/mercari/go-circuitbreaker@v0.0.2
	github.com/mustafaturan/bus/v3@v3.0.3
	github.com/r3labs/sse/v2@v2.10.0
)
packages=(
	github.com/xtaci/smux
	github.com/karlseguin/ccache/v3
	github.com/Code-Hex/go-generics-cache
	github.com/go-pkgz/expirable-cache/v3
	github.com/ulule/limiter/v3/drivers/store/memory
	github.com/sethvargo/go-limiter/memorystore
	github.com/marusama/semaphore/v2
	github.com/Jeffail/tunny
	github.com/enriquebris/goconcurrentqueue
	github.com/smallnest/ringbuffer
	github.com/alphadose/haxmap
	github.com/cornelk/hashmap
	github.com/bep/debounce
	github.com/graph-gophers/dataloader/v7
	resenje.org/singleflight
	github.com/apex/log
	github.com/apex/log/handlers/memory
	github.com/go-kit/log
	github.com/lestrrat-go/file-rotatelogs
	github.com/jasonlvhit/gocron
	github.com/DataDog/datadog-go/v5/statsd
	github.com/cactus/go-statsd-client/v5/statsd
	github.com/sony/sonyflake
	github.com/mercari/go-circuitbreaker
	github.com/mustafaturan/bus/v3
	github.com/r3labs/sse/v2
)

# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
