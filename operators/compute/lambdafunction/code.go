package lambdafunction

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// code is the deployment package the spec names.
type code struct {
	// source names it, for status.codeSource: s3://bucket/key[?versionId=v], the image URI,
	// or configmap://name/key.
	source string
	// function is the package as CreateFunction takes it.
	function *types.FunctionCode
	// sha256 is the base64 SHA-256 of the package when the operator has its bytes (a
	// ConfigMap's), "" otherwise.
	sha256 string
}

// image reports whether the package is a container image.
func (c code) image() bool { return c.function.ImageUri != nil }

// code returns the package the spec names, reading a ConfigMap's through kube. A missing
// ConfigMap or key is a *managed.WaitingError.
func (d *driver) code(ctx context.Context, f *v1alpha1.LambdaFunction) (code, error) {
	s := f.Spec
	switch {
	case s.ImageURI != "":
		return code{source: s.ImageURI, function: &types.FunctionCode{ImageUri: aws.String(s.ImageURI)}}, nil
	case s.CodeConfigMapRef != nil:
		zip, err := d.configMapZip(ctx, f.Namespace, *s.CodeConfigMapRef)
		if err != nil {
			return code{}, err
		}
		sum := sha256.Sum256(zip)
		return code{source: "configmap://" + s.CodeConfigMapRef.Name + "/" + s.CodeConfigMapRef.Key, function: &types.FunctionCode{ZipFile: zip},
			sha256: base64.StdEncoding.EncodeToString(sum[:])}, nil
	}
	c := code{source: "s3://" + s.CodeS3Bucket + "/" + s.CodeS3Key,
		function: &types.FunctionCode{S3Bucket: aws.String(s.CodeS3Bucket), S3Key: aws.String(s.CodeS3Key)}}
	if s.CodeS3ObjectVersion != "" {
		c.source += "?versionId=" + s.CodeS3ObjectVersion
		c.function.S3ObjectVersion = aws.String(s.CodeS3ObjectVersion)
	}
	return c, nil
}

// configMapZip returns the deployment package in a ConfigMap's key: its binary data, or its
// text data.
func (d *driver) configMapZip(ctx context.Context, ns string, ref v1alpha1.ConfigMapKeySelector) ([]byte, error) {
	var cm corev1.ConfigMap
	err := d.kube.Get(ctx, k8stypes.NamespacedName{Namespace: ns, Name: ref.Name}, &cm)
	if apierrors.IsNotFound(err) {
		return nil, &managed.WaitingError{Reason: condition.ReasonConfigMapNotFound, After: managed.SecretRetry,
			Message: fmt.Sprintf("ConfigMap %s/%s, which spec.codeConfigMapRef names, does not exist", ns, ref.Name)}
	}
	if err != nil {
		return nil, fmt.Errorf("read ConfigMap %s/%s: %w", ns, ref.Name, err)
	}
	if zip, ok := cm.BinaryData[ref.Key]; ok && len(zip) > 0 {
		return zip, nil
	}
	if text, ok := cm.Data[ref.Key]; ok && text != "" {
		return []byte(text), nil
	}
	return nil, &managed.WaitingError{Reason: condition.ReasonConfigMapNotFound, After: managed.SecretRetry,
		Message: fmt.Sprintf("ConfigMap %s/%s has no key %q (or it is empty), which spec.codeConfigMapRef names", ns, ref.Name, ref.Key)}
}

// architectures returns the spec's instruction set, x86_64 when unset.
func architectures(f *v1alpha1.LambdaFunction) []types.Architecture {
	if len(f.Spec.Architectures) == 0 {
		return []types.Architecture{types.ArchitectureX8664}
	}
	out := make([]types.Architecture, 0, len(f.Spec.Architectures))
	for _, a := range f.Spec.Architectures {
		out = append(out, types.Architecture(a))
	}
	return out
}
