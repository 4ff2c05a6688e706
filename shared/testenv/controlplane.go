package testenv

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// ControlPlane is a running kube-apiserver and etcd with CRDs installed, for tests and for
// `infractl sandbox`.
type ControlPlane struct {
	// Config reaches the API server as an administrator.
	Config *rest.Config

	env *envtest.Environment
	// installed holds, by name, the CRDs of a control plane that tests share (see planes).
	installed map[string]*apiextensionsv1.CustomResourceDefinition
}

// StartControlPlane starts kube-apiserver and etcd from the binaries in assets (see
// BuildAssets) and installs crds.
func StartControlPlane(assets string, crds []*apiextensionsv1.CustomResourceDefinition) (*ControlPlane, error) {
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDs:                  crds,
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("start the control plane from %s: %w", assets, err)
	}
	return &ControlPlane{Config: cfg, env: env}, nil
}

// Stop stops kube-apiserver and etcd and removes etcd's data.
func (c *ControlPlane) Stop() error {
	if err := c.env.Stop(); err != nil {
		return fmt.Errorf("stop the control plane: %w", err)
	}
	return nil
}

// Kubeconfig returns a kubeconfig for a new cluster administrator named user.
func (c *ControlPlane) Kubeconfig(user string) ([]byte, error) {
	u, err := c.env.AddUser(envtest.User{Name: user, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("add the user %s to the control plane: %w", user, err)
	}
	b, err := u.KubeConfig()
	if err != nil {
		return nil, fmt.Errorf("write a kubeconfig for %s: %w", user, err)
	}
	return b, nil
}
