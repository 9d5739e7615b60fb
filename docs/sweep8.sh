#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on the modules of the eighth
# fresh sweep, with types meant for concurrent use (a cron scheduler, a
# timing wheel and its delay queue, caches of several kinds (LRU, LFU, TTL,
# sharded), event emitters, a broadcast relay, worker pools, a connection
# pool, a lock-free queue, a rate limiter, a batcher, a statsd client, a
# throttler, concurrent maps, a cyclic barrier, a task scheduler, a logger)
# that depcon was run on in none of realworld.sh, sweep.sh, sweep2.sh,
# sweep3.sh, sweep4.sh, sweep5.sh, sweep6.sh and sweep7.sh: from a scratch
# module that requires pinned versions, by import path (the packages are in
# the module cache, read-only). timingwheel is pinned before its fixes for
# issues #7 and #15 (races it had), gron at its only version, which has
# issue #3 (open).
#
#   docs/sweep8.sh [OUTDIR]
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
	github.com/roylee0704/gron@v0.0.0-20160621042432-e78485adab46
	github.com/RussellLuo/timingwheel@v0.0.0-20190518031256-7b3d146a266a
	github.com/koding/cache@v0.0.0-20161222233015-e8a81b0b3f20
	github.com/chuckpreslar/emission@v0.0.0-20170206194824-a7ddd980baf9
	github.com/olebedev/emitter@v0.0.0-20190110104742-e8d1457e6aee
	github.com/kataras/go-events@v0.0.3
	github.com/teivah/broadcast@v0.1.0
	github.com/ivpusic/grpool@v1.0.0
	github.com/silenceper/pool@v1.0.0
	github.com/yireyun/go-queue@v0.0.0-20220725040158-a4dd64810e1e
	github.com/beefsack/go-rate@v0.0.0-20220214233405-116f4ca011a0
	github.com/facebookgo/muster@v0.0.0-20150708232844-fd3d7953fd52
	github.com/quipo/statsd@v0.0.0-20180118161217-3d6a5565f314
	github.com/boz/go-throttle@v0.0.0-20160922054636-fdc4eab740c1
	github.com/die-net/lrucache@v0.0.0-20220628165024-20a71bc65bf1
	github.com/wunderlist/ttlcache@v0.0.0-20180801091818-7dbceb0d5094
	github.com/lrita/cmap@v0.0.0-20231108122212-cb084a67f554
	github.com/tidwall/shardmap@v0.0.0-20190927132224-c190691bd211
	github.com/akyoto/cache@v1.0.6
	github.com/marusama/cyclicbarrier@v1.1.0
	github.com/madflojo/tasks@v1.2.0
	github.com/gookit/slog@v0.5.8
	# Dependencies of muster and shardmap that have no version the proxy
	# lists; go get needs them pinned.
	github.com/facebookgo/limitgroup@v0.0.0-20150612190941-6abd8d71ec01
	github.com/tidwall/rhh@v1.1.1
)
packages=(
	github.com/roylee0704/gron
	github.com/RussellLuo/timingwheel
	github.com/RussellLuo/timingwheel/delayqueue
	github.com/koding/cache
	github.com/chuckpreslar/emission
	github.com/olebedev/emitter
	github.com/kataras/go-events
	github.com/teivah/broadcast
	github.com/ivpusic/grpool
	github.com/silenceper/pool
	github.com/yireyun/go-queue
	github.com/beefsack/go-rate
	github.com/facebookgo/muster
	github.com/quipo/statsd
	github.com/boz/go-throttle
	github.com/die-net/lrucache
	github.com/wunderlist/ttlcache
	github.com/lrita/cmap
	github.com/tidwall/shardmap
	github.com/akyoto/cache
	github.com/marusama/cyclicbarrier
	github.com/madflojo/tasks
	github.com/gookit/slog
)
# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
