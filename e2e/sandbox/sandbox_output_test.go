package sandbox_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sandboxLines are the lines the sandbox prints on its own, under `make sandbox`: every line of
// its output must match one. An error, a warning, a log line, a stack dump, a failed or blocked
// resource, or a resource waiting for any other reason than these does not.
var sandboxLines = []*regexp.Regexp{
	regexp.MustCompile(`^sandbox: preparing the control plane \(kube-apiserver [0-9.]+, etcd [0-9.]+; built from source and cached on first use\)$`),
	regexp.MustCompile(`^control plane: (resolving|building|built into) .+$`),
	regexp.MustCompile(`^sandbox: AWS emulator listening on http://127\.0\.0\.1:\d+$`),
	regexp.MustCompile(`^sandbox: control plane running at https://127\.0\.0\.1:\d+/ with \d+ CRDs$`),
	regexp.MustCompile(`^sandbox: emulated account seeded: default VPC vpc-[0-9a-f]+, the sandbox's VPC vpc-[0-9a-f]+, subnet groups, Lambda packages$`),
	regexp.MustCompile(`^sandbox: \d+ operator families running$`),
	regexp.MustCompile(`^sandbox: ready\. AWS endpoint for AWSProviders: http://127\.0\.0\.1:\d+$`),
	regexp.MustCompile(`^sandbox: emulator admin API: curl -H 'Authorization: Bearer [A-Z0-9]+' http://127\.0\.0\.1:\d+/_emulator/calls$`),
	regexp.MustCompile(`^sandbox: kubectl --kubeconfig \S+ get aws$`),
	regexp.MustCompile(`^sandbox: infractl status -A --kubeconfig \S+$`),
	regexp.MustCompile(`^sandbox: examples/[a-z]+/[a-z0-9-]+\.yaml: into namespace [a-z0-9-]+ \(.+\)$`),
	regexp.MustCompile(`^sandbox: examples/sandbox/providers\.yaml: AWSProvider [a-z0-9-]+: http://127\.0\.0\.1:4566 -> http://127\.0\.0\.1:\d+ \(the sandbox's emulator\)$`),
	regexp.MustCompile(`^sandbox: examples/networking/[a-z0-9-]+\.yaml: (Subnet|InternetGateway|NATGateway) [a-z0-9-]+: (vpcID vpc|subnetID subnet)-[a-z0-9-]+ -> (vpcRef|subnetRef) [a-z0-9-]+ \(.+\)$`),
	regexp.MustCompile(`^sandbox: examples/[a-z]+/[a-z0-9-]+\.yaml: [A-Za-z0-9]+ [a-z0-9-]+: (sg|subnet|vpc)-xxx -> (sg|subnet|vpc)-[0-9a-f]{17} \(.+\)$`),
	regexp.MustCompile(`^sandbox: examples/[a-z]+/[a-z0-9-]+\.yaml: [A-Za-z0-9]+ [a-z0-9-]+: arn:aws:\S+:xxx:\S+ -> arn:aws:\S+:123456789012:\S+ \(the sandbox's account\)$`),
	regexp.MustCompile(`^sandbox: applied \d+ objects; following them until each is Ready or failed$`),
	// A resource waits for its provider, a reference or AWS; an SNS topic also waits for the
	// queues it subscribes, which the sandbox creates at the same time.
	regexp.MustCompile(`^  [A-Za-z0-9]+ [a-z0-9-]+/[a-z0-9.-]+ +(Ready|Ready \(\S+\)|waiting: (not reconciled yet|(ProviderNotValidated|ReferenceNotReady|Creating|Updating|EndpointQueueNotFound): .+))$`),
	regexp.MustCompile(`^sandbox: every resource is Ready$`),
	regexp.MustCompile(`^sandbox: running; press Ctrl-C to stop$`),
	regexp.MustCompile(`^sandbox: stopping$`),
}

// unexpectedLines returns the lines of out that are neither the command make echoes nor one
// of sandboxLines.
func unexpectedLines(out, command string) []string {
	var bad []string
	for line := range strings.SplitSeq(strings.TrimRight(out, "\n"), "\n") {
		if line == command {
			continue
		}
		known := false
		for _, re := range sandboxLines {
			if re.MatchString(line) {
				known = true
				break
			}
		}
		if !known {
			bad = append(bad, line)
		}
	}
	return bad
}

// TestSandboxOutputAllowList checks that the allow-list TestSandbox holds the sandbox's output
// to lets its own progress lines through and refuses what must never reach a user.
func TestSandboxOutputAllowList(t *testing.T) {
	cases := map[string]struct {
		reason string
		line   string
		want   bool
	}{
		"Progress":       {reason: "A resource's progress is the sandbox's own.", line: "  SQSQueue default/orders-queue            Ready (production-orders.fifo)", want: true},
		"Waiting":        {reason: "A resource waiting for a reference is expected.", line: "  Subnet default/edge-a                    waiting: ReferenceNotReady: spec.vpcRef: VPC default/edge-vpc is not Ready yet", want: true},
		"Replacement":    {reason: "A replaced placeholder is announced.", line: "sandbox: examples/caching/elasticachecluster-redis.yaml: ElastiCacheCluster session-cache: sg-xxx -> sg-8001a8713d523b8e8 (the default VPC's default security group)", want: true},
		"Failed":         {reason: "A failed resource is not expected.", line: "  RDSInstance default/production-postgres  FAILED: AWSRejectedRequest: sg-xxx"},
		"Blocked":        {reason: "A resource blocked by a failed one is not expected.", line: "  LambdaFunction default/f               blocked: ReferenceFailed: spec.roleRef"},
		"RetriedError":   {reason: "A resource waiting on a retried error is not expected.", line: "  SQSQueue default/q                       waiting: AWSThrottled: slow down"},
		"NoLogger":       {reason: "controller-runtime's warning must not reach a user.", line: "[controller-runtime] log.SetLogger(...) was never called; logs will not be displayed."},
		"StackDump":      {reason: "A goroutine stack dump must not reach a user.", line: "goroutine 1 [running]:"},
		"ReconcileError": {reason: "An operator's log line must not reach a user.", line: `2026-11-26T07:00:00Z  ERROR  Reconciler error  {"controller": "sqsqueue", "error": "the object has been modified"}`},
		"MakeError":      {reason: "make's error after Ctrl-C must not reach a user.", line: "make: *** [Makefile:87: sandbox] Error 1"},
		"GoRun":          {reason: "go run's report of the signal must not reach a user.", line: "signal: interrupt"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := len(unexpectedLines(tc.line+"\n", "bin/infractl sandbox")) == 0
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n%q allowed (-want +got):\n%s", tc.reason, tc.line, diff)
			}
		})
	}
}
