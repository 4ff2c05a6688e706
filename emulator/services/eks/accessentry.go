package eks

import (
	"maps"
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// accessEntry is one access entry of a cluster: an IAM principal's access, with the access
// policies associated with it. Like a cluster's, its settings are replaced, never changed in
// place.
type accessEntry struct {
	token    string                                  // the ClientRequestToken of the request that created it
	cfg      types.AccessEntry                       // as described, but for tags
	policies map[string]types.AssociatedAccessPolicy // by policy ARN
}

// principal is an IAM principal an access entry is for.
type principal struct {
	arn, account, kind, name string // kind is role or user; name is without the path
}

// principalARN matches the ARN of an IAM role or user, with or without a path.
var principalARN = regexp.MustCompile(`^arn:aws[a-zA-Z-]*:iam::(\d{12}):(role|user)/(?:[\w+=,.@-]+/)*([\w+=,.@-]{1,128})$`)

// parsePrincipal returns the IAM role or user arn names; ok is false for anything else, such
// as an STS assumed-role session, which EKS refuses for access entries.
func parsePrincipal(arn string) (p principal, ok bool) {
	m := principalARN.FindStringSubmatch(arn)
	if m == nil {
		return principal{}, false
	}
	return principal{arn: arn, account: m[1], kind: m[2], name: m[3]}, true
}

// The types of access entry (CreateAccessEntry: type). STANDARD is for people and tools; the
// others are for nodes, which EKS gives their Kubernetes identity itself.
const (
	entryStandard      = "STANDARD"
	entryEC2           = "EC2"
	entryEC2Linux      = "EC2_LINUX"
	entryEC2Windows    = "EC2_WINDOWS"
	entryFargateLinux  = "FARGATE_LINUX"
	entryHybridLinux   = "HYBRID_LINUX"
	entryHyperpodLinux = "HYPERPOD_LINUX"
)

// nodeUsernames are the Kubernetes usernames EKS gives the access entries of nodes, by type.
var nodeUsernames = map[string]string{
	entryEC2: "system:node:{{EC2PrivateDNSName}}", entryEC2Linux: "system:node:{{EC2PrivateDNSName}}",
	entryEC2Windows: "system:node:{{EC2PrivateDNSName}}", entryHyperpodLinux: "system:node:{{EC2PrivateDNSName}}",
	entryFargateLinux: "system:node:{{SessionName}}", entryHybridLinux: "system:node:{{SessionName}}",
}

// notStandard is AWS's answer to Kubernetes groups, a username or an access policy for an access
// entry of a node type.
func notStandard() error {
	return invalidParameter(`This operation can only be performed on Access Entries with a type of "STANDARD".`)
}

// entryNotFound is AWS's answer for a principal with no access entry in the cluster.
func entryNotFound() error {
	return notFound("The specified principalArn could not be found. You can view your available access entries with 'list-access-entries'.")
}

// newAccessEntry returns the access entry of p in cluster, created at now with the client
// request token token and the type, groups and username of settings, defaulted as EKS does.
func newAccessEntry(scope core.Scope, cluster string, p principal, now time.Time, token string, settings types.AccessEntry) *accessEntry {
	typ := aws.ToString(settings.Type)
	if typ == "" {
		typ = entryStandard
	}
	username, groups := aws.ToString(settings.Username), append([]string{}, settings.KubernetesGroups...)
	switch {
	case typ != entryStandard:
		username = nodeUsernames[typ]
		if typ != entryEC2 {
			groups = []string{"system:nodes"}
		}
	case username == "" && p.kind == "role":
		username = "arn:aws:sts::" + p.account + ":assumed-role/" + p.name + "/{{SessionName}}"
	case username == "":
		username = p.arn
	}
	arn := scope.ARN("eks", "access-entry/"+cluster+"/"+p.kind+"/"+p.account+"/"+p.name+"/"+core.NewUUID())
	return &accessEntry{token: token, policies: map[string]types.AssociatedAccessPolicy{}, cfg: types.AccessEntry{
		AccessEntryArn: aws.String(arn), ClusterName: aws.String(cluster), PrincipalArn: aws.String(p.arn), Type: aws.String(typ),
		Username: aws.String(username), KubernetesGroups: groups, CreatedAt: aws.Time(now), ModifiedAt: aws.Time(now),
	}}
}

// checkEntry validates a CreateAccessEntry request against EKS's rules for the type of entry:
// any IAM role or user for STANDARD; for nodes, a role of the cluster's account, with neither
// Kubernetes groups nor a username.
func checkEntry(scope core.Scope, in *eks.CreateAccessEntryInput) (principal, error) {
	p, ok := parsePrincipal(aws.ToString(in.PrincipalArn))
	if !ok {
		return p, invalidParameter("The specified principalArn is invalid: %s. It must be the ARN of an IAM role or user", aws.ToString(in.PrincipalArn))
	}
	typ := aws.ToString(in.Type)
	if typ == "" || typ == entryStandard {
		return p, nil
	}
	if _, ok := nodeUsernames[typ]; !ok {
		return p, invalidParameter("Invalid type %s: must be one of STANDARD, EC2, EC2_LINUX, EC2_WINDOWS, FARGATE_LINUX, HYBRID_LINUX, HYPERPOD_LINUX", typ)
	}
	if p.kind != "role" || p.account != scope.Account {
		return p, invalidParameter("The principalArn of an access entry of type %s must be an IAM role of the cluster's account", typ)
	}
	if len(in.KubernetesGroups) > 0 || aws.ToString(in.Username) != "" {
		return p, notStandard()
	}
	return p, nil
}

// describeEntry returns the access entry as DescribeAccessEntry shows it.
func (r *region) describeEntry(e *accessEntry) *types.AccessEntry {
	out := e.cfg
	out.KubernetesGroups = append([]string{}, e.cfg.KubernetesGroups...)
	out.Tags = r.tags.Map(aws.ToString(e.cfg.AccessEntryArn))
	return &out
}

// inEntries runs f, holding the backend's mutex, on the cluster a request names, once its
// authentication mode allows access entries; or answers the error EKS gives.
func inEntries[O any](b *Backend, call *core.Call, name *string, f func(r *region, c *cluster) (*O, error)) (*O, error) {
	return inCluster(b, call, name, func(r *region, c *cluster) (*O, error) {
		if err := c.entriesAllowed(); err != nil {
			return nil, err
		}
		return f(r, c)
	})
}

// inEntry runs f, holding the backend's mutex, on the access entry of the principal a request
// names in the cluster it names; or answers the error EKS gives.
func inEntry[O any](b *Backend, call *core.Call, name, principalArn *string, f func(r *region, c *cluster, e *accessEntry) (*O, error)) (*O, error) {
	return inEntries(b, call, name, func(r *region, c *cluster) (*O, error) {
		e := c.entries[aws.ToString(principalArn)]
		if e == nil {
			return nil, entryNotFound()
		}
		return f(r, c, e)
	})
}

func (b *Backend) createAccessEntry(call *core.Call, in *eks.CreateAccessEntryInput) (*eks.CreateAccessEntryOutput, error) {
	p, err := checkEntry(call.Scope(), in)
	if err != nil {
		return nil, err
	}
	return inEntries(b, call, in.ClusterName, func(r *region, c *cluster) (*eks.CreateAccessEntryOutput, error) {
		token := aws.ToString(in.ClientRequestToken)
		if e := c.entries[p.arn]; e != nil {
			if e.token != "" && e.token == token {
				return &eks.CreateAccessEntryOutput{AccessEntry: r.describeEntry(e)}, nil
			}
			return nil, inUse("The specified access entry resource is already in use on this cluster.")
		}
		e := newAccessEntry(r.scope, c.name, p, call.Now, token,
			types.AccessEntry{Type: in.Type, Username: in.Username, KubernetesGroups: in.KubernetesGroups})
		if err := r.tags.Merge(in.Tags, aws.ToString(e.cfg.AccessEntryArn)); err != nil {
			return nil, asInvalidParameter(err)
		}
		c.entries[p.arn] = e
		return &eks.CreateAccessEntryOutput{AccessEntry: r.describeEntry(e)}, nil
	})
}

func (b *Backend) describeAccessEntry(call *core.Call, in *eks.DescribeAccessEntryInput) (*eks.DescribeAccessEntryOutput, error) {
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(r *region, _ *cluster, e *accessEntry) (*eks.DescribeAccessEntryOutput, error) {
		return &eks.DescribeAccessEntryOutput{AccessEntry: r.describeEntry(e)}, nil
	})
}

