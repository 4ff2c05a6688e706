package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// CloudFrontDistributionSpec is the desired state of a CloudFront distribution: where it
// fetches content (origins), how it caches and serves each path (cache behaviours), and the
// names and certificate viewers reach it by.
// +kubebuilder:validation:XValidation:rule="!has(self.aliases) || has(self.viewerCertificate)",message="aliases need a viewerCertificate (acmCertificateRef or acmCertificateARN, in us-east-1) that covers them"
// +kubebuilder:validation:XValidation:rule="self.origins.exists(o, o.id == self.defaultCacheBehavior.targetOriginID)",message="defaultCacheBehavior.targetOriginID must name one of origins[].id"
// +kubebuilder:validation:XValidation:rule="!has(self.orderedCacheBehaviors) || self.orderedCacheBehaviors.all(b, self.origins.exists(o, o.id == b.targetOriginID))",message="each orderedCacheBehaviors[].targetOriginID must name one of origins[].id"
type CloudFrontDistributionSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Comment describes the distribution, at most 128 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Comment string `json:"comment,omitempty"`

	// Enabled says whether the distribution serves requests (true, the default). A
	// distribution is disabled before it is deleted.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// Origins are where the distribution fetches content: each a domain name (a web server, a
	// bucket website endpoint), an ALB of the networking family by reference, or an S3Bucket of
	// the data family by reference (read through an origin access control). At least one, at
	// most 25, each with an id that cache behaviours name.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=25
	Origins []DistributionOrigin `json:"origins"`

	// DefaultCacheBehavior is how requests that no ordered cache behaviour matches are served.
	DefaultCacheBehavior CacheBehaviorSettings `json:"defaultCacheBehavior"`

	// OrderedCacheBehaviors are how requests whose path matches a pattern are served, the
	// first match winning, for example /api/* sent to another origin without caching.
	// +optional
	// +listType=map
	// +listMapKey=pathPattern
	// +kubebuilder:validation:MaxItems=25
	OrderedCacheBehaviors []OrderedCacheBehavior `json:"orderedCacheBehaviors,omitempty"`

	// Aliases are the alternate domain names (CNAMEs) viewers reach the distribution by, for
	// example www.example.com; they need a viewerCertificate that covers them, and are unique
	// across every AWS account.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=253
	// +kubebuilder:validation:items:Pattern=`^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	Aliases []string `json:"aliases,omitempty"`

	// ViewerCertificate is the ACM certificate served to viewers who use the aliases; without
	// it the distribution serves CloudFront's certificate for its *.cloudfront.net name.
	// +optional
	ViewerCertificate *ViewerCertificate `json:"viewerCertificate,omitempty"`

	// PriceClass chooses the edge locations that serve the distribution, and so its price:
	// PriceClass_All (the default), PriceClass_200 or PriceClass_100.
	// +optional
	// +kubebuilder:validation:Enum=PriceClass_All;PriceClass_200;PriceClass_100
	PriceClass string `json:"priceClass,omitempty"`

	// WebACLID is the AWS WAF web ACL that filters the distribution's requests: the ARN of a
	// WAFv2 web ACL of scope CLOUDFRONT, or the id of a WAF Classic one. Empty: none.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	WebACLID string `json:"webACLID,omitempty"`

	// Logging writes the distribution's standard access logs to an S3 bucket.
	// +optional
	Logging *DistributionLogging `json:"logging,omitempty"`

	// HTTPVersion is the highest HTTP version viewers may use: http1.1, http2 (the default),
	// http3 or http2and3.
	// +optional
	// +kubebuilder:validation:Enum=http1.1;http2;http3;http2and3
	HTTPVersion string `json:"httpVersion,omitempty"`

	// DefaultRootObject is the object served for a request of the root URL, for example
	// index.html (no leading slash). Empty: none.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^/].*$`
	DefaultRootObject string `json:"defaultRootObject,omitempty"`
}

