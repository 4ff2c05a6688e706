#!/usr/bin/env bash
# Builds the test control plane (kube-apiserver, etcd, kubectl) from Go modules into a cache
# outside the repository, keyed by version, and prints the directory to use as KUBEBUILDER_ASSETS.
# setup-envtest's downloads cannot be reached from our machines, so the binaries come from source.
# The build itself is shared/testenv's BuildAssets, which `infractl sandbox` uses too.
set -euo pipefail
cd "$(dirname "$0")/../shared"
exec go run ./testenv/cmd/envtest-assets
