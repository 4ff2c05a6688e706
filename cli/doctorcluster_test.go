package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// This file holds what the doctor test does to a control plane that has no controllers: it
// writes the statuses kube-controller-manager, the kubelet and the operators would write.

// operatorDeployment returns the Deployment infractl install made for family.
func operatorDeployment(t *testing.T, env *testenv.Env, family string) *appsv1.Deployment {
	t.Helper()
	dep := &appsv1.Deployment{}
	if err := env.Client.Get(context.Background(), types.NamespacedName{Namespace: "infra-operator", Name: "infra-operator-" + family}, dep); err != nil {
		t.Fatalf("get the %s Deployment: %v", family, err)
	}
	return dep
}

// setAvailable writes the status of dep as the Deployment controller would: one available
// replica, or none.
func setAvailable(t *testing.T, env *testenv.Env, dep *appsv1.Deployment, available bool) {
	t.Helper()
	cond := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable",
		Message: "Deployment has minimum availability.", LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}
	var n int32 = 1
	if !available {
		n, cond.Status, cond.Reason, cond.Message = 0, corev1.ConditionFalse, "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
	}
	dep.Status = appsv1.DeploymentStatus{ObservedGeneration: dep.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: n,
		AvailableReplicas: n, UnavailableReplicas: 1 - n, Conditions: []appsv1.DeploymentCondition{cond}}
	if err := env.Client.Status().Update(context.Background(), dep); err != nil {
		t.Fatalf("write the status of Deployment %s: %v", dep.Name, err)
	}
}

// serveMetrics stands in for dep's operator pod behind its metrics Service: an HTTP server on
// this machine's address (the API server proxies only to pod addresses, never to loopback), a
// Pod whose status holds that address, and an EndpointSlice of the Service naming it. Like the
// operator, a secure server answers the proxy's unauthenticated request with 401; a plain one
// serves metrics. It waits until the API server's proxy reaches the server.
func serveMetrics(t *testing.T, env *testenv.Env, dep *appsv1.Deployment, secure bool) {
	t.Helper()
	ctx := context.Background()
	ip := hostIP(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if secure {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		fmt.Fprintln(w, "# HELP controller_runtime_reconcile_total Total number of reconciliations per controller")
	}))
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatalf("listen on %s: %v", ip, err)
	}
	srv.Listener.Close()
	srv.Listener = ln
	if secure {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	port := ln.Addr().(*net.TCPAddr).Port

	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: dep.Namespace, Name: dep.Name + "-pod", Labels: dep.Spec.Selector.MatchLabels},
		Spec: corev1.PodSpec{ServiceAccountName: dep.Spec.Template.Spec.ServiceAccountName,
			Containers: []corev1.Container{{Name: "operator", Image: "operator"}}},
	}
	if err := env.Client.Create(ctx, pod); err != nil {
		t.Fatalf("create the operator's Pod: %v", err)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, PodIPs: []corev1.PodIP{{IP: ip}}}
	if err := env.Client.Status().Update(ctx, pod); err != nil {
		t.Fatalf("write the operator Pod's address: %v", err)
	}
	service := dep.Name + "-metrics"
	ready, portName, portNumber, protocol := true, "metrics", int32(port), corev1.ProtocolTCP
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: dep.Namespace, Name: service + "-test", Labels: map[string]string{discoveryv1.LabelServiceName: service}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints: []discoveryv1.Endpoint{{Addresses: []string{ip}, Conditions: discoveryv1.EndpointConditions{Ready: &ready},
			TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name}}},
		Ports: []discoveryv1.EndpointPort{{Name: &portName, Port: &portNumber, Protocol: &protocol}},
	}
	if err := env.Client.Create(ctx, slice); err != nil {
		t.Fatalf("create the metrics EndpointSlice: %v", err)
	}
	cs, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	scheme := "http"
	if secure {
		scheme = "https"
	}
	var last error
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, last = cs.CoreV1().Services(dep.Namespace).ProxyGet(scheme, service, "metrics", "metrics", nil).DoRaw(ctx)
		// The secure server's 401 is plain text, which client-go reports as Unauthorized.
		if last == nil || (secure && apierrors.IsUnauthorized(last)) {
			return
		}
	}
	t.Fatalf("the API server's proxy does not reach the metrics server of %s at %s:%d: %v", dep.Name, ip, port, last)
}

// hostIP returns an IPv4 address of this machine other than loopback and link-local, and
// skips the test on a machine that has none.
func hostIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatalf("list this machine's addresses: %v", err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no IPv4 address besides loopback: the API server's service proxy cannot reach a test server, so the metrics check cannot be tested here")
	return ""
}

// setConditions writes the status conditions of u (an object of the infra-operator group), as
// its operator would.
func setConditions(t *testing.T, env *testenv.Env, u *unstructured.Unstructured, conds ...metav1.Condition) {
	t.Helper()
	var list []any
	for _, c := range conds {
		c.LastTransitionTime = metav1.Now()
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&c)
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, m)
	}
	if err := unstructured.SetNestedSlice(u.Object, list, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Status().Update(context.Background(), u); err != nil {
		t.Fatalf("write the status of %s %s: %v", u.GetKind(), u.GetName(), err)
	}
}

// managed creates an object of the infra-operator group from its spec.
func managed(t *testing.T, env *testenv.Env, kind, namespace, name string, spec map[string]any) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	u.SetAPIVersion(v1alpha1.GroupVersion.String())
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	if err := env.Client.Create(context.Background(), u); err != nil {
		t.Fatalf("create %s %s: %v", kind, name, err)
	}
	return u
}

// impersonating writes a copy of kubeconfig whose user acts as user, who has no permission.
func impersonating(t *testing.T, kubeconfig, user string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range cfg.AuthInfos {
		auth.Impersonate = user
	}
	path := filepath.Join(t.TempDir(), "kubeconfig-"+user)
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeValues writes chart values into a file and returns its path.
func writeValues(t *testing.T, values string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "values.yaml")
	if err := os.WriteFile(path, []byte(values), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
