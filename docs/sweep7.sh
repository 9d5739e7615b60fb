#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on an eighth set of modules
# with types meant for concurrent use (a supervisor tree, an unbounded
# channel, LRU caches, blocking queues, a disk queue, a lazy cache, a
# logger, semaphores and sized groups, event managers and emitters, statsd
# clients, task groups, message buses and pub/sub hubs, a Caffeine-like
# cache, an atomic boolean, circuit breakers, a backoff counter, session
# stores, a timed map) that depcon was run on in none of realworld.sh,
# sweep.sh, sweep2.sh, sweep3.sh, sweep4.sh, sweep5.sh and sweep6.sh: from a
# scratch module that requires pinned versions, by import path (the
# packages are in the module cache, read-only).
#
#   docs/sweep7.sh [OUTDIR]
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
	github.com/thejerf/suture/v4@v4.0.6
	github.com/smallnest/chanx@v1.2.0
	github.com/elastic/go-freelru@v0.16.0
	github.com/adrianbrad/queue@v1.3.0
	github.com/nsqio/go-diskqueue@v1.1.0
	github.com/bep/lazycache@v0.9.0
	github.com/google/logger@v1.1.2
	github.com/go-pkgz/syncs@v1.3.2
	github.com/gookit/event@v1.1.2
	github.com/smira/go-statsd@v1.3.3
	github.com/creachadair/taskgroup@v0.14.5
	github.com/vardius/message-bus@v1.1.5
	github.com/leandro-lugaresi/hub@v1.1.1
	github.com/goburrow/cache@v0.1.4
	github.com/tevino/abool@v1.2.0
	github.com/slok/goresilience@v0.2.0
	github.com/jpillora/backoff@v1.0.0
	github.com/gorilla/sessions@v1.4.0
	github.com/juju/pubsub/v2@v2.0.0
	gopkg.in/alexcesaro/statsd.v2@v2.0.0
	github.com/zekroTJA/timedmap@v1.5.2
	github.com/cep21/circuit/v3@v3.2.2
	github.com/kelindar/event@v1.5.2
)
packages=(
	github.com/thejerf/suture/v4
	github.com/smallnest/chanx
	github.com/elastic/go-freelru
	github.com/adrianbrad/queue
	github.com/nsqio/go-diskqueue
	github.com/bep/lazycache
	github.com/google/logger
	github.com/go-pkgz/syncs
	github.com/gookit/event
	github.com/smira/go-statsd
	github.com/creachadair/taskgroup
	github.com/vardius/message-bus
	github.com/leandro-lugaresi/hub
	github.com/goburrow/cache
	github.com/tevino/abool
	github.com/slok/goresilience/circuitbreaker
	github.com/jpillora/backoff
	github.com/gorilla/sessions
	github.com/juju/pubsub/v2
	gopkg.in/alexcesaro/statsd.v2
	github.com/zekroTJA/timedmap
	github.com/cep21/circuit/v3
	github.com/kelindar/event
)
# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