// DistributionOrigin is one place a distribution fetches content from.
// +kubebuilder:validation:XValidation:rule="[has(self.domainName), has(self.albRef), has(self.s3BucketRef)].filter(x, x).size() == 1",message="set exactly one of domainName, albRef and s3BucketRef"
// +kubebuilder:validation:XValidation:rule="!has(self.s3BucketRef) || !(has(self.protocolPolicy) || has(self.httpPort) || has(self.httpsPort))",message="protocolPolicy, httpPort and httpsPort are for domainName and albRef origins: remove them from an s3BucketRef origin, which CloudFront reaches over HTTPS with signed requests"
type DistributionOrigin struct {
	// ID names the origin for cache behaviours' targetOriginID; unique in the distribution.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	ID string `json:"id"`

	// DomainName is the origin's DNS name, for example origin.example.com.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	DomainName string `json:"domainName,omitempty"`

	// ALBRef names an ALB in this namespace (networking family) whose DNS name is the origin;
	// the distribution waits until the ALB is Ready.
	// +optional
	ALBRef *shared.Reference `json:"albRef,omitempty"`

	// S3BucketRef names an S3Bucket in this namespace (data family, in the provider's region)
	// whose content the distribution serves; the distribution waits until the bucket is Ready.
	// CloudFront reads the bucket through an origin access control the distribution makes and
	// owns (status.originAccessControlID), and the bucket's policy gets a statement (its Sid
	// starts with InfraOperatorCloudFront) that lets this distribution, and nothing else, read
	// the bucket's objects; the statement goes when the origin or the distribution does. The
	// bucket needs no public access.
	// +optional
	S3BucketRef *shared.Reference `json:"s3BucketRef,omitempty"`

	// S3BucketName is the name of the bucket s3BucketRef resolves to, filled in memory while
	// the distribution is applied; never stored.
	S3BucketName string `json:"-"`

	// OriginPath is a path CloudFront puts before every request's path at the origin, for
	// example /production; it begins with a slash and does not end with one.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^/.*[^/]$`
	OriginPath string `json:"originPath,omitempty"`

	// ProtocolPolicy is how CloudFront connects to a domainName or albRef origin: https-only
	// (the default), http-only, or match-viewer (the protocol the viewer used).
	// +optional
	// +kubebuilder:validation:Enum=http-only;https-only;match-viewer
	ProtocolPolicy string `json:"protocolPolicy,omitempty"`

	// HTTPPort is the HTTP port of a domainName or albRef origin, 80 by default.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	HTTPPort int32 `json:"httpPort,omitempty"`

	// HTTPSPort is the HTTPS port of a domainName or albRef origin, 443 by default.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	HTTPSPort int32 `json:"httpsPort,omitempty"`
}

// CacheBehaviorSettings is how a distribution serves the requests a cache behaviour matches.
// +kubebuilder:validation:XValidation:rule="!has(self.allowedMethods) || (self.allowedMethods.size() == 2 && 'GET' in self.allowedMethods && 'HEAD' in self.allowedMethods) || (self.allowedMethods.size() == 3 && ['GET', 'HEAD', 'OPTIONS'].all(m, m in self.allowedMethods)) || self.allowedMethods.size() == 7",message="allowedMethods must be [GET, HEAD], [GET, HEAD, OPTIONS] or all seven methods, as CloudFront allows"
type CacheBehaviorSettings struct {
	// TargetOriginID is the id of the origin (origins[].id) requests are sent to.
	// +kubebuilder:validation:MinLength=1
	TargetOriginID string `json:"targetOriginID"`

	// ViewerProtocolPolicy is what viewers may use: redirect-to-https (the default: HTTP is
	// redirected), https-only, or allow-all.
	// +optional
	// +kubebuilder:default=redirect-to-https
	// +kubebuilder:validation:Enum=allow-all;https-only;redirect-to-https
	ViewerProtocolPolicy string `json:"viewerProtocolPolicy,omitempty"`

	// AllowedMethods are the HTTP methods CloudFront accepts and forwards: GET and HEAD (the
	// default), GET, HEAD and OPTIONS, or all seven (with PUT, POST, PATCH and DELETE). GET and
	// HEAD answers are cached.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=7
	// +kubebuilder:validation:items:MaxLength=7
	// +kubebuilder:validation:items:Enum=GET;HEAD;OPTIONS;PUT;POST;PATCH;DELETE
	AllowedMethods []string `json:"allowedMethods,omitempty"`

	// Compress serves compressed files to viewers that accept them (true, the default).
	// +optional
	// +kubebuilder:default=true
	Compress *bool `json:"compress,omitempty"`

	// CachePolicy is the name of the AWS managed cache policy, with or without its "Managed-"
	// prefix, for example CachingOptimized (the default) or CachingDisabled.
	// +optional
	// +kubebuilder:default=Managed-CachingOptimized
	// +kubebuilder:validation:MaxLength=128
	CachePolicy string `json:"cachePolicy,omitempty"`

	// OriginRequestPolicy is the name of the AWS managed origin request policy, with or
	// without its "Managed-" prefix, for example AllViewer: what of the viewer's request goes
	// to the origin beyond what the cache policy includes. Empty: none.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	OriginRequestPolicy string `json:"originRequestPolicy,omitempty"`
}

