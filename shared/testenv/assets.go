package testenv

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The control plane versions the project builds and tests against.
const (
	// KubernetesVersion is the kube-apiserver and kubectl version.
	KubernetesVersion = "1.37.1"
	// EtcdVersion is the etcd version.
	EtcdVersion = "3.7.0"
)

// AssetsVersion names the control plane build in the cache.
const AssetsVersion = "k8s-" + KubernetesVersion + "-etcd-" + EtcdVersion

// stagingModules are the k8s.io modules that k8s.io/kubernetes requires at v0.0.0 and that
// must be pinned to the matching v0.<minor>.<patch> release.
var stagingModules = strings.Fields(`api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
	cloud-provider cluster-bootstrap code-generator component-base component-helpers controller-manager cri-api
	cri-client csi-translation-lib dynamic-resource-allocation endpointslice externaljwt kms kube-aggregator
	kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission
	sample-apiserver sample-cli-plugin sample-controller`)

// CacheDir returns the directory the control plane binaries are cached in:
// $INFRA_OPERATOR_CACHE, else the user cache directory's infra-operator/, keyed by version.
func CacheDir() (string, error) {
	cache, err := cacheRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "envtest", AssetsVersion), nil
}

// cacheRoot returns the directory the project caches what its tests build outside the
// repository: $INFRA_OPERATOR_CACHE, else the user cache directory's infra-operator/.
func cacheRoot() (string, error) {
	if cache := os.Getenv("INFRA_OPERATOR_CACHE"); cache != "" {
		return cache, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache directory: %w", err)
	}
	return filepath.Join(base, "infra-operator"), nil
}

// built reports whether dir holds the three control plane binaries.
func built(dir string) bool {
	for _, name := range []string{"kube-apiserver", "etcd", "kubectl"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// BuildAssets returns the directory holding kube-apiserver, etcd and kubectl, building them
// from the Go module proxy into the cache first when they are not there. setup-envtest's
// downloads cannot be reached from our machines, so the binaries come from source: a cold
// build takes several minutes on 2 cores; progress lines go to progress.
func BuildAssets(ctx context.Context, progress io.Writer) (string, error) {
	dest, err := CacheDir()
	if err != nil {
		return "", err
	}
	if built(dest) {
		return dest, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", fmt.Errorf("make %s: %w", filepath.Dir(dest), err)
	}
	unlock, err := lockFile(dest + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if built(dest) {
		// Another process built it while this one waited for the lock.
		return dest, nil
	}
	work, err := os.MkdirTemp("", "envtest-assets-")
	if err != nil {
		return "", fmt.Errorf("make a build directory: %w", err)
	}
	defer os.RemoveAll(work)
	partial := dest + ".partial"
	if err := os.MkdirAll(partial, 0o755); err != nil {
		return "", fmt.Errorf("make %s: %w", partial, err)
	}
	b := &assetBuild{ctx: ctx, progress: progress, out: partial}
	if err := b.kubernetes(filepath.Join(work, "k8s")); err != nil {
		return "", err
	}
	if err := b.etcd(filepath.Join(work, "etcd")); err != nil {
		return "", err
	}
	if err := os.RemoveAll(dest); err != nil {
		return "", fmt.Errorf("replace %s: %w", dest, err)
	}
	if err := os.Rename(partial, dest); err != nil {
		return "", fmt.Errorf("move the binaries into %s: %w", dest, err)
	}
	fmt.Fprintf(progress, "control plane: built into %s\n", dest)
	return dest, nil
}

// assetBuild builds the control plane binaries into out.
type assetBuild struct {
	ctx      context.Context
	progress io.Writer
	out      string
}

// kubernetes builds kube-apiserver and kubectl in a module requiring k8s.io/kubernetes with
// every staging module pinned.
func (b *assetBuild) kubernetes(dir string) error {
	minorPatch := KubernetesVersion[strings.Index(KubernetesVersion, ".")+1:]
	var mod strings.Builder
	fmt.Fprintf(&mod, "module envtestassets/k8s\n\ngo 1.26\n\nrequire k8s.io/kubernetes v%s\n\n", KubernetesVersion)
	for _, m := range stagingModules {
		fmt.Fprintf(&mod, "replace k8s.io/%s => k8s.io/%s v0.%s\n", m, m, minorPatch)
	}
	tools := "//go:build tools\n\npackage tools\n\nimport (\n\t_ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n\t_ \"k8s.io/kubernetes/cmd/kubectl\"\n)\n"
	if err := writeFiles(dir, map[string]string{"go.mod": mod.String(), "tools.go": tools}); err != nil {
		return err
	}
	fmt.Fprintf(b.progress, "control plane: resolving k8s.io/kubernetes v%s (the first run downloads modules)\n", KubernetesVersion)
	if err := b.goCmd(dir, "mod", "tidy", "-e"); err != nil {
		return err
	}
	minor := strings.Split(KubernetesVersion, ".")[1]
	ldflags := "-s -w -X k8s.io/component-base/version.gitVersion=v" + KubernetesVersion +
		" -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=" + minor
	for _, name := range []string{"kube-apiserver", "kubectl"} {
		fmt.Fprintf(b.progress, "control plane: building %s v%s (a cold build takes several minutes on 2 cores)\n", name, KubernetesVersion)
		if err := b.goCmd(dir, "build", "-trimpath", "-ldflags", ldflags, "-o", filepath.Join(b.out, name), "k8s.io/kubernetes/cmd/"+name); err != nil {
			return err
		}
	}
	return nil
}

// etcd builds etcd from a tiny main calling etcdmain.Main.
func (b *assetBuild) etcd(dir string) error {
	mod := fmt.Sprintf("module envtestassets/etcd\n\ngo 1.26\n\nrequire go.etcd.io/etcd/server/v3 v%s\n", EtcdVersion)
	main := "// Command etcd runs the etcd server for the test control plane.\npackage main\n\nimport (\n\t\"os\"\n\n\t\"go.etcd.io/etcd/server/v3/etcdmain\"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n"
	if err := writeFiles(dir, map[string]string{"go.mod": mod, "main.go": main}); err != nil {
		return err
	}
	fmt.Fprintf(b.progress, "control plane: resolving etcd v%s\n", EtcdVersion)
	if err := b.goCmd(dir, "mod", "tidy"); err != nil {
		return err
	}
	fmt.Fprintf(b.progress, "control plane: building etcd v%s\n", EtcdVersion)
	return b.goCmd(dir, "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(b.out, "etcd"), ".")
}

// goCmd runs the go command in dir for a build outside any workspace, with its output kept
// for the error.
func (b *assetBuild) goCmd(dir string, args ...string) error {
	cmd := exec.CommandContext(b.ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s in %s: %w\n%s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

// writeFiles writes files (name to content) into dir, creating it.
func writeFiles(dir string, files map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
