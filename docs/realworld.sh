#!/usr/bin/env bash
# Runs depcon test on popular modules with types meant for concurrent use,
# as a user would: from a scratch module that requires pinned versions, by
# import path (the packages are in the module cache, read-only).
#
#   docs/realworld.sh [OUTDIR]
#
# BUDGET (default 20s) is the budget per type, SEED (default 1) the seed, P
# (default 1) the number of types tested at once (depcon test -p); DEPCON, if
# set, is the depcon binary to run instead of one built from this checkout.
# It needs the Go module proxy. The report of each package goes to
# OUTDIR/<n>.txt, its reproducers to OUTDIR/<n>-repro/; a summary line per
# package is printed. docs/REALWORLD.md records a run and judges each
# violation. The test suite runs this script when DEPCON_REALWORLD=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d)}
budget=${BUDGET:-20s}
seed=${SEED:-1}
mkdir -p "$out"
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# A caller that sources this script (docs/sweep.sh) may set its own
# modules and packages.
if [ -z "${modules+x}" ]; then
modules=(
	github.com/hashicorp/golang-lru/v2@v2.0.7
	github.com/patrickmn/go-cache@v2.1.0+incompatible
	github.com/orcaman/concurrent-map/v2@v2.0.1
	github.com/deckarep/golang-set/v2@v2.8.0
	github.com/bluele/gcache@v0.0.2
	github.com/allegro/bigcache/v3@v3.1.0
	golang.org/x/time@v0.16.0
	golang.org/x/sync@v0.24.0
	github.com/jellydator/ttlcache/v3@v3.4.1
	github.com/rcrowley/go-metrics@v0.0.0-20250401214520-65e299d6c5c9
	github.com/panjf2000/ants/v2@v2.12.1
	github.com/alitto/pond/v2@v2.7.1
	github.com/sourcegraph/conc@v0.3.0
	github.com/jackc/puddle/v2@v2.2.3
	github.com/sony/gobreaker/v2@v2.4.0
	github.com/eapache/go-resiliency@v1.7.0
	github.com/ThreeDotsLabs/watermill@v1.5.1
	github.com/asaskevich/EventBus@v0.0.0-20200907212545-49d423059eef
	github.com/VictoriaMetrics/metrics@v1.45.0
	github.com/prometheus/client_golang@v1.25.0
	go.etcd.io/bbolt@v1.5.0
	github.com/tidwall/buntdb@v1.3.0
	github.com/syndtr/goleveldb@v1.0.0
	github.com/hashicorp/go-memdb@v1.3.5
	github.com/looplab/fsm@v1.0.3
	github.com/qmuntal/stateless@v1.7.2
	github.com/robfig/cron/v3@v3.0.1
	github.com/go-co-op/gocron/v2@v2.21.2
	github.com/benbjohnson/clock@v1.3.5
	github.com/jonboulle/clockwork@v0.5.0
	go.uber.org/ratelimit@v0.3.1
	github.com/go-chi/httprate@v0.16.1
	github.com/dgraph-io/ristretto/v2@v2.4.2
	github.com/maypok86/otter/v2@v2.4.0
	github.com/VictoriaMetrics/fastcache@v1.13.2
	github.com/puzpuzpuz/xsync/v4@v4.5.0
)
packages=(
	github.com/hashicorp/golang-lru/v2
	github.com/hashicorp/golang-lru/v2/expirable
	github.com/patrickmn/go-cache
	github.com/orcaman/concurrent-map/v2
	github.com/deckarep/golang-set/v2
	github.com/bluele/gcache
	github.com/allegro/bigcache/v3
	golang.org/x/time/rate
	golang.org/x/sync/singleflight
	golang.org/x/sync/semaphore
	golang.org/x/sync/errgroup
	github.com/jellydator/ttlcache/v3
	github.com/rcrowley/go-metrics
	github.com/panjf2000/ants/v2
	github.com/alitto/pond/v2
	github.com/sourcegraph/conc/pool
	github.com/jackc/puddle/v2
	github.com/sony/gobreaker/v2
	github.com/eapache/go-resiliency/breaker
	github.com/ThreeDotsLabs/watermill/pubsub/gochannel
	github.com/asaskevich/EventBus
	github.com/VictoriaMetrics/metrics
	github.com/prometheus/client_golang/prometheus
	go.etcd.io/bbolt
	github.com/tidwall/buntdb
	github.com/syndtr/goleveldb/leveldb
	github.com/syndtr/goleveldb/leveldb/memdb
	github.com/hashicorp/go-memdb
	github.com/looplab/fsm
	github.com/qmuntal/stateless
	github.com/robfig/cron/v3
	github.com/go-co-op/gocron/v2
	github.com/benbjohnson/clock
	github.com/jonboulle/clockwork
	go.uber.org/ratelimit
	github.com/go-chi/httprate
	github.com/dgraph-io/ristretto/v2
	github.com/maypok86/otter/v2
	github.com/VictoriaMetrics/fastcache
	github.com/puzpuzpuz/xsync/v4
)
fi

if [ -n "${DEPCON:-}" ]; then
	cp "$DEPCON" "$work/depcon"
else
	go build -o "$work/depcon" "$root/cmd/depcon"
fi
mkdir "$work/scratch"
cd "$work/scratch"
go mod init example.com/scratch >/dev/null 2>&1
go get "${modules[@]}" >/dev/null 2>&1
# Every package must be importable from the scratch module.
{
	echo "package scratch"
	echo
	echo "import ("
	for p in "${packages[@]}"; do echo "	_ \"$p\""; done
	echo ")"
} >scratch.go
go mod tidy >/dev/null 2>&1

echo "depcon test -budget $budget -seed $seed, ${DEPCON:-built at $(git -C "$root" rev-parse --short HEAD)}, $(go version)"
i=0
for p in "${packages[@]}"; do
	i=$((i + 1))
	name=$(printf '%02d-%s' "$i" "$(echo "$p" | tr '/.' '__')")
	start=$(date +%s)
	set +e
	"$work/depcon" test -p "${P:-1}" -budget "$budget" -seed "$seed" -o "$out/$name-repro" "$p" >"$out/$name.txt" 2>"$out/$name.stderr"
	code=$?
	set -e
	types=$(grep -v '^isolation:' "$out/$name.txt" | grep -c '^[^ ].*: ' || true)
	viol=$(grep -cE '^  (RACE|PANIC|DEADLOCK|FATAL|SELF-DEADLOCK|NOT-LINEARIZABLE):' "$out/$name.txt" || true)
	unconf=$(grep -c 'UNCONFIRMED' "$out/$name.txt" || true)
	printf '%-45s exit %d  types %2d  violations %d (unconfirmed %d)  %ds\n' "$p" "$code" "$types" "$viol" "$unconf" $(($(date +%s) - start))
done
echo "reports in $out"
