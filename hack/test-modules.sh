#!/usr/bin/env bash
# Runs the tests of each module given as an argument, on its own (GOWORK=off, as a release of
# that module builds it, sharing the build cache with `make vet`), and prints at the end the time
# each module's tests took. A module named in RACE_MODULES runs with the race detector; the
# others without (their concurrency is the shared library's, which its own tests race-check).
# TEST_JOBS modules (default 2) run at once, started in the order given (name the longest
# first); each module's output is printed whole when it ends, so outputs never interleave.
# Every module runs even when one fails; the exit status is non-zero when any failed.
# TESTFLAGS adds flags to every `go test` (for example TESTFLAGS=-count=1 to ignore Go's cache
# of passed tests).
set -uo pipefail
cd "$(dirname "$0")/.."
race=" ${RACE_MODULES:-} "
jobs=${TEST_JOBS:-2}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# run_module runs the tests of module $1, writing its output to $logs/<n>.log and a summary row
# to $logs/<n>.row, where n is $2.
run_module() {
  local m=$1 n=$2 flags=() start result secs
  [[ "$race" == *" $m "* ]] && flags+=(-race)
  start=$(date +%s)
  {
    echo "== $m: go test ${flags[*]} ${TESTFLAGS:-} ./..."
    # shellcheck disable=SC2086
    if (cd "$m" && GOWORK=off go test "${flags[@]}" ${TESTFLAGS:-} ./...); then result=ok; else result=FAIL; fi
  } >"$logs/$n.log" 2>&1
  secs=$(( $(date +%s) - start ))
  printf '%-24s %-4s %4dm%02ds %s\n' "$m" "$result" $((secs / 60)) $((secs % 60)) "${flags[*]}" >"$logs/$n.row"
  cat "$logs/$n.log"
}

n=0
for m in "$@"; do
  while (( $(jobs -rp | wc -l) >= jobs )); do wait -n; done
  run_module "$m" "$n" &
  n=$((n + 1))
done
wait

echo
echo "Time each module's tests took:"
failed=0
for ((i = 0; i < n; i++)); do
  cat "$logs/$i.row"
  grep -q ' FAIL ' "$logs/$i.row" && failed=1
done
exit $failed
