package testenv

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
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
// build takes 7 to 12 minutes on 2 cores (see projectRequirements); progress lines go to
// progress.
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
	if err := b.build(work); err != nil {
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

// build builds kube-apiserver, kubectl and etcd in one module and one go build, so that the
// packages they share (the etcd client, gRPC, OpenTelemetry, ...) are compiled once.
func (b *assetBuild) build(dir string) error {
	info, _ := debug.ReadBuildInfo()
	tools := "//go:build tools\n\npackage tools\n\nimport (\n\t_ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n\t_ \"k8s.io/kubernetes/cmd/kubectl\"\n)\n"
	etcd := "// Command etcd runs the etcd server for the test control plane.\npackage main\n\nimport (\n\t\"os\"\n\n\t\"go.etcd.io/etcd/server/v3/etcdmain\"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n"
	files := map[string]string{"go.mod": controlPlaneModule(projectRequirements(info)), "tools.go": tools, "etcd/main.go": etcd}
	if err := writeFiles(dir, files); err != nil {
		return err
	}
	fmt.Fprintf(b.progress, "control plane: resolving k8s.io/kubernetes v%s and etcd v%s (the first run downloads modules)\n",
		KubernetesVersion, EtcdVersion)
	if err := b.goCmd(dir, "mod", "tidy", "-e"); err != nil {
		return err
	}
	minor := strings.Split(KubernetesVersion, ".")[1]
	ldflags := "-s -w -X k8s.io/component-base/version.gitVersion=v" + KubernetesVersion +
		" -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=" + minor
	fmt.Fprintf(b.progress, "control plane: building kube-apiserver and kubectl v%s and etcd v%s "+
		"(a cold build takes 7 to 12 minutes on 2 cores)\n", KubernetesVersion, EtcdVersion)
	return b.goCmd(dir, "build", "-trimpath", "-ldflags", ldflags, "-o", b.out+string(filepath.Separator),
		"k8s.io/kubernetes/cmd/kube-apiserver", "k8s.io/kubernetes/cmd/kubectl", "./etcd")
}

// controlPlaneModule returns the go.mod of the control plane's build: it requires
// k8s.io/kubernetes with every staging module pinned to the matching release, etcd's server,
// and reqs (see projectRequirements).
func controlPlaneModule(reqs []debug.Module) string {
	minorPatch := KubernetesVersion[strings.Index(KubernetesVersion, ".")+1:]
	var mod strings.Builder
	fmt.Fprintf(&mod, "module envtestassets\n\ngo 1.26\n\nrequire (\n\tk8s.io/kubernetes v%s\n\tgo.etcd.io/etcd/server/v3 v%s\n",
		KubernetesVersion, EtcdVersion)
	for _, m := range reqs {
		fmt.Fprintf(&mod, "\t%s %s\n", m.Path, m.Version)
	}
	mod.WriteString(")\n\n")
	for _, m := range stagingModules {
		fmt.Fprintf(&mod, "replace k8s.io/%s => k8s.io/%s v0.%s\n", m, m, minorPatch)
	}
	return mod.String()
}

// projectRequirements returns the modules a binary was built with (info: the project's
// dependencies, at the versions its tests build with; a test binary's lists none), except the
// project's own modules (replaced by directories) and the k8s.io modules the control plane
// pins to its release.
// Required by the control plane's module, they make its build use those versions wherever
// Kubernetes and etcd do not need newer ones (Go selects the highest version required). A
// package of the same version, built with the same flags (-trimpath, and the environment's
// CGO_ENABLED, as go test uses), is compiled once for both: Go's build cache then serves the
// control plane's build what `make vet` compiled before it, about half its compiles.
func projectRequirements(info *debug.BuildInfo) []debug.Module {
	if info == nil {
		return nil
	}
	var mods []debug.Module
	for _, m := range info.Deps {
		if m.Replace != nil || m.Version == "" || slices.Contains(stagingModules, strings.TrimPrefix(m.Path, "k8s.io/")) {
			continue
		}
		mods = append(mods, *m)
	}
	return mods
}

// goCmd runs the go command in dir for a build outside any workspace, with its output kept
// for the error. It keeps the environment's CGO_ENABLED: the tests build with it, and a
// different value would change every compiled package (see projectRequirements).
func (b *assetBuild) goCmd(dir string, args ...string) error {
	cmd := exec.CommandContext(b.ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s in %s: %w\n%s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

// writeFiles writes files (slash-separated name under dir to content), creating their
// directories.
func writeFiles(dir string, files map[string]string) error {
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("make %s: %w", filepath.Dir(path), err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
