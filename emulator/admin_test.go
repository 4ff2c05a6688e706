package emulator_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestAdminEndpoints sets a fault over HTTP, sees it applied to SDK calls, and reads the call
// counts and the state back over HTTP.
func TestAdminEndpoints(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	put, _ := http.NewRequest(http.MethodPut, url+"/_emulator/faults", strings.NewReader(`{"SQS.CreateQueue":{"throttleRate":1,"latency":"1ms"}}`))
	resp, err := http.DefaultClient.Do(put)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("PUT faults: %v, %v", resp, err)
	}
	resp.Body.Close()
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("q")}); errorCode(err) != "RequestThrottled" {
		t.Errorf("with the fault set, CreateQueue gave %v, want RequestThrottled", err)
	}
	put, _ = http.NewRequest(http.MethodPut, url+"/_emulator/faults", strings.NewReader(`{}`))
	if resp, err = http.DefaultClient.Do(put); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("q")}); err != nil {
		t.Errorf("with the faults cleared: %v", err)
	}
	var calls map[string]map[string]map[string]int
	getJSON(t, url+"/_emulator/calls", &calls)
	want := map[string]int{"RequestThrottled": 1, "success": 1}
	if diff := cmp.Diff(want, calls["SQS"]["CreateQueue"]); diff != "" {
		t.Errorf("call counts\n-want +got:\n%s", diff)
	}
	var state map[string]map[string]map[string]string
	getJSON(t, url+"/_emulator/state", &state)
	if state["SQS"]["000000000000/us-east-1/q"]["QueueArn"] != "arn:aws:sqs:us-east-1:000000000000:q" {
		t.Errorf("state dump lacks the queue: %v", state["SQS"])
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("decode %s: %v", url, err)
	}
}