// updateAccessEntry replaces the Kubernetes groups or username of a STANDARD access entry, those
// the request gives; the request is idempotent, so its client request token changes nothing.
func (b *Backend) updateAccessEntry(call *core.Call, in *eks.UpdateAccessEntryInput) (*eks.UpdateAccessEntryOutput, error) {
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(r *region, _ *cluster, e *accessEntry) (*eks.UpdateAccessEntryOutput, error) {
		if in.KubernetesGroups == nil && in.Username == nil {
			return &eks.UpdateAccessEntryOutput{AccessEntry: r.describeEntry(e)}, nil
		}
		if aws.ToString(e.cfg.Type) != entryStandard {
			return nil, notStandard()
		}
		next := e.cfg
		if in.KubernetesGroups != nil {
			next.KubernetesGroups = slices.Clone(in.KubernetesGroups)
		}
		if aws.ToString(in.Username) != "" {
			next.Username = in.Username
		}
		next.ModifiedAt = aws.Time(call.Now)
		e.cfg = next
		return &eks.UpdateAccessEntryOutput{AccessEntry: r.describeEntry(e)}, nil
	})
}

// deleteAccessEntry deletes an access entry, with its access policies and tags, at once.
func (b *Backend) deleteAccessEntry(call *core.Call, in *eks.DeleteAccessEntryInput) (*eks.DeleteAccessEntryOutput, error) {
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(r *region, c *cluster, e *accessEntry) (*eks.DeleteAccessEntryOutput, error) {
		delete(c.entries, aws.ToString(e.cfg.PrincipalArn))
		r.tags.Delete(aws.ToString(e.cfg.AccessEntryArn))
		return &eks.DeleteAccessEntryOutput{}, nil
	})
}

// listAccessEntries answers a page of the principal ARNs of the cluster's access entries, sorted,
// of those with the access policy associatedPolicyArn names when it names one.
func (b *Backend) listAccessEntries(call *core.Call, in *eks.ListAccessEntriesInput) (*eks.ListAccessEntriesOutput, error) {
	return inEntries(b, call, in.ClusterName, func(r *region, c *cluster) (*eks.ListAccessEntriesOutput, error) {
		policy := aws.ToString(in.AssociatedPolicyArn)
		entries := maps.Clone(c.entries)
		if policy != "" {
			maps.DeleteFunc(entries, func(_ string, e *accessEntry) bool { _, ok := e.policies[policy]; return !ok })
		}
		arns, next, err := page(core.SortedKeys(entries), in.NextToken, in.MaxResults)
		return &eks.ListAccessEntriesOutput{AccessEntries: arns, NextToken: next}, err
	})
}
