package rds

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// clusterSettings are the settings CreateDBCluster and RestoreDBClusterFromSnapshot both take;
// nil fields keep the cluster's value.
type clusterSettings struct {
	port, retention                       *int32
	backupWindow, subnetGroup, paramGroup *string
	securityGroups, logExports            []string
	scaling                               *types.ServerlessV2ScalingConfiguration
}

// born gives a new cluster (created, or restored) its identity, times and a creating step.
func (r *region) born(c *cluster, call *core.Call, id string) {
	c.id, c.arn, c.resourceID = id, r.scope.ARN("rds", "cluster:"+id), newClusterResourceID()
	c.created, c.readableAt, c.transition = call.Now, call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)), call.Transition
	c.life, c.gone, c.writer = core.NewLifecycle(phase{status: statusAvailable}), false, ""
	c.life.Start(phase{status: statusCreating}, call.Now, call.Transition)
}

// settleSettings checks the settings s as CreateDBCluster does and gives them to the cluster c, whose
// engine, version and maintenance window are set.
func (r *region) settleSettings(c *cluster, s clusterSettings) (err error) {
	if s.port != nil {
		if c.port = *s.port; c.port < 1150 || c.port > 65535 {
			return invalidValue("Invalid port %d: valid ports are 1150-65535.", c.port)
		}
	}
	set(&c.backupRetention, s.retention)
	if err := checkClusterRetention(c.backupRetention); err != nil {
		return err
	}
	set(&c.backupWindow, s.backupWindow)
	if err := checkWindows(c.backupWindow, c.maintenanceWindow); err != nil {
		return err
	}
	if err := checkSecurityGroups(s.securityGroups); err != nil {
		return err
	}
	if err := checkLogTypes(c.eng, s.logExports); err != nil {
		return err
	}
	c.securityGroups, c.logExports = s.securityGroups, s.logExports
	c.subnetGroup, c.scaling = "", nil
	if s.subnetGroup != nil {
		g, ok := r.subnetGroups[strings.ToLower(*s.subnetGroup)]
		if !ok {
			return subnetGroupNotFound(*s.subnetGroup)
		}
		c.subnetGroup = g.name
	}
	if s.scaling != nil {
		if c.scaling, err = checkScaling(s.scaling); err != nil {
			return err
		}
	}
	c.paramGroup, err = r.clusterParamGroupFor(c.eng, c.engineVersion, aws.ToString(s.paramGroup))
	return err
}
