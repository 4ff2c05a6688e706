package messaging_test

import (
	"strings"
	"testing"
	"time"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies every seed example of the messaging family, one after the
// other, with the operator's default options, after the queues they name (created through the
// SDK, outside the operator: the administrator lets namespace default write into them), and
// reports for each the AWS calls it took to create, the time from apply to Ready,
// and the AWS calls of one sync at steady state. Run it with -benchtime=1x.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, func(o *operator.Options) { o.ForeignWriteNamespaces = []string{"default"} })
	h.provider("default", "production-aws")
	for _, name := range []string{"production-dlq", "notification-queue"} {
		h.sqsQueueURL(name, nil)
	}
	h.sqsQueueURL("order-processor.fifo", map[string]string{"FifoQueue": "true"})
	for _, file := range []string{"sqsqueue-standard.yaml", "sqsqueue-fifo.yaml", "snstopic-standard.yaml", "snstopic-fifo.yaml"} {
		b.Run(file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.t = b
			h.emu.Calls.Reset()
			began := time.Now()
			u := h.seed(file, "default")[0]
			var o shared.Managed = &v1alpha1.SQSQueue{}
			if strings.HasPrefix(file, "sns") {
				o = &v1alpha1.SNSTopic{}
			}
			o.SetNamespace(u.GetNamespace())
			o.SetName(u.GetName())
			waitReady(h, o)
			elapsed := time.Since(began)
			create := calls(h)
			h.emu.Calls.Reset()
			kubetest.Resync(b, h.env.Client, o)
			waitFor(h, o, "a sync", func(shared.Managed) bool { return calls(h) > 0 })
			time.Sleep(500 * time.Millisecond)
			sync := calls(h)
			b.ReportMetric(float64(create), "create-calls")
			b.ReportMetric(elapsed.Seconds(), "s-to-ready")
			b.ReportMetric(float64(sync), "sync-calls")
			b.Logf("%s: %d AWS calls to create, Ready after %s, %d calls per steady-state sync", file, create, elapsed.Round(10*time.Millisecond), sync)
		})
	}
}

// calls returns how many SQS and SNS calls the emulator answered.
func calls(h *harness) int {
	return kubetest.Total(h.calls("SQS")) + kubetest.Total(h.calls("SNS"))
}
