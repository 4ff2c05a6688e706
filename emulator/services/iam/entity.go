package iam

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// entity is what roles, managed policies and instance profiles have in common: a name, a path, a
// unique ID and an ARN, when the entity was created and when other calls begin to see it.
type entity struct {
	name, path, id, arn string
	created, readableAt time.Time
}

// named is a role, a managed policy or an instance profile: a pointer to a struct that embeds
// entity.
type named interface{ base() *entity }

// base returns the entity itself; through embedding it makes roles, policies and instance
// profiles named.
func (e *entity) base() *entity { return e }

// visible reports whether a call sees the entity: not before the delay after its creation that
// the ReadAfterCreateDelay fault sets has passed.
func (e *entity) visible(call *core.Call) bool { return !call.Now.Before(e.readableAt) }

// newEntity returns the entity a call creates in the account: kind is the resource type in its
// ARN ("role", "policy" or "instance-profile") and prefix that of its ID.
func (a *account) newEntity(call *core.Call, kind, prefix, name, path string) entity {
	return entity{name: name, path: path, id: newID(prefix), arn: "arn:aws:iam::" + a.id + ":" + kind + path + name,
		created: call.Now, readableAt: visibleAfter(call)}
}

// lookup returns the entity of entities that a request names, or AWS's error: the ValidationError
// of a malformed name (member is the parameter's name in lower camel case, max the longest name)
// or NoSuchEntity with the message missing, formatted with the name, for an entity that does not
// exist or is not visible yet. The caller holds the backend's lock.
func lookup[E named](call *core.Call, entities map[string]E, name *string, member string, max int, missing string) (E, error) {
	var none E
	n := aws.ToString(name)
	if err := checkName(n, member, max); err != nil {
		return none, err
	}
	e, ok := entities[key(n)]
	if !ok || !e.base().visible(call) {
		return none, noSuchEntity(missing, n)
	}
	return e, nil
}

// withEntity runs f, holding the backend's lock, on the caller's account and the entity that
// find returns for name, and returns f's answer, or find's error.
func withEntity[E named, O any](b *Backend, call *core.Call, find finder[E], name *string, f func(a *account, e E) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(a *account) (*O, error) {
		e, err := find(a, call, name)
		if err != nil {
			return nil, err
		}
		return f(a, e)
	})
}

// checkNameAndPath returns the name (member is the parameter's name in lower camel case, max the
// longest name) and path, by default "/", of a request that creates an entity, or the
// ValidationError AWS gives a malformed one, the name's first.
func checkNameAndPath(name *string, member string, max int, path *string) (string, string, error) {
	n := aws.ToString(name)
	if err := checkName(n, member, max); err != nil {
		return "", "", err
	}
	p, err := checkPath(path)
	if err != nil {
		return "", "", err
	}
	return n, p, nil
}

// checkNew returns AWS's error for creating an entity named name among entities, the account's
// roles, policies or instance profiles: EntityAlreadyExists with the message exists, formatted
// with the name, when one has that name already, or LimitExceeded when there are as many as the
// account's quota (named quota) allows. The caller holds the backend's lock.
func checkNew[E named](entities map[string]E, name, exists, quota string, limit int) error {
	if _, ok := entities[key(name)]; ok {
		return alreadyExists(exists, name)
	}
	if len(entities) >= limit {
		return quotaExceeded(quota, limit)
	}
	return nil
}

// appendCapped appends v to *list, a list of at most limit distinct values (the quota named
// quota), unless it holds v already; a list already full answers LimitExceeded.
func appendCapped[T comparable](list *[]T, v T, quota string, limit int) error {
	if slices.Contains(*list, v) {
		return nil
	}
	if len(*list) >= limit {
		return quotaExceeded(quota, limit)
	}
	*list = append(*list, v)
	return nil
}

// add keeps a new entity, with its tags, in entities, or changes nothing and returns the error of
// tags beyond IAM's limits. The caller holds the backend's lock.
func add[E named](a *account, entities map[string]E, e E, tags map[string]string) error {
	if err := a.tags.Replace(e.base().arn, tags); err != nil {
		return err
	}
	entities[key(e.base().name)] = e
	return nil
}
