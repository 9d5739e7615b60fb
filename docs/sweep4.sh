#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a fifth set of modules
# with types meant for concurrent use (a connection matcher and a stream
# multiplexer, caches, rate limiters, circuit breakers, loggers, worker
# pools, a job scheduler, a broadcaster, batching channels, a metrics
# registry, a lock-free skip map, a disk-backed key-value store and a
# buffer pool) that depcon was run on in none of realworld.sh, sweep.sh,
# sweep2.sh and sweep3.sh: from a scratch module that requires pinned
# versions, by import path (the packages are in the module cache,
# read-only).
#
#   docs/sweep4.sh [OUTDIR]
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
	github.com/soheilhy/cmux@v0.1.5
	github.com/libp2p/go-yamux/v5@v5.1.0
	github.com/Yiling-J/theine-go@v0.6.3
	github.com/viccon/sturdyc@v1.1.5
	github.com/hashicorp/golang-lru/arc/v2@v2.0.7
	github.com/vmihailenco/go-tinylfu@v0.2.2
	github.com/didip/tollbooth/v7@v7.0.2
	github.com/RussellLuo/slidingwindow@v0.0.0-20200528002341-535bb99d338b
	github.com/failsafe-go/failsafe-go@v0.9.8
	github.com/streadway/handy@v0.0.0-20200128134331-0f66f006fb2e
	github.com/inconshreveable/log15@v2.16.0+incompatible
	github.com/kataras/golog@v0.1.11
	github.com/op/go-logging@v0.0.0-20160315200505-970db520ece7
	github.com/alitto/pond@v1.9.2
	github.com/go-pkgz/pool@v0.9.0
	github.com/go-co-op/gocron@v1.37.0
	github.com/dustin/go-broadcast@v0.0.0-20171205050544-f664265f5a66
	github.com/eapache/channels@v1.1.0
	github.com/go-kit/kit@v0.13.0
	github.com/bytedance/gopkg@v0.1.4
	github.com/peterbourgon/diskv/v3@v3.0.1
	github.com/valyala/bytebufferpool@v1.0.0
	# Not tested: go-kit/kit requires a genproto that, beside the newer
	# googleapis/rpc module, makes an import ambiguous for go mod tidy.
	google.golang.org/genproto@v0.0.0-20240814211410-ddb44dafa142
)
packages=(
	github.com/soheilhy/cmux
	github.com/libp2p/go-yamux/v5
	github.com/Yiling-J/theine-go
	github.com/viccon/sturdyc
	github.com/hashicorp/golang-lru/arc/v2
	github.com/vmihailenco/go-tinylfu
	github.com/didip/tollbooth/v7/limiter
	github.com/RussellLuo/slidingwindow
	github.com/failsafe-go/failsafe-go/circuitbreaker
	github.com/failsafe-go/failsafe-go/ratelimiter
	github.com/streadway/handy/breaker
	github.com/inconshreveable/log15
	github.com/kataras/golog
	github.com/op/go-logging
	github.com/alitto/pond
	github.com/go-pkgz/pool
	github.com/go-co-op/gocron
	github.com/dustin/go-broadcast
	github.com/eapache/channels
	github.com/go-kit/kit/metrics/generic
	github.com/bytedance/gopkg/util/gopool
	github.com/bytedance/gopkg/collection/skipmap
	github.com/peterbourgon/diskv/v3
	github.com/valyala/bytebufferpool
)

# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
