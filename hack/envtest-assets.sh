#!/usr/bin/env bash
# Builds the test control plane (kube-apiserver, etcd, kubectl) from Go modules into a cache
# outside the repository, keyed by version, and prints the directory to use as KUBEBUILDER_ASSETS.
# setup-envtest's downloads cannot be reached from our machines, so the binaries come from source.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.37.1}"
ETCD_VERSION="${ETCD_VERSION:-3.7.0}"
CACHE_ROOT="${INFRA_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/infra-operator}"
DEST="$CACHE_ROOT/envtest/k8s-${K8S_VERSION}-etcd-${ETCD_VERSION}"

if [ -x "$DEST/kube-apiserver" ] && [ -x "$DEST/etcd" ] && [ -x "$DEST/kubectl" ]; then
  echo "$DEST"
  exit 0
fi

log() { echo "envtest-assets: $*" >&2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$DEST.partial"

# kube-apiserver and kubectl: k8s.io/kubernetes with every staging module pinned to v0.<minor>.<patch>.
staging="api apiextensions-apiserver apimachinery apiserver cli-runtime client-go cloud-provider cluster-bootstrap code-generator component-base component-helpers controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission sample-apiserver sample-cli-plugin sample-controller"
staging_version="v0.${K8S_VERSION#*.}"
mkdir -p "$work/k8s"
cd "$work/k8s"
{
  echo "module envtestassets/k8s"
  echo
  echo "go 1.26"
  echo
  echo "require k8s.io/kubernetes v${K8S_VERSION}"
  echo
  for m in $staging; do echo "replace k8s.io/$m => k8s.io/$m $staging_version"; done
} > go.mod
cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
log "resolving k8s.io/kubernetes v${K8S_VERSION} (first run downloads modules)"
GOFLAGS=-mod=mod go mod tidy -e >&2 2>"$work/tidy.log" || { cat "$work/tidy.log" >&2; exit 1; }
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=v${K8S_VERSION} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$(echo "$K8S_VERSION" | cut -d. -f2)"
log "building kube-apiserver (a cold build takes several minutes on 2 cores)"
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$DEST.partial/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
log "building kubectl"
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$DEST.partial/kubectl" k8s.io/kubernetes/cmd/kubectl

# etcd: a tiny main calling etcdmain.Main.
mkdir -p "$work/etcd"
cd "$work/etcd"
cat > go.mod <<GOMOD
module envtestassets/etcd

go 1.26

require go.etcd.io/etcd/server/v3 v${ETCD_VERSION}
GOMOD
cat > main.go <<'GO'
// Command etcd runs the etcd server for the test control plane.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
log "resolving etcd v${ETCD_VERSION}"
GOFLAGS=-mod=mod go mod tidy >&2
log "building etcd"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$DEST.partial/etcd" .

rm -rf "$DEST"
mv "$DEST.partial" "$DEST"
log "done: $DEST"
echo "$DEST"
