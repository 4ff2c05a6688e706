// Package subscriptions keeps an SNS topic's subscriptions as a set: it lists them, compares
// them with the spec's and plans the calls that turn the one into the other.
package subscriptions

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/attributes"
)

// Subscription is one subscription of the topic as SNS lists it.
type Subscription struct {
	// ARN is the subscription's ARN; empty while it waits for confirmation.
	ARN string
	// Protocol and Endpoint identify the subscription.
	Protocol, Endpoint string
	// Attributes are the subscription's attributes; read only for confirmed subscriptions.
	Attributes map[string]string
}

// Pending reports whether the subscription waits for its owner's confirmation.
func (s Subscription) Pending() bool { return s.ARN == "" }

// Key identifies a subscription by protocol and endpoint: a topic has one per key.
func Key(protocol, endpoint string) string { return protocol + " " + endpoint }

// Change is one SetSubscriptionAttributes call.
type Change struct {
	// ARN is the subscription's ARN.
	ARN string
	// Name and Value are the attribute and its new value.
	Name, Value string
}

// Plan is what turns the topic's subscriptions into the spec's.
type Plan struct {
	// Subscribe are the spec's subscriptions the topic lacks.
	Subscribe []v1alpha1.SNSSubscription
	// Unsubscribe are the confirmed subscriptions the spec does not have. Pending ones cannot
	// be removed (they have no ARN yet); SNS deletes them when they are not confirmed in time.
	Unsubscribe []Subscription
	// Set are the attribute changes of confirmed subscriptions, one per call.
	Set []Change
}

// Empty reports whether the topic's subscriptions already match the spec.
func (p Plan) Empty() bool {
	return len(p.Subscribe)+len(p.Unsubscribe)+len(p.Set) == 0
}

// Compare compares the spec's subscriptions (endpoints resolved) with the topic's.
func Compare(want []v1alpha1.SNSSubscription, have []Subscription) Plan {
	var p Plan
	byKey := map[string]Subscription{}
	for _, s := range have {
		byKey[Key(s.Protocol, s.Endpoint)] = s
	}
	wanted := map[string]bool{}
	for i := range want {
		sub := &want[i]
		k := Key(sub.Protocol, sub.Endpoint)
		wanted[k] = true
		s, ok := byKey[k]
		switch {
		case !ok:
			p.Subscribe = append(p.Subscribe, *sub)
		case !s.Pending():
			changes := attributes.Changes(desired(sub), s.Attributes, sameValue)
			for _, name := range slices.Sorted(maps.Keys(changes)) {
				p.Set = append(p.Set, Change{ARN: s.ARN, Name: name, Value: changes[name]})
			}
		}
	}
	for _, s := range have {
		if !wanted[Key(s.Protocol, s.Endpoint)] && !s.Pending() {
			p.Unsubscribe = append(p.Unsubscribe, s)
		}
	}
	return p
}

// rawDeliveryProtocols are the protocols that have the RawMessageDelivery attribute.
var rawDeliveryProtocols = map[string]bool{"sqs": true, "http": true, "https": true, "firehose": true}

// desired returns the subscription attributes the spec manages: raw delivery (false unless
// set, where the protocol has it), the filter policy and the redrive policy (removed unless
// set), the filter scope with a filter policy, and the delivery policy when set.
func desired(sub *v1alpha1.SNSSubscription) map[string]string {
	out := map[string]string{"FilterPolicy": sub.FilterPolicy, "RedrivePolicy": ""}
	if rawDeliveryProtocols[sub.Protocol] {
		out["RawMessageDelivery"] = strconv.FormatBool(sub.RawMessageDelivery != nil && *sub.RawMessageDelivery)
	}
	if sub.FilterPolicy != "" {
		out["FilterPolicyScope"] = sub.FilterPolicyScope
		if sub.FilterPolicyScope == "" {
			out["FilterPolicyScope"] = "MessageAttributes"
		}
	}
	if rp := sub.RedrivePolicy; rp != nil {
		out["RedrivePolicy"] = attributes.JSON(map[string]string{"deadLetterTargetArn": rp.DeadLetterQueueARN})
	}
	if sub.DeliveryPolicy != "" {
		out["DeliveryPolicy"] = sub.DeliveryPolicy
	}
	return out
}

// jsonAttributes are the subscription attributes whose values are JSON documents, compared
// by meaning.
var jsonAttributes = map[string]bool{"DeliveryPolicy": true, "FilterPolicy": true, "RedrivePolicy": true}

// sameValue reports whether an attribute's observed value is the wanted one, comparing JSON
// documents by meaning.
func sameValue(name, want, got string) bool {
	if !jsonAttributes[name] || want == "" || got == "" {
		return want == got
	}
	return attributes.EqualJSON(want, got)
}

// isARN reports whether a subscription ARN from SNS is a real ARN, not the text SNS shows for
// a pending subscription ("PendingConfirmation", "pending confirmation").
func isARN(s string) bool { return strings.HasPrefix(s, "arn:") }
