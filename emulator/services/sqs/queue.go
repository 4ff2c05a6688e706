package sqs

import (
	"fmt"
	"strconv"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// queue is one SQS queue.
type queue struct {
	name, url, arn string
	fifo           bool
	attrs          map[string]string // attributes set by the caller
	created        time.Time
	modified       time.Time
	readableAt     time.Time // before this, the queue is invisible to reads (eventual consistency)
	messages       []*message
	dedup          map[string]time.Time
}

// knownReadOnly are the attributes AWS computes.
var knownReadOnly = map[string]bool{
	"QueueArn": true, "ApproximateNumberOfMessages": true, "ApproximateNumberOfMessagesNotVisible": true,
	"ApproximateNumberOfMessagesDelayed": true, "CreatedTimestamp": true, "LastModifiedTimestamp": true,
}

func newQueue(call *core.Call, name string, fifo bool, attrs map[string]string) *queue {
	q := &queue{
		name:       name,
		url:        fmt.Sprintf("%s://%s/%s/%s", call.Scheme, call.Host, call.Account, name),
		arn:        call.Scope().ARN("sqs", name),
		fifo:       fifo,
		attrs:      map[string]string{},
		created:    call.Now,
		modified:   call.Now,
		readableAt: call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)),
		dedup:      map[string]time.Time{},
	}
	for k, v := range attrs {
		if k != "FifoQueue" {
			q.attrs[k] = v
		}
	}
	return q
}

// visible reports whether reads already see the queue.
func (q *queue) visible(call *core.Call) bool { return !call.Now.Before(q.readableAt) }

// value returns an attribute as set, or its default.
func (q *queue) value(name string) string {
	if v, ok := q.attrs[name]; ok {
		return v
	}
	return settable[name].def
}

// attributes returns every attribute GetQueueAttributes reports for All.
func (q *queue) attributes(now time.Time) map[string]string {
	out := map[string]string{}
	for name, a := range settable {
		if a.fifoOnly && !q.fifo {
			continue
		}
		if v := q.value(name); v != "" {
			out[name] = v
		}
	}
	if q.fifo {
		out["FifoQueue"] = "true"
	}
	if v, ok := out["RedrivePolicy"]; ok {
		out["RedrivePolicy"] = canonicalRedrivePolicy(v)
	}
	if _, kms := q.attrs["KmsMasterKeyId"]; kms {
		delete(out, "SqsManagedSseEnabled")
	} else {
		delete(out, "KmsDataKeyReusePeriodSeconds")
	}
	visible, inflight, delayed := 0, 0, 0
	for _, m := range q.messages {
		switch {
		case now.Before(m.delayedUntil):
			delayed++
		case now.Before(m.invisibleUntil):
			inflight++
		default:
			visible++
		}
	}
	out["QueueArn"] = q.arn
	out["ApproximateNumberOfMessages"] = strconv.Itoa(visible)
	out["ApproximateNumberOfMessagesNotVisible"] = strconv.Itoa(inflight)
	out["ApproximateNumberOfMessagesDelayed"] = strconv.Itoa(delayed)
	out["CreatedTimestamp"] = strconv.FormatInt(q.created.Unix(), 10)
	out["LastModifiedTimestamp"] = strconv.FormatInt(q.modified.Unix(), 10)
	return out
}

// differing names the attributes in attrs whose values differ from the queue's.
func (q *queue) differing(attrs map[string]string) []string {
	var names []string
	for k, v := range attrs {
		if k == "FifoQueue" {
			continue
		}
		if q.value(k) != v {
			names = append(names, k)
		}
	}
	return names
}

// sameAttributes reports whether CreateQueue with attrs would be a no-op, as AWS decides it.
func (q *queue) sameAttributes(attrs map[string]string) bool {
	return len(q.differing(attrs)) == 0
}
