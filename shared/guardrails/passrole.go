package guardrails

import (
	"slices"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/condition"
)

// CheckPassedRole returns a *Refusal when t's namespace may not pass the role (or instance
// profile) arn to a service through field, nil otherwise. own are the ARNs of the roles and
// instance profiles the namespace's own IAMRole objects made, which are always passable. With
// no --passable-roles rule at all, any role of the provider's own account is passable (the
// open default); with any rule, only own roles and those a rule of the namespace matches.
func (g *IAM) CheckPassedRole(t Tenant, field, arn string, own []string) error {
	if arn == "" || slices.Contains(own, arn) {
		return nil
	}
	if len(g.PassableRoles) == 0 {
		if t.AccountID != "" && ARNAccount(arn) == t.AccountID {
			return nil
		}
		return refuse(condition.ReasonRoleNotPassable, "%s names %s, which is not of the provider's account %s: namespace %q may pass "+
			"only roles of its account and those its IAMRole objects made (operator flag %s)", field, arn, t.AccountID, t.Namespace, flagPassable)
	}
	for _, pattern := range all(g.PassableRoles, t.Namespace) {
		if Match(fill(pattern, t), arn) {
			return nil
		}
	}
	return refuse(condition.ReasonRoleNotPassable, "%s names %s, which namespace %q may not pass to a service: only roles its own IAMRole "+
		"objects made (use a roleRef) and those an administrator's pattern allows (operator flag %s)", field, arn, t.Namespace, flagPassable)
}

// InstanceProfileARN returns the ARN of an instance profile given by name or by ARN. own are
// the ARNs the namespace's IAMRole objects made: a name is theirs when one of their profile
// ARNs ends with it (whatever its path); any other name is taken as the provider's account's
// profile of that name at path /.
func InstanceProfileARN(t Tenant, profile string, own []string) string {
	if profile == "" || strings.HasPrefix(profile, "arn:") {
		return profile
	}
	for _, arn := range own {
		if strings.Contains(arn, ":instance-profile/") && arn[strings.LastIndex(arn, "/")+1:] == profile {
			return arn
		}
	}
	partition := t.Partition
	if partition == "" {
		partition = "aws"
	}
	return "arn:" + partition + ":iam::" + t.AccountID + ":instance-profile/" + profile
}

// RoleARN returns the ARN of a role given by name (what IAM's instance profile calls take). own
// are the ARNs the namespace's IAMRole objects made: a name is theirs when one of their role
// ARNs ends with it (whatever its path); any other name is taken as the provider's account's
// role of that name at path /.
func RoleARN(t Tenant, role string, own []string) string {
	if role == "" || strings.HasPrefix(role, "arn:") {
		return role
	}
	for _, arn := range own {
		if strings.Contains(arn, ":role/") && arn[strings.LastIndex(arn, "/")+1:] == role {
			return arn
		}
	}
	partition := t.Partition
	if partition == "" {
		partition = "aws"
	}
	return "arn:" + partition + ":iam::" + t.AccountID + ":role/" + role
}