// OrderedCacheBehavior is a cache behaviour for the requests whose path matches a pattern.
type OrderedCacheBehavior struct {
	// PathPattern is the request paths the behaviour matches, for example /images/*.jpg
	// (* and ? wildcards); unique in the distribution.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	PathPattern string `json:"pathPattern"`

	CacheBehaviorSettings `json:",inline"`
}

// ViewerCertificate is the certificate a distribution serves for its aliases: an ACM
// certificate in us-east-1, as CloudFront requires, served with SNI.
// +kubebuilder:validation:XValidation:rule="has(self.acmCertificateRef) != has(self.acmCertificateARN)",message="set exactly one of acmCertificateRef and acmCertificateARN"
type ViewerCertificate struct {
	// ACMCertificateRef names an ACMCertificate in this namespace (security family), whose
	// provider's region must be us-east-1; the distribution waits until it is issued.
	// +optional
	ACMCertificateRef *shared.Reference `json:"acmCertificateRef,omitempty"`

	// ACMCertificateARN is the ARN of an issued ACM certificate in us-east-1 that covers the
	// aliases.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate/.+$`
	ACMCertificateARN string `json:"acmCertificateARN,omitempty"`

	// MinimumProtocolVersion is the oldest TLS version viewers may use, TLSv1.2_2021 by
	// default.
	// +optional
	// +kubebuilder:default=TLSv1.2_2021
	// +kubebuilder:validation:Enum=TLSv1;TLSv1_2016;TLSv1.1_2016;TLSv1.2_2018;TLSv1.2_2019;TLSv1.2_2021;TLSv1.3_2025
	MinimumProtocolVersion string `json:"minimumProtocolVersion,omitempty"`
}

// DistributionLogging is where a distribution writes its standard access logs.
type DistributionLogging struct {
	// Bucket is the domain name of the S3 bucket that receives the logs, for example
	// my-logs.s3.amazonaws.com; the bucket must allow CloudFront to write (ACLs enabled).
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\.s3(\.[a-z0-9-]+)?\.amazonaws\.com$`
	Bucket string `json:"bucket"`

	// Prefix is put before the name of every log file, for example cdn/. Empty: none.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	Prefix string `json:"prefix,omitempty"`

	// IncludeCookies logs the cookies of each request (false by default).
	// +optional
	IncludeCookies bool `json:"includeCookies,omitempty"`
}

// CloudFrontDistributionStatus is the observed state of a CloudFront distribution.
type CloudFrontDistributionStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ID is the distribution's id, for example E2QWRUHAPOMQZL.
	// +optional
	ID string `json:"id,omitempty" output:""`

	// ARN is the distribution's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// DomainName is the distribution's own name, for example d111111abcdef8.cloudfront.net:
	// point the aliases' DNS records at it.
	// +optional
	DomainName string `json:"domainName,omitempty" output:""`

	// Status is InProgress while a change is being deployed to the edge locations, then
	// Deployed.
	// +optional
	Status string `json:"status,omitempty"`

	// ETag is the version of the distribution's configuration last read, which every change
	// names (If-Match).
	// +optional
	ETag string `json:"etag,omitempty"`

	// OriginAccessControlID is the id of the origin access control the distribution made for
	// its s3BucketRef origins (S3, requests always signed with SigV4). It stays while the
	// distribution exists, even without S3 origins, and is deleted right after the
	// distribution. Empty while the distribution has never had an S3 origin.
	// +optional
	OriginAccessControlID string `json:"originAccessControlID,omitempty"`
}

// CloudFrontDistribution is an Amazon CloudFront distribution: a content delivery network in
// front of web servers, buckets or load balancers.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=cfd,categories={aws,aws-edge}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="DOMAIN",type=string,JSONPath=`.status.domainName`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.id`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type CloudFrontDistribution struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CloudFrontDistributionSpec   `json:"spec"`
	Status CloudFrontDistributionStatus `json:"status,omitempty"`
}

// CloudFrontDistributionList is a list of CloudFrontDistributions.
// +kubebuilder:object:root=true
type CloudFrontDistributionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CloudFrontDistribution `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (d *CloudFrontDistribution) GetManagedSpec() *shared.ManagedSpec { return &d.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (d *CloudFrontDistribution) GetManagedStatus() *shared.ManagedStatus {
	return &d.Status.ManagedStatus
}
