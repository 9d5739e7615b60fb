#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a sixth set of modules
# with types meant for concurrent use (ID generators, buffer pools, a
# progress bar and a spinner, a logger, a rate counter, an LRU cache and a
# TTL cache, an HTTP cache store, deadlock-detecting mutexes, a test mock
# and a mock tracer, an error-reporting hub, an in-memory filesystem, a
# refreshing resource cache, a disk-backed queue, a test clock, atomic
# values) that depcon was run on in none of realworld.sh, sweep.sh,
# sweep2.sh, sweep3.sh and sweep4.sh: from a scratch module that requires
# pinned versions, by import path (the packages are in the module cache,
# read-only).
#
#   docs/sweep5.sh [OUTDIR]
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
	github.com/bwmarrin/snowflake@v0.3.0
	github.com/oklog/ulid/v2@v2.1.2
	github.com/gofrs/uuid/v5@v5.5.1
	github.com/libp2p/go-buffer-pool@v0.1.0
	github.com/oxtoacart/bpool@v0.0.0-20190530202638-03653db5a59c
	github.com/cheggaaa/pb/v3@v3.3.0
	github.com/briandowns/spinner@v1.23.2
	github.com/phuslu/log@v1.0.121
	github.com/paulbellamy/ratecounter@v0.2.0
	github.com/tidwall/tinylru@v1.2.1
	github.com/sasha-s/go-deadlock@v0.3.9
	github.com/stretchr/testify@v1.12.1
	github.com/getsentry/sentry-go@v0.50.0
	github.com/spf13/afero@v1.15.0
	github.com/lestrrat-go/httprc/v3@v3.0.6
	github.com/opentracing/opentracing-go@v1.2.0
	github.com/ReneKroon/ttlcache/v2@v2.11.0
	github.com/gregjones/httpcache@v0.0.0-20190611155906-901d90724c79
	github.com/joncrlsn/dque@v0.0.0-20211108142734-c2ef48c5192a
	github.com/juju/clock@v1.1.1
	go.uber.org/atomic@v1.12.0
)
packages=(
	github.com/bwmarrin/snowflake
	github.com/oklog/ulid/v2
	github.com/gofrs/uuid/v5
	github.com/libp2p/go-buffer-pool
	github.com/oxtoacart/bpool
	github.com/cheggaaa/pb/v3
	github.com/briandowns/spinner
	github.com/phuslu/log
	github.com/paulbellamy/ratecounter
	github.com/tidwall/tinylru
	github.com/sasha-s/go-deadlock
	github.com/stretchr/testify/mock
	github.com/getsentry/sentry-go
	github.com/spf13/afero
	github.com/lestrrat-go/httprc/v3
	github.com/opentracing/opentracing-go/mocktracer
	github.com/ReneKroon/ttlcache/v2
	github.com/gregjones/httpcache
	github.com/joncrlsn/dque
	github.com/juju/clock/testclock
	go.uber.org/atomic
)

# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
