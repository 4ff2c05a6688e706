package eks

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// checkScaling checks a node group's scaling configuration, with the messages EKS answers on
// creation and, for the minimum above the desired size, on update.
func checkScaling(s *types.NodegroupScalingConfig, updating bool) error {
	lo, hi, want := aws.ToInt32(s.MinSize), aws.ToInt32(s.MaxSize), aws.ToInt32(s.DesiredSize)
	switch {
	case lo < 0:
		return invalidParameter("minSize can't be less than 0")
	case want < 0:
		return invalidParameter("desiredSize can't be less than 0")
	case hi < 1:
		return invalidParameter("maxSize can't be less than 1")
	case hi > maxNodes:
		return invalidParameter("maxSize can't be greater than %d", maxNodes)
	case lo > hi:
		return invalidParameter("minSize can't be greater than maxSize")
	case lo > want && updating:
		return invalidParameter("Minimum capacity %d can't be greater than desired size %d", lo, want)
	case lo > want:
		return invalidParameter("minSize can't be greater than desiredSize")
	case want > hi:
		return invalidParameter("desiredSize can't be greater than maxSize")
	}
	return nil
}

// checkLabels checks Kubernetes labels: keys of 1 to 63 characters after an optional prefix,
// values of at most 63.
func checkLabels(labels map[string]string) error {
	for k, v := range labels {
		name := k[strings.LastIndex(k, "/")+1:]
		if name == "" || len(name) > maxLabelLength || len(v) > maxLabelLength {
			return invalidParameter("Label %s=%s is not valid: label keys and values must be at most %d characters", k, v, maxLabelLength)
		}
	}
	return nil
}

// checkTaints checks Kubernetes taints: at most 50, each with a key and one of the three
// effects.
func checkTaints(taints []types.Taint) error {
	if len(taints) > maxTaints {
		return invalidParameter("A node group can have at most %d taints", maxTaints)
	}
	for _, t := range taints {
		k := aws.ToString(t.Key)
		if k == "" || len(k) > maxLabelLength || len(aws.ToString(t.Value)) > maxLabelLength {
			return invalidParameter("Taint %s is not valid: keys must be 1 to %d characters and values at most %d", k, maxLabelLength, maxLabelLength)
		}
		if !slices.Contains(t.Effect.Values(), t.Effect) {
			return invalidParameter("Taint %s has an invalid effect %q: must be NO_SCHEDULE, NO_EXECUTE or PREFER_NO_SCHEDULE", k, t.Effect)
		}
	}
	return nil
}

// updateConfig returns a node group's update configuration once a request's applies to the
// current one: one of maxUnavailable (1 to the group's maximum size, at most 100) and
// maxUnavailablePercentage (1 to 100).
func updateConfig(in, current *types.NodegroupUpdateConfig, maxSize int32) (*types.NodegroupUpdateConfig, error) {
	if in == nil || (in.MaxUnavailable == nil && in.MaxUnavailablePercentage == nil) {
		return current, nil
	}
	if in.MaxUnavailable != nil && in.MaxUnavailablePercentage != nil {
		return nil, invalidParameter("Only one of maxUnavailable and maxUnavailablePercentage can be specified")
	}
	if n := in.MaxUnavailable; n != nil {
		if *n < 1 || *n > min(maxSize, 100) {
			return nil, invalidParameter("max-unavailable must be within the range 1 and max size of the node group")
		}
		return &types.NodegroupUpdateConfig{MaxUnavailable: aws.Int32(*n)}, nil
	}
	if p := *in.MaxUnavailablePercentage; p < 1 || p > 100 {
		return nil, invalidParameter("max-unavailable-percentage must be within the range 1 and 100")
	}
	return &types.NodegroupUpdateConfig{MaxUnavailablePercentage: aws.Int32(*in.MaxUnavailablePercentage)}, nil
}

// taintKey identifies a taint as Kubernetes does: by key and effect.
func taintKey(t types.Taint) string { return aws.ToString(t.Key) + ":" + string(t.Effect) }

// taintValues returns taints as update parameters show them.
func taintValues(taints []types.Taint) string {
	out := make([]map[string]string, 0, len(taints))
	for _, t := range taints {
		out = append(out, map[string]string{"key": aws.ToString(t.Key), "value": aws.ToString(t.Value), "effect": string(t.Effect)})
	}
	return jsonValue(out)
}
