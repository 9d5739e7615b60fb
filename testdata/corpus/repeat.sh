#!/bin/sh
# repeat.sh measures how many plain repetitions each hard subject needs
# before its bug shows: fresh object, the same short prefix, the two
# methods of the pair in two goroutines released together by a channel
# barrier, repeated until the bug shows (at most 200,000 runs per trial).
# It runs every hard subject's TestRepeat under the race detector and
# prints one table row per subject.
#
# Usage, from the module root: testdata/corpus/repeat.sh [subject...]
# DEPCON_TRIALS sets the number of trials per subject (default 5).
set -u
cd "$(dirname "$0")/../.." || exit 1
subjects=${*:-$(sed -n 's/.*"name": "\([a-z0-9]*\)".*"hard": true.*/\1/p' testdata/corpus/truth.json)}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain -- testdata/corpus 2>/dev/null)" ]; then
	commit="$commit+dirty"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf '| subject | kind | mean runs to expose | trials exposed | commit |\n'
printf '| --- | --- | --- | --- | --- |\n'
for s in $subjects; do
	DEPCON_HARD=1 go test -race -count=1 -run '^TestRepeat$' -v "./testdata/corpus/$s/" >"$out" 2>&1
	row=$(grep '^REPEAT' "$out")
	if [ -z "$row" ]; then
		printf '| %s | ? | (no result, see below) | | %s |\n' "$s" "$commit"
		sed 's/^/    /' "$out" >&2
		continue
	fi
	echo "$row" | awk -F '\t' -v c="$commit" '{printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, c}'
done
