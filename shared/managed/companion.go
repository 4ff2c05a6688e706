package managed

import (
	"context"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// Companion is a resource the operator makes for an object beside the object's own AWS
// resource, named after it and owned with it, such as the DB or cache subnet group made from an
// instance's subnets when the spec names none. It is created with the object's tags (ownership
// included), its members are kept as the spec lists them, and the driver deletes it once the
// object's own resource is gone. A resource of its name that the object did not make is never
// changed nor deleted. A driver builds one for the resource Name with the service's calls; the
// service-specific requests stay in the driver.
type Companion struct {
	// Kind names the resource in messages, for example "DB subnet group".
	Kind string
	// Name is the resource's name in AWS.
	Name string
	// Instead is the spec field that names an existing resource instead: the way out when Name
	// is taken, for example "spec.dbSubnetGroupName".
	Instead string
	// Taken is the error code with which AWS refuses to create a resource whose name is taken,
	// for example "DBSubnetGroupAlreadyExists".
	Taken string
	// Create makes the resource, with the desired tags.
	Create func(ctx context.Context) error
	// Tags reads the tags of the existing resource.
	Tags func(ctx context.Context) (map[string]string, error)
}

// Ensure creates the companion. One of its name already there is used when o owns it (a
// create interrupted after the companion was made), and refused otherwise (see Check).
func (c Companion) Ensure(ctx context.Context, o v1alpha1.Managed) error {
	err := c.Create(ctx)
	if err == nil || awserr.Code(err) != c.Taken {
		return Wrap(err, "create %s %s", c.Kind, c.Name)
	}
	tags, err := c.Tags(ctx)
	if err != nil {
		return Wrap(err, "read the tags of %s %s", c.Kind, c.Name)
	}
	return c.Check(o, tags)
}

// Check returns nil when tags, the companion's tags in AWS, name o as its owner, and otherwise
// a terminal AlreadyExists error that says how to use the resource or free its name.
func (c Companion) Check(o v1alpha1.Managed, tags map[string]string) error {
	if OwnedBy(o, tags) {
		return nil
	}
	return Terminal(condition.ReasonAlreadyExists, "a %s named %s, which this object did not make, already exists; set %s to %s to use it, or delete it",
		c.Kind, c.Name, c.Instead, c.Name)
}

// PlanMembers plans set as the change of field when have and want, the companion's members
// in AWS and in the spec, differ as sets.
func (c Companion) PlanMembers(plan *Plan, field string, have, want []string, set func(ctx context.Context) error) {
	if SameSet(have, want) {
		return
	}
	plan.Add(field, func(ctx context.Context) error {
		return Wrap(set(ctx), "change the members of %s %s", c.Kind, c.Name)
	})
}

// Delete deletes the companion with del; one already gone is success.
func (c Companion) Delete(ctx context.Context, del func(ctx context.Context) error) error {
	if err := del(ctx); err != nil && !awserr.IsNotFound(err) {
		return Wrap(err, "delete %s %s", c.Kind, c.Name)
	}
	return nil
}
