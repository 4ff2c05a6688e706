package sns

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are SNS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateTopic":               core.Op(b.createTopic),
		"GetTopicAttributes":        core.Op(b.getTopicAttributes),
		"SetTopicAttributes":        core.Op(b.setTopicAttributes),
		"DeleteTopic":               core.Op(b.deleteTopic),
		"ListTopics":                core.Op(b.listTopics),
		"Subscribe":                 core.Op(b.subscribe),
		"ConfirmSubscription":       core.Op(b.confirmSubscription),
		"Unsubscribe":               core.Op(b.unsubscribe),
		"ListSubscriptionsByTopic":  core.Op(b.listSubscriptionsByTopic),
		"GetSubscriptionAttributes": core.Op(b.getSubscriptionAttributes),
		"SetSubscriptionAttributes": core.Op(b.setSubscriptionAttributes),
		"Publish":                   core.Op(b.publish),
		"GetDataProtectionPolicy":   core.Op(b.getDataProtectionPolicy),
		"PutDataProtectionPolicy":   core.Op(b.putDataProtectionPolicy),
	}
}
