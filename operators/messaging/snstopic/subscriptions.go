package snstopic

import (
	"maps"
	"slices"
	"strings"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
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

// key identifies a subscription by protocol and endpoint.
func key(protocol, endpoint string) string { return protocol + " " + endpoint }

// attributeChange is one SetSubscriptionAttributes call.
type attributeChange struct {
	// ARN is the subscription's ARN.
	ARN string
	// Name and Value are the attribute and its new value.
	Name, Value string
}

// subscriptionPlan is what turns the topic's subscriptions into the spec's.
type subscriptionPlan struct {
	// subscribe are the spec's subscriptions the topic lacks.
	subscribe []v1alpha1.SNSSubscription
	// unsubscribe are the confirmed subscriptions the spec does not have. Pending ones cannot
	// be removed (they have no ARN yet); SNS deletes them when they are not confirmed in time.
	unsubscribe []Subscription
	// set are the attribute changes of confirmed subscriptions, one per call.
	set []attributeChange
}

// empty reports whether the topic's subscriptions already match the spec.
func (p subscriptionPlan) empty() bool {
	return len(p.subscribe)+len(p.unsubscribe)+len(p.set) == 0
}

// planSubscriptions compares the spec's subscriptions (endpoints resolved) with the topic's.
func planSubscriptions(want []v1alpha1.SNSSubscription, have []Subscription) subscriptionPlan {
	var p subscriptionPlan
	byKey := map[string]Subscription{}
	for _, s := range have {
		byKey[key(s.Protocol, s.Endpoint)] = s
	}
	wanted := map[string]bool{}
	for i := range want {
		sub := &want[i]
		k := key(sub.Protocol, sub.Endpoint)
		wanted[k] = true
		s, ok := byKey[k]
		switch {
		case !ok:
			p.subscribe = append(p.subscribe, *sub)
		case !s.Pending():
			changes := attributeChanges(desiredSubscriptionAttributes(sub), s.Attributes)
			for _, name := range slices.Sorted(maps.Keys(changes)) {
				p.set = append(p.set, attributeChange{ARN: s.ARN, Name: name, Value: changes[name]})
			}
		}
	}
	for _, s := range have {
		if !wanted[key(s.Protocol, s.Endpoint)] && !s.Pending() {
			p.unsubscribe = append(p.unsubscribe, s)
		}
	}
	return p
}

// isARN reports whether a subscription ARN from SNS is a real ARN, not the text SNS shows for
// a pending subscription ("PendingConfirmation", "pending confirmation").
func isARN(s string) bool { return strings.HasPrefix(s, "arn:") }
