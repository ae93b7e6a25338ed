#!/bin/sh
# Golden numbers (tools/golden): every policy on the small fixed cases gives
# exactly the numbers kept in tests/golden/; and the comparison catches a
# run that differs in its counters (swap-zram at another vm.swappiness),
# naming the counters, so this test fails when the model moves them.
set -u
src=$1 mmemu=$2
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

"$src/tools/golden" --mmemu "$mmemu" || exit 1

"$src/tools/golden" --mmemu "$mmemu" --only swap-zram --extra=--set --extra=vm.swappiness=200 >"$out" 2>&1
rc=$?
if [ $rc -ne 1 ]; then
	echo "golden: a run at vm.swappiness=200 gave exit $rc, not 1 (differs)"; cat "$out"; exit 1
fi
grep -q '^  swap-zram classic vmstat\.pswpout: golden [0-9]*, now [0-9]*$' "$out" || {
	echo "golden: the changed run's pswpout is not named first among what differs"; cat "$out"; exit 1; }
echo "golden: the changed run differs, as it must:"; head -3 "$out"
