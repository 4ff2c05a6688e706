// Package eks emulates Amazon Elastic Kubernetes Service over its restJson1 protocol (API version
// 2017-11-01): clusters, managed node groups, add-ons, the updates that change them, and tags
// on all three.
//
// Lifecycles run on the simulation clock, one transition per step (2s unless the server's
// options say otherwise): a cluster, node group or add-on is CREATING, then ACTIVE; an update
// (UpdateClusterConfig, UpdateClusterVersion, AssociateEncryptionConfig, UpdateNodegroupConfig,
// UpdateNodegroupVersion, UpdateAddon) is InProgress, its resource UPDATING, and the change
// shows in Describe once the update is Successful; a deletion is DELETING, then the resource is
// gone. While a cluster is CREATING it has no endpoint, certificate authority or OIDC issuer, as
// on AWS.
//
// Creates are idempotent as AWS documents: the same clientRequestToken with the same name
// answers the existing resource; the same name with another token is ResourceInUseException.
// Updates repeat the same way by token. Subnets and security groups are checked against the
// emulated EC2 of the same account and region through core.Subnets, and the cluster's
// VPC comes from its subnets, which must span two availability zones.
//
// Access entries and their access policies follow the cluster's authentication mode (access.go);
// pod identity associations are kept one per namespace and service account (podidentity.go).
//
// Simplifications: the cluster security group is reported but not created in EC2; IAM roles,
// principals and KMS keys are checked for the form of their ARNs only; Fargate profiles, identity
// provider configs, Auto Mode, hybrid nodes, insights and EKS Anywhere are not emulated, and
// UpdateClusterConfig refuses their settings; launch templates and
// remote access are echoed, not checked; add-on configuration values are not validated against a
// schema; DescribeAddonVersions answers a small fixed catalogue (vpc-cni, coredns, kube-proxy,
// aws-ebs-csi-driver).
package eks

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long each lifecycle step (creating, updating, deleting) takes on the
// simulation clock by default: a new cluster is ACTIVE 2s after CreateCluster.
const TransitionTime = 2 * time.Second

// Backend holds the EKS resources of every account and region.
type Backend struct {
	clock   *core.Clock
	network core.Subnets
	callers core.Callers
	state   *core.Backend[*region]
}

// region is what one account has in one region.
type region struct {
	scope    core.Scope
	clusters map[string]*cluster // by name
	tags     *core.Tags          // of clusters, node groups, add-ons, access entries and pod identity associations, by ARN
}

// newRegion returns the empty state of an account in a region.
func newRegion(scope core.Scope) *region {
	return &region{scope: scope, clusters: map[string]*cluster{}, tags: core.NewTags(tagRules)}
}

// New returns an empty EKS backend on clock that checks subnets and security groups against
// network and learns the creator of a cluster from callers.
func New(clock *core.Clock, network core.Subnets, callers core.Callers) *Backend {
	return &Backend{clock: clock, network: network, callers: callers, state: core.NewBackend(newRegion)}
}

// Service describes EKS to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("eks", "EKS", core.ProtocolRESTJSON, models.MustLoad("eks"),
		&core.APIError{Code: "ThrottlingException", Status: http.StatusTooManyRequests, Message: "Rate exceeded"})
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// page returns one page of names with EKS's maxResults limits (1 to 100, default 100) and the
// token of the next page. The list is empty, not nil, when there is nothing to list, as AWS
// answers.
func page(names []string, token *string, maxResults *int32) ([]string, *string, error) {
	size := int32(100)
	if maxResults != nil {
		if *maxResults < 1 || *maxResults > 100 {
			return nil, nil, invalidParameter("maxResults must be between 1 and 100")
		}
		size = *maxResults
	}
	out, next, ok := core.Page(names, aws.ToString(token), int(size))
	if !ok {
		return nil, nil, invalidParameter("The nextToken provided is invalid")
	}
	out = append([]string{}, out...)
	if next == "" {
		return out, nil, nil
	}
	return out, aws.String(next), nil
}

func (b *Backend) dump() any {
	now := b.clock.Now()
	out := map[string]any{}
	for scope, r := range b.state.All() {
		for _, name := range core.SortedKeys(r.clusters) {
			c := r.lookup(name, now)
			if c == nil {
				continue
			}
			groups, addons := map[string]any{}, map[string]any{}
			for _, n := range core.SortedKeys(c.nodegroups) {
				if g := c.nodegroup(r, n, now); g != nil {
					groups[n] = map[string]any{"status": nodegroupStatus(g, now), "version": aws.ToString(g.cfg.Version), "scaling": g.cfg.ScalingConfig}
				}
			}
			for _, n := range core.SortedKeys(c.addons) {
				if a := c.addon(r, n, now); a != nil {
					addons[n] = map[string]any{"status": addonStatus(a, now), "version": aws.ToString(a.cfg.AddonVersion)}
				}
			}
			out[scope.Account+"/"+scope.Region+"/"+name] = map[string]any{"status": c.status(now), "version": aws.ToString(c.cfg.Version),
				"nodegroups": groups, "addons": addons, "tags": r.tags.Map(c.arn),
				"accessEntries": core.SortedKeys(c.entries), "podIdentityAssociations": core.SortedKeys(c.pods)}
		}
	}
	return out
}
