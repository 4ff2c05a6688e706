package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/condition"
)

func TestCheckEndpoint(t *testing.T) {
	type args struct {
		endpoint      string
		allowLoopback bool
		// ns is the provider's namespace (default team-a).
		ns string
	}
	refused := condition.ReasonEndpointAddressNotAllowed
	cases := map[string]struct {
		reason string
		args   args
		// want is the refusal's reason, or "" when the endpoint is honoured.
		want string
	}{
		"PublicName":           {reason: "An ordinary public endpoint is honoured.", args: args{endpoint: "https://localstack.example.com:4566"}, want: ""},
		"PrivateAddress":       {reason: "A private address outside the cluster (a VPC endpoint) is honoured.", args: args{endpoint: "http://10.20.30.40:4566"}, want: ""},
		"InstanceMetadata":     {reason: "The EC2 instance metadata address is link-local.", args: args{endpoint: "http://169.254.169.254/latest"}, want: refused},
		"InstanceMetadataLoop": {reason: "Allowing loopback does not open link-local.", args: args{endpoint: "http://169.254.169.254", allowLoopback: true}, want: refused},
		"LinkLocalIPv6":        {reason: "fe80::/10 is link-local.", args: args{endpoint: "http://[fe80::1]:80"}, want: refused},
		"MetadataIPv6":         {reason: "The EC2 metadata service's IPv6 address is refused.", args: args{endpoint: "http://[fd00:ec2::254]"}, want: refused},
		"MappedMetadata":       {reason: "An IPv4-mapped IPv6 form of the metadata address is refused.", args: args{endpoint: "http://[::ffff:169.254.169.254]"}, want: refused},
		"MetadataName":         {reason: "The metadata service's DNS name is refused.", args: args{endpoint: "http://instance-data.ec2.internal"}, want: refused},
		"Loopback":             {reason: "Loopback is refused by default.", args: args{endpoint: "http://127.0.0.1:4566"}, want: refused},
		"LoopbackOtherAddress": {reason: "All of 127.0.0.0/8 is loopback.", args: args{endpoint: "http://127.8.9.10:4566"}, want: refused},
		"LoopbackIPv6":         {reason: "::1 is loopback.", args: args{endpoint: "http://[::1]:4566"}, want: refused},
		"Localhost":            {reason: "localhost is loopback.", args: args{endpoint: "http://LocalHost.:4566"}, want: refused},
		"LoopbackAllowed":      {reason: "The administrator may allow loopback, as the sandbox does.", args: args{endpoint: "http://127.0.0.1:4566", allowLoopback: true}, want: ""},
		"LocalhostAllowed":     {reason: "localhost is allowed with loopback.", args: args{endpoint: "http://localhost:4566", allowLoopback: true}, want: ""},
		"Unspecified":          {reason: "0.0.0.0 reaches the operator's own host.", args: args{endpoint: "http://0.0.0.0:4566", allowLoopback: true}, want: refused},
		"DecimalIP":            {reason: "A decimal form of 127.0.0.1 is refused.", args: args{endpoint: "http://2130706433:4566"}, want: refused},
		"ShortIP":              {reason: "A short dotted form of 127.0.0.1 is refused.", args: args{endpoint: "http://127.1:4566"}, want: refused},
		"HexIP":                {reason: "A hexadecimal form of an address is refused.", args: args{endpoint: "http://0x7f.1:4566"}, want: refused},
		"KubernetesDefault":    {reason: "The API server's service name is refused.", args: args{endpoint: "https://kubernetes.default"}, want: refused},
		"ServiceSvc":           {reason: "A *.svc name is an in-cluster service.", args: args{endpoint: "http://vault.security.svc:8200"}, want: refused},
		"ServiceClusterLocal":  {reason: "A *.svc.cluster.local name is an in-cluster service.", args: args{endpoint: "http://vault.security.svc.cluster.local:8200"}, want: refused},
		"PodClusterLocal":      {reason: "Any *.cluster.local name is in the cluster.", args: args{endpoint: "http://10-1-2-3.pod.cluster.local"}, want: refused},
		"SingleLabel":          {reason: "A name without a dot is completed by the search list to an in-cluster service.", args: args{endpoint: "http://kubernetes"}, want: refused},
		"APIServer":            {reason: "The API server's own address is refused.", args: args{endpoint: "https://10.96.0.1"}, want: refused},
		"APIServerOtherScheme": {reason: "The API server is refused whatever the scheme, when the port is its own.", args: args{endpoint: "http://10.96.0.1:443"}, want: refused},
		"FileScheme":           {reason: "Only http and https are honoured.", args: args{endpoint: "file:///var/run/secrets/kubernetes.io/serviceaccount/token"}, want: refused},
		"UserInfo":             {reason: "An endpoint with user information is refused.", args: args{endpoint: "https://user:pass@aws.example.com"}, want: refused},
		"InClusterAllowed":     {reason: "The administrator may let a namespace name an in-cluster LocalStack, as the services guide does.", args: args{endpoint: "http://localstack:4566"}, want: ""},
		"InClusterAllowedSvc":  {reason: "A rule's pattern matches service names.", args: args{endpoint: "http://localstack.testing.svc.cluster.local:4566"}, want: ""},
		"InClusterOtherNS":     {reason: "A rule of another namespace does not apply.", args: args{endpoint: "http://localstack:4566", ns: "team-b"}, want: refused},
		"InClusterNotMetadata": {reason: "No rule opens a metadata service name.", args: args{endpoint: "http://instance-data:80"}, want: refused},
		"NoHost":               {reason: "An endpoint must name a host.", args: args{endpoint: "http://:4566"}, want: refused},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ten := &Tenancy{AllowEndpointOverride: true, AllowLoopbackEndpoints: tc.args.allowLoopback, APIServer: "https://10.96.0.1:443",
				InClusterEndpoints: []HostRule{{Namespace: "team-a", HostPattern: "localstack"}, {Namespace: "team-a", HostPattern: "localstack.*"},
					{Namespace: "*", HostPattern: "instance-data"}}}
			ns := tc.args.ns
			if ns == "" {
				ns = "team-a"
			}
			got := ""
			if err := ten.checkEndpoint(ns, tc.args.endpoint); err != nil {
				pe, ok := AsError(err)
				if !ok {
					t.Fatalf("checkEndpoint(%q) = %v, not a provider Error", tc.args.endpoint, err)
				}
				got = pe.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDialControl(t *testing.T) {
	cases := map[string]struct {
		reason        string
		address       string
		allowLoopback bool
		want          bool
	}{
		"Public":          {reason: "A public address is dialled.", address: "52.94.236.248:443", want: true},
		"Metadata":        {reason: "A name that resolves to the metadata address is refused when dialled.", address: "169.254.169.254:80", want: false},
		"MetadataIPv6":    {reason: "The IPv6 metadata address is refused when dialled.", address: "[fd00:ec2::254]:80", want: false},
		"Loopback":        {reason: "A name that resolves to loopback is refused by default.", address: "127.0.0.1:4566", want: false},
		"LoopbackAllowed": {reason: "Loopback is dialled when the administrator allows it.", address: "127.0.0.1:4566", allowLoopback: true, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ten := &Tenancy{AllowEndpointOverride: true, AllowLoopbackEndpoints: tc.allowLoopback}
			got := ten.dialControl("tcp", tc.address, nil) == nil
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
