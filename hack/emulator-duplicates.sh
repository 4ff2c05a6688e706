#!/usr/bin/env bash
# Counts the repeated pairs `duplicates` finds in the emulator's non-test Go code (issue 28's
# measure of the emulator core): copies the tracked and untracked non-test .go files of emulator/
# into a scratch folder and runs `duplicates` there. Extra arguments go to `duplicates`
# (for example --most 40 to list the largest pairs).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "emulator-duplicates: the duplicates command is not installed" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files --cached --others --exclude-standard emulator | grep '\.go$' | grep -v '_test\.go$' |
  while read -r f; do [ -f "$f" ] && mkdir -p "$scratch/$(dirname "$f")" && cp "$f" "$scratch/$f"; done
cd "$scratch" && duplicates --seconds 180 "$@"
