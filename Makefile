# infra-operator: one entry point for every module of the workspace.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# Every Go module of the workspace; ./... does not cross module boundaries, so targets loop.
# The shared library first, the repository-wide checks (e2e) last.
MODULES := $(patsubst %/go.mod,%,$(wildcard shared/go.mod emulator/go.mod charts/go.mod operators/*/go.mod cli/go.mod e2e/go.mod))
# The modules whose tests run with the race detector: the shared library (engine, provider,
# operator: the goroutines of every family) and the emulator (a concurrent HTTP server). The
# families', the CLI's and the checks' tests drive that same code and run without it, which
# halves their build and their memory.
RACE_MODULES := shared emulator
# TEST_JOBS is how many modules' tests run at once in `make test`.
TEST_JOBS ?= 2
# TEST_FIRST are the test packages that take longest (over two minutes each on 2 cores), started
# before the other packages of their module (go test runs TEST_P of them at a time), so that none
# of them starts last and runs alone at the end.
TEST_FIRST := e2e/networking e2e/compute e2e/data e2e/edge
# TEST_P sets a module's go test -p (packages built and run at once) as module=N. The integration
# tests wait on the control plane as much as they compute, so three of them run at once where
# the machine has 16 GB of memory or more, and two otherwise. A run's peak is a compile of the
# AWS SDK's EC2 client beside other compiles (see BUILD_GOGC).
E2E_P := $(shell awk '/^MemTotal:/ { print ($$2 >= 16000000 ? 3 : 2) }' /proc/meminfo 2>/dev/null)
TEST_P ?= e2e=$(or $(E2E_P),2)
FAMILIES := $(patsubst operators/%/go.mod,%,$(wildcard operators/*/go.mod))
# BUILD_GOGC is the Go garbage collector's target for the compiles of `make vet` and of the
# race-checked tests: at 50 the largest compile of any build of the repository, the AWS SDK's
# EC2 client, needs 2.6 GB instead of 3.2 (non-race) and 2.5 GB instead of 3.0 (-race), for
# about 8 % more CPU.
BUILD_GOGC ?= 50

# Every go command make runs builds with -trimpath (added to the caller's GOFLAGS): a build then
# does not depend on the checkout's directory, so every checkout of the same code shares the
# compiled packages and the test binaries of `make test`, and `make infractl` (`make sandbox`)
# links from its build.
export GOFLAGS := $(strip $(filter-out -trimpath,$(GOFLAGS)) -trimpath)

TOOLS := $(CURDIR)/bin
CONTROLLER_GEN_VERSION := v0.23.0
CONTROLLER_GEN := $(TOOLS)/controller-gen-$(CONTROLLER_GEN_VERSION)
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(TOOLS)/staticcheck-$(STATICCHECK_VERSION)

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"; printf "Usage: make <target>\n"} \
	  /^[a-zA-Z_-]+:.*?##/ { printf "  %-18s %s\n", $$1, $$2 } \
	  /^##@/ { printf "\n%s\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Development

.PHONY: generate
generate: $(CONTROLLER_GEN) ## Generate deepcopy code, CRDs and each family's RBAC from the kubebuilder markers, then the charts.
	cd shared && GOWORK=off $(CONTROLLER_GEN) object paths=./api/... paths=./internal/testkind/...
	cd shared && GOWORK=off $(CONTROLLER_GEN) crd paths=./api/... output:crd:dir=./crds
	cd shared && GOWORK=off $(CONTROLLER_GEN) crd paths=./internal/testkind/... output:crd:dir=./internal/testkind/crds
	for f in $(FAMILIES); do \
	  if [ -d operators/$$f/api ]; then \
	    (cd operators/$$f && GOWORK=off $(CONTROLLER_GEN) object paths=./api/... && \
	     GOWORK=off $(CONTROLLER_GEN) crd paths=./api/... output:crd:dir=./crds); \
	  fi; \
	  (cd operators/$$f && $(CONTROLLER_GEN) rbac:roleName=infra-operator-$$f paths=./... \
	     paths=../../shared/provider/... paths=../../shared/engine/... output:rbac:dir=config/rbac); \
	done
	$(MAKE) --no-print-directory charts

.PHONY: charts
charts: ## Generate the family charts (from charts/internal/chartgen/skeleton, the CRDs and role.yaml) and vendor them into the umbrella.
	cd charts && go run ./cmd/chartgen -root .. -dir .

.PHONY: verify-generated
verify-generated: generate ## Fail when the generated files differ from what is committed.
	@git diff --exit-code -- '*zz_generated*' '*.yaml' charts/ || { echo "generated files are stale: run make generate"; exit 1; }

.PHONY: fmt
fmt: ## Format every Go file.
	gofmt -w $(MODULES)

.PHONY: vet
vet: ## Run go vet in every module on its own (without go.work, as a release build does), and fail on unformatted files.
	@unformatted=$$(gofmt -l $(MODULES)); [ -z "$$unformatted" ] || { echo "gofmt needed:"; echo "$$unformatted"; exit 1; }
	for m in $(MODULES); do (cd $$m && GOWORK=off GOGC=$(BUILD_GOGC) go vet ./...); done

