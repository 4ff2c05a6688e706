# syntax=docker/dockerfile:1
# The image of one family's operator (ghcr.io/runner-codes/infra-operator-<family>), the family
# chosen by the FAMILY build arg: caching, compute, containers, data, edge, messaging,
# networking or security. Build it from the repository's root:
#   docker build --build-arg FAMILY=edge -t ghcr.io/runner-codes/infra-operator-edge:0.1.0 .
# The go build below is a release build of the family's module alone (GOWORK=off: it reaches
# shared/ through its replace directive and requires no other family), as `make vet` and
# `make test` check every module, plus CGO_ENABLED=0 for a static binary.
FROM --platform=$BUILDPLATFORM golang:1.26 AS builder
ARG FAMILY
ARG TARGETOS
ARG TARGETARCH
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    test -d "operators/${FAMILY}/cmd/${FAMILY}-operator" || \
      { echo "FAMILY must name a family of operators/ (--build-arg FAMILY=edge), not '${FAMILY}'" >&2; exit 1; } && \
    cd "operators/${FAMILY}" && \
    GOWORK=off CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -o /out/operator "./cmd/${FAMILY}-operator"

# Distroless, non-root (65532), nothing but the binary; the chart runs it with a read-only
# root filesystem and passes only arguments, so the binary has one path whatever the family.
FROM gcr.io/distroless/static:nonroot
ARG FAMILY
LABEL org.opencontainers.image.source="https://github.com/runner-codes/infra-operator" \
      org.opencontainers.image.title="infra-operator-${FAMILY}"
COPY --from=builder /out/operator /operator
USER 65532:65532
ENTRYPOINT ["/operator"]
