#!/usr/bin/env bash
# Measures go vet std with and without depcon as the vet tool, each from an
# empty build cache, one after the other. Usage: docs/vet-std.sh [DEPCON]
# (default: the depcon built from this checkout). Needs /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
depcon=${1:-$tmp/depcon}
[ -n "${1:-}" ] || go build -o "$depcon" ./cmd/depcon
run() {
	local name=$1
	shift
	echo "== $name: $*"
	GOCACHE=$tmp/cache-$name /usr/bin/time -v "$@" >"$tmp/$name.out" 2>&1 || true
	grep -E "Elapsed|Maximum resident" "$tmp/$name.out"
	grep -vE '^\s|^#|Command (being|exited)' "$tmp/$name.out" | grep -v ': 	' || true
}
run plain go vet std
run depcon go vet -vettool="$depcon" std