.PHONY: lint
lint: vet $(STATICCHECK) ## go vet plus staticcheck in every module.
	for m in $(MODULES); do (cd $$m && $(STATICCHECK) ./...); done

.PHONY: new-kind
new-kind: ## Write the skeleton of a new kind of an existing family: make new-kind FAMILY=networking KIND=ElasticIP SERVICE=ec2 (docs/adding-a-kind.md).
	@if [ -z "$(FAMILY)" ] || [ -z "$(KIND)" ] || [ -z "$(SERVICE)" ]; then \
	  echo "usage: make new-kind FAMILY=<family> KIND=<Kind> SERVICE=<aws-sdk-go-v2 service, e.g. ec2>" >&2; exit 2; fi
	cd e2e && go run ./cmd/new-kind -root .. -family "$(FAMILY)" -kind "$(KIND)" -service "$(SERVICE)"

##@ Build

.PHONY: build
build: ## Build every module, and the family binaries and infractl into bin/.
	for m in $(MODULES); do (cd $$m && go build ./...); done
	for f in $(FAMILIES); do (cd operators/$$f && go build -trimpath -o $(TOOLS)/$$f-operator ./cmd/$$f-operator); done
	cd cli && go build -trimpath -o $(TOOLS)/infractl ./cmd/infractl

.PHONY: build-standalone
build-standalone: ## Build and vet every module on its own, tests included, without go.work (as a release build does).
	for m in $(MODULES); do (cd $$m && GOWORK=off go build ./... && GOWORK=off go vet ./...); done

##@ Try it

# The sandbox runs as a built binary rather than through `go run`, which on Ctrl-C reports
# "signal: interrupt" and exits 1 (make's "Error 1"); infractl exits 0 when interrupted.
INFRACTL ?= $(TOOLS)/infractl
SANDBOX_FLAGS ?= --examples examples

# Built as `make test` builds the CLI's packages (with GOFLAGS' -trimpath, without go.work), so
# that `make sandbox` after `make test` links from the build cache instead of compiling again.
.PHONY: infractl
infractl: ## Build infractl into bin/.
	cd cli && GOWORK=off go build -o $(INFRACTL) ./cmd/infractl

.PHONY: sandbox
sandbox: infractl ## Run the sandbox (control plane, AWS emulator, every family) with every family's examples; Ctrl-C stops it.
	$(INFRACTL) sandbox $(SANDBOX_FLAGS)

##@ Test

.PHONY: envtest
envtest: ## Build (once, cached under ~/.cache/infra-operator) the test control plane.
	hack/envtest-assets.sh >/dev/null

.PHONY: peers
peers: ## Install (once, cached) the third-party emulators the differential tests compare against.
	hack/peers.sh

# Each module's tests run on their own (without go.work), sharing vet's build, two modules at a
# time (TEST_JOBS), the integration tests (e2e, the longest) beside the others; Go's cache of
# passed tests applies (TESTFLAGS=-count=1 runs every test again). The time each module took is
# printed at the end.
.PHONY: test
test: vet envtest peers ## Run every module's tests against a real kube-apiserver and etcd.
	export KUBEBUILDER_ASSETS="$$(hack/envtest-assets.sh)"; \
	RACE_MODULES="$(RACE_MODULES)" RACE_GOGC="$(BUILD_GOGC)" TESTFLAGS="$(TESTFLAGS)" TEST_JOBS="$(TEST_JOBS)" TEST_FIRST="$(TEST_FIRST)" TEST_P="$(TEST_P)" \
	  hack/test-modules.sh $(filter e2e,$(MODULES)) $(filter-out e2e,$(MODULES))

.PHONY: bench
bench: envtest ## Run every module's benchmarks and print their figures.
	export KUBEBUILDER_ASSETS="$$(hack/envtest-assets.sh)"; \
	for m in $(MODULES); do (cd $$m && go test -run '^$$' -bench . -skip 'BenchmarkScale' -benchmem ./...); done

.PHONY: bench-scale
bench-scale: envtest ## Apply N S3Buckets (INFRA_SCALE, default 200,1000,5000) and N mixed objects (INFRA_SCALE_MIXED, default 1000) to the data-operator binary against a real control plane and the emulator; print time to Ready and to deleted, AWS calls and API requests per object, memory and CPU.
	export KUBEBUILDER_ASSETS="$$(hack/envtest-assets.sh)"; \
	cd e2e/data && go test -run '^$$' -bench 'BenchmarkScale' -benchtime 1x -timeout 90m .

##@ Tools

$(CONTROLLER_GEN):
	mkdir -p $(TOOLS)
	GOWORK=off GOBIN=$(TOOLS) go install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_GEN_VERSION)
	mv $(TOOLS)/controller-gen $@

$(STATICCHECK):
	mkdir -p $(TOOLS)
	GOWORK=off GOBIN=$(TOOLS) go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv $(TOOLS)/staticcheck $@
