#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a seventh set of modules
# with types meant for concurrent use (a cron scheduler, an LRU cache and a
# TTL cache, loggers and log notepads, a statsd client, Redis-protocol and
# MQTT pub/sub, an MQTT client's message stores, an HTTP rate limiter store,
# a lock-free queue, a task pool, an event feed, throttles and watermarks,
# observables, a fluentd logger, a goroutine tomb, a mock clock) that depcon
# was run on in none of realworld.sh, sweep.sh, sweep2.sh, sweep3.sh,
# sweep4.sh and sweep5.sh: from a scratch module that requires pinned
# versions, by import path (the packages are in the module cache,
# read-only).
#
#   docs/sweep6.sh [OUTDIR]
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
	github.com/robfig/cron@v1.2.0
	github.com/hashicorp/golang-lru@v0.5.4
	github.com/juju/loggo@v0.0.0-20210728185423-eebad3a902c4
	github.com/go-logr/logr@v1.4.4
	github.com/go-logr/stdr@v1.2.2
	github.com/spf13/jwalterweatherman@v1.1.0
	github.com/peterbourgon/g2s@v0.0.0-20170223122336-d4e7ad98afea
	github.com/tidwall/redcon@v1.6.4
	github.com/labstack/echo/v4@v4.16.0
	github.com/eclipse/paho.mqtt.golang@v1.5.1
	github.com/mochi-mqtt/server/v2@v2.7.9
	github.com/panjf2000/gnet/v2@v2.9.7
	github.com/lesismal/nbio@v1.6.8
	github.com/juju/utils/v3@v3.0.0-20220130232349-cd7ecef0e94a
	github.com/ethereum/go-ethereum@v1.17.10
	github.com/dgraph-io/badger/v4@v4.9.6
	github.com/cilium/stream@v0.0.1
	github.com/t-k/fluent-logger-golang@v1.0.0
	gopkg.in/tomb.v1@v1.0.0-20141024135613-dd632973f1e7
	github.com/facebookgo/clock@v0.0.0-20150410010913-600d898af40a
	github.com/cskr/pubsub@v1.0.2
)
packages=(
	github.com/robfig/cron
	github.com/hashicorp/golang-lru
	github.com/juju/loggo
	github.com/go-logr/logr/funcr
	github.com/go-logr/stdr
	github.com/spf13/jwalterweatherman
	github.com/peterbourgon/g2s
	github.com/tidwall/redcon
	github.com/labstack/echo/v4/middleware
	github.com/eclipse/paho.mqtt.golang
	github.com/mochi-mqtt/server/v2
	github.com/panjf2000/gnet/v2/pkg/queue
	github.com/lesismal/nbio/taskpool
	github.com/juju/utils/v3/cache
	github.com/ethereum/go-ethereum/event
	github.com/dgraph-io/badger/v4/y
	github.com/cilium/stream
	github.com/t-k/fluent-logger-golang/fluent
	gopkg.in/tomb.v1
	github.com/facebookgo/clock
	github.com/cskr/pubsub
)
# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
