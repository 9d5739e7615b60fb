#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a third set of modules
# with types meant for concurrent use (loggers and rotating writers, pools
# and connection managers, caches and key stores, batch loaders, queues,
# tracing sinks, progress renderers, backoffs, event dispatch) that depcon
# was run on neither in realworld.sh nor in sweep.sh: from a scratch module
# that requires pinned versions, by import path (the packages are in the
# module cache, read-only).
#
#   docs/sweep2.sh [OUTDIR]
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
	gopkg.in/natefinch/lumberjack.v2@v2.2.1
	github.com/DeRuina/timberjack@v1.4.10
	github.com/lmittmann/tint@v1.2.1
	github.com/ian-kent/go-log@v0.0.0-20160113211217-5731446c36ab
	github.com/gomodule/redigo@v1.9.3
	github.com/hashicorp/yamux@v0.1.2
	github.com/fsnotify/fsnotify@v1.10.1
	github.com/gofrs/flock@v0.13.2
	github.com/alexedwards/scs/v2@v2.9.0
	github.com/MicahParks/jwkset@v0.11.4
	github.com/alicebob/miniredis/v2@v2.40.0
	github.com/vikstrous/dataloadgen@v0.0.10
	github.com/eclipse/paho.golang@v0.23.0
	go.opentelemetry.io/otel/sdk@v1.47.0
	github.com/schollz/progressbar/v3@v3.19.1
	github.com/vbauerster/mpb/v8@v8.16.2
	github.com/sethvargo/go-retry@v0.5.0
	github.com/tidwall/btree@v1.8.2
	github.com/pion/transport/v5@v5.1.5
	github.com/acaloiaro/neoq@v0.72.2
	github.com/open-feature/go-sdk@v1.20.0
	github.com/cristalhq/hedgedhttp@v0.9.2
	github.com/samber/do/v2@v2.0.0
)
packages=(
	gopkg.in/natefinch/lumberjack.v2
	github.com/DeRuina/timberjack
	github.com/lmittmann/tint
	github.com/ian-kent/go-log/logger
	github.com/ian-kent/go-log/appenders
	github.com/gomodule/redigo/redis
	github.com/hashicorp/yamux
	github.com/fsnotify/fsnotify
	github.com/gofrs/flock
	github.com/alexedwards/scs/v2/memstore
	github.com/MicahParks/jwkset
	github.com/alicebob/miniredis/v2
	github.com/vikstrous/dataloadgen
	github.com/eclipse/paho.golang/autopaho/queue/memory
	go.opentelemetry.io/otel/sdk/trace
	github.com/schollz/progressbar/v3
	github.com/vbauerster/mpb/v8
	github.com/sethvargo/go-retry
	github.com/tidwall/btree
	github.com/pion/transport/v5/packetio
	github.com/acaloiaro/neoq/backends/memory
	github.com/open-feature/go-sdk/openfeature
	github.com/cristalhq/hedgedhttp
	github.com/samber/do/v2
)

# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
