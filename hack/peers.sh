#!/usr/bin/env bash
# Installs the third-party emulators the differential tests compare against, into the cache
# outside the repository: fauxqs (SQS, SNS) and dynalite (DynamoDB) from npm, versitygw (S3)
# from the Go module proxy. Each is skipped when already installed at its pinned version.
set -euo pipefail

FAUXQS=1.9.2
DYNALITE=4.0.0
VERSITYGW=v1.8.0
CACHE_ROOT="${INFRA_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/infra-operator}"
DEST="$CACHE_ROOT/peers"
mkdir -p "$DEST"
log() { echo "peers: $*" >&2; }

installed() { # name version
  [ -f "$DEST/node_modules/$1/package.json" ] && grep -q "\"version\": \"$2\"" "$DEST/node_modules/$1/package.json"
}
if installed fauxqs "$FAUXQS" && installed dynalite "$DYNALITE"; then
  log "fauxqs $FAUXQS and dynalite $DYNALITE already installed"
elif command -v npm >/dev/null; then
  log "installing fauxqs $FAUXQS and dynalite $DYNALITE with npm"
  npm install --prefix "$DEST" --no-audit --no-fund --loglevel=error "fauxqs@$FAUXQS" "dynalite@$DYNALITE" >&2
else
  log "npm is not installed: the SQS, SNS and DynamoDB differential tests will not run"
fi

if [ -x "$DEST/bin/versitygw-$VERSITYGW" ]; then
  log "versitygw $VERSITYGW already installed"
else
  log "building versitygw $VERSITYGW (a few minutes cold)"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  GOWORK=off GOBIN="$tmp" go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW" >&2
  mkdir -p "$DEST/bin"
  mv "$tmp/versitygw" "$DEST/bin/versitygw-$VERSITYGW"
fi
