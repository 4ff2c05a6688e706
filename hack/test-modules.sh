#!/usr/bin/env bash
# Runs the tests of each module given as an argument, on its own (GOWORK=off, as a release of
# that module builds it, sharing the build cache with `make vet`), and prints at the end the time
# each module's tests took. A module named in RACE_MODULES runs with the race detector; the
# others without (their concurrency is the shared library's, which its own tests race-check).
# Every module runs even when one fails; the exit status is non-zero when any failed.
# TESTFLAGS adds flags to every `go test` (for example TESTFLAGS=-count=1 to ignore Go's cache
# of passed tests).
set -uo pipefail
cd "$(dirname "$0")/.."
race=" ${RACE_MODULES:-} "
declare -a rows
failed=0
for m in "$@"; do
  flags=()
  [[ "$race" == *" $m "* ]] && flags+=(-race)
  start=$(date +%s)
  echo "== $m: go test ${flags[*]} ${TESTFLAGS:-} ./..."
  # shellcheck disable=SC2086
  if (cd "$m" && GOWORK=off go test "${flags[@]}" ${TESTFLAGS:-} ./...); then result=ok; else result=FAIL; failed=1; fi
  secs=$(( $(date +%s) - start ))
  rows+=("$(printf '%-24s %-4s %4dm%02ds %s' "$m" "$result" $((secs / 60)) $((secs % 60)) "${flags[*]}")")
done
echo
echo "Time each module's tests took:"
printf '%s\n' "${rows[@]}"
exit $failed
