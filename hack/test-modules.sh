#!/usr/bin/env bash
# Runs the tests of each module given as an argument, on its own (GOWORK=off, as a release of
# that module builds it, sharing the build cache with `make vet`), and prints at the end the time
# each module's tests took. A module named in RACE_MODULES runs with the race detector, with
# GOGC=RACE_GOGC (default 50), which bounds the memory of its compiles; the others without
# (their concurrency is the shared library's, which its own tests race-check).
# TEST_JOBS modules (default 2) run at once, started in the order given (name the longest
# first); each module's output is printed whole when it ends, so outputs never interleave.
# Every module runs even when one fails; the exit status is non-zero when any failed.
# TEST_FIRST names packages (module/path) whose tests take longest: go test starts them before
# the module's other packages, so that the longest do not start last and run alone at the end.
# TEST_P gives a module's go test -p (how many of its packages build and run at once) as
# module=N, for example TEST_P="e2e=3"; go test's default is the number of CPUs.
# TESTFLAGS adds flags to every `go test` (for example TESTFLAGS=-count=1 to ignore Go's cache
# of passed tests).
# Test binaries are linked without DWARF and symbol tables (-ldflags='-s -w'; stack traces keep
# their names and lines), which halves each of the 60-odd links a run makes, and without
# go test's own vet pass (-vet=off): `make test` runs the full `make vet` first.
# They are written (go test -o) to $BIN_ROOT/<module>/ (default
# ~/.cache/infra-operator/test-bin/go-test), where go test finds an unchanged test binary up to
# date and runs it without linking it again, as it otherwise would on every run. Built with
# -trimpath (the Makefile's GOFLAGS), a binary does not depend on the checkout's directory, so
# every checkout of the same code shares it.
set -uo pipefail
cd "$(dirname "$0")/.."
race=" ${RACE_MODULES:-} "
jobs=${TEST_JOBS:-2}
bin_root=${BIN_ROOT:-${INFRA_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/infra-operator}/test-bin/go-test}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# test_groups prints the test packages of module $1 (TEST_FIRST's first), one line per group: go
# test -o writes each binary under its package's last path element, so two packages of one
# module that share it (emulator and emulator/cmd/emulator) go to different groups.
test_groups() {
  local m=$1 p first=() rest
  for p in ${TEST_FIRST:-}; do [[ "$p" == "$m/"* ]] && first+=("./${p#"$m/"}"); done
  # shellcheck disable=SC2016
  rest=$(cd "$m" && GOWORK=off go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' \
    "${first[@]}" ./...) || return 1
  awk -F/ 'NF && !seen[$0]++ { g = ++n[$NF]; line[g] = line[g] " " $0; if (g > groups) groups = g }
    END { for (g = 1; g <= groups; g++) print substr(line[g], 2) }' <<<"$rest"
}

# run_module runs the tests of module $1, writing its output to $logs/<n>.log and a summary row
# to $logs/<n>.row, where n is $2.
run_module() {
  local m=$1 n=$2 flags=(-vet=off "-ldflags=-s -w") mode=() env=() p start result=ok secs groups g=0 group
  [[ "$race" == *" $m "* ]] && mode=(-race) && env=("GOGC=${RACE_GOGC:-50}")
  flags+=("${mode[@]}")
  for p in ${TEST_P:-}; do [[ "$p" == "$m="* ]] && flags+=(-p "${p#"$m="}"); done
  start=$(date +%s)
  {
    if groups=$(test_groups "$m"); then
      while read -r group; do
        [[ -n "$group" ]] || continue
        g=$((g + 1))
        mkdir -p "$bin_root/$m/$g"
        echo "== $m: ${env[*]} go test ${flags[*]} -o $bin_root/$m/$g/ ${TESTFLAGS:-} $group"
        # shellcheck disable=SC2086
        (cd "$m" && env GOWORK=off "${env[@]}" go test "${flags[@]}" -o "$bin_root/$m/$g/" ${TESTFLAGS:-} $group </dev/null) ||
          result=FAIL
      done <<<"$groups"
    else
      result=FAIL
    fi
  } >"$logs/$n.log" 2>&1
  secs=$(( $(date +%s) - start ))
  printf '%-24s %-4s %4dm%02ds %s\n' "$m" "$result" $((secs / 60)) $((secs % 60)) "${mode[*]}" >"$logs/$n.row"
  cat "$logs/$n.log"
}

# prebuild_race compiles, with -race, the packages the tests of each race-checked module among
# the arguments import from outside that module (the standard library, the AWS SDK, client-go,
# and the shared library for the emulator), one module after the other, before any module's
# tests start, writing a summary row to $logs/prebuild.row. Run side by side, two modules' tests
# compiled the same packages at the same time (Go's build cache reuses a compile only once it
# is done): a cold run compiled the AWS SDK's EC2 client twice at once, 1.9 and 1.7 GB.
prebuild_race() {
  local m start pkgs result=ok secs built=()
  start=$(date +%s)
  for m in "$@"; do
    [[ "$race" == *" $m "* ]] || continue
    built+=("$m")
    # shellcheck disable=SC2016
    if ! pkgs=$(cd "$m" && GOWORK=off go list -deps -test \
      -f '{{if not (or .ForTest (and .Module .Module.Main))}}{{.ImportPath}}{{end}}' ./...) ||
      ! (cd "$m" && echo "$pkgs" | GOWORK=off GOGC="${RACE_GOGC:-50}" xargs go build -race); then
      # The module's own go test reports the same failure, with its context.
      result=FAIL
    fi
  done
  secs=$(( $(date +%s) - start ))
  : >"$logs/prebuild.row"
  if (( ${#built[@]} )); then
    printf '%-24s %-4s %4dm%02ds -race, imported by %s\n' "(imports)" "$result" \
      $((secs / 60)) $((secs % 60)) "${built[*]}" >"$logs/prebuild.row"
  fi
}

prebuild_race "$@"
n=0
for m in "$@"; do
  while (( $(jobs -rp | wc -l) >= jobs )); do wait -n; done
  run_module "$m" "$n" &
  n=$((n + 1))
done
wait

echo
echo "Time each module's tests took:"
cat "$logs/prebuild.row"
failed=0
grep -q ' FAIL ' "$logs/prebuild.row" && failed=1
for ((i = 0; i < n; i++)); do
  cat "$logs/$i.row"
  grep -q ' FAIL ' "$logs/$i.row" && failed=1
done
exit $failed
