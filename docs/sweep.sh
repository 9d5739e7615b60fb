#!/usr/bin/env bash
# Runs depcon test, as docs/realworld.sh does, on a second set of popular
# modules (pools, caches, rate limiters, loggers, schedulers, pub/sub,
# metrics sinks, circuit breakers, queues) that depcon was not developed
# against: from a scratch module that requires pinned versions, by import
# path (the packages are in the module cache, read-only).
#
#   docs/sweep.sh [OUTDIR]
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
	github.com/gammazero/workerpool@v1.3.0
	github.com/jolestar/go-commons-pool/v2@v2.1.2
	github.com/coocood/freecache@v1.2.7
	github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8
	github.com/muesli/cache2go@v0.0.0-20221011235721-518229cd8021
	github.com/juju/ratelimit@v1.0.2
	github.com/throttled/throttled/v2@v2.15.0
	go.uber.org/zap@v1.28.0
	github.com/sirupsen/logrus@v1.10.2
	github.com/rs/zerolog@v1.35.1
	github.com/hashicorp/go-hclog@v1.6.3
	github.com/charmbracelet/log@v1.0.0
	github.com/reugn/go-quartz@v0.15.2
	github.com/cskr/pubsub/v2@v2.0.2
	github.com/hashicorp/go-metrics@v0.7.0
	github.com/uber-go/tally/v4@v4.1.17
	go.opentelemetry.io/otel/sdk/metric@v1.47.0
	github.com/afex/hystrix-go@v0.0.0-20180502004556-fa1af6a1f4f5
	github.com/rubyist/circuitbreaker@v2.2.1+incompatible
	github.com/cenkalti/backoff/v4@v4.3.0
	github.com/Workiva/go-datastructures@v1.1.7
)
packages=(
	github.com/gammazero/workerpool
	github.com/jolestar/go-commons-pool/v2
	github.com/coocood/freecache
	github.com/golang/groupcache
	github.com/muesli/cache2go
	github.com/juju/ratelimit
	github.com/throttled/throttled/v2
	github.com/throttled/throttled/v2/store/memstore
	go.uber.org/zap
	go.uber.org/zap/zapcore
	github.com/sirupsen/logrus
	github.com/rs/zerolog
	github.com/hashicorp/go-hclog
	github.com/charmbracelet/log
	github.com/reugn/go-quartz/quartz
	github.com/cskr/pubsub/v2
	github.com/hashicorp/go-metrics
	github.com/uber-go/tally/v4
	go.opentelemetry.io/otel/sdk/metric
	github.com/afex/hystrix-go/hystrix
	github.com/rubyist/circuitbreaker
	github.com/cenkalti/backoff/v4
	github.com/Workiva/go-datastructures/queue
)

# The run itself is realworld.sh's, with these lists.
source "$(dirname "$0")/realworld.sh"
