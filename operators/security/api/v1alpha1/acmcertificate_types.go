package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// ACMCertificateSpec is the desired state of an ACM certificate: either a public certificate
// that ACM issues for domainName once its ownership is validated, or a certificate imported
// from a Kubernetes TLS Secret (importFrom).
// +kubebuilder:validation:XValidation:rule="has(self.domainName) != has(self.importFrom)",message="set exactly one of domainName (ACM issues the certificate) and importFrom (a certificate of your own in a TLS Secret)"
// +kubebuilder:validation:XValidation:rule="!has(self.importFrom) || [has(self.subjectAlternativeNames), has(self.validationMethod), has(self.domainValidationOptions), has(self.keyAlgorithm), has(self.certificateTransparencyLoggingPreference)].all(x, !x)",message="an imported certificate takes none of subjectAlternativeNames, validationMethod, domainValidationOptions, keyAlgorithm and certificateTransparencyLoggingPreference: its names and key are those of the certificate in the Secret"
// +kubebuilder:validation:XValidation:rule="has(self.domainName) == has(oldSelf.domainName)",message="a certificate cannot change between requested (domainName) and imported (importFrom); create a new ACMCertificate"
// +kubebuilder:validation:XValidation:rule="(has(self.subjectAlternativeNames) ? self.subjectAlternativeNames : []) == (has(oldSelf.subjectAlternativeNames) ? oldSelf.subjectAlternativeNames : [])",message="subjectAlternativeNames cannot change: ACM cannot change the names of a certificate; create a new ACMCertificate"
// +kubebuilder:validation:XValidation:rule="(has(self.validationMethod) ? self.validationMethod : 'DNS') == (has(oldSelf.validationMethod) ? oldSelf.validationMethod : 'DNS')",message="validationMethod cannot change once the certificate is requested; create a new ACMCertificate"
// +kubebuilder:validation:XValidation:rule="(has(self.keyAlgorithm) ? self.keyAlgorithm : 'RSA_2048') == (has(oldSelf.keyAlgorithm) ? oldSelf.keyAlgorithm : 'RSA_2048')",message="keyAlgorithm cannot change once the certificate is requested; create a new ACMCertificate"
// +kubebuilder:validation:XValidation:rule="(has(self.domainValidationOptions) ? self.domainValidationOptions : []) == (has(oldSelf.domainValidationOptions) ? oldSelf.domainValidationOptions : [])",message="domainValidationOptions cannot change once the certificate is requested; create a new ACMCertificate"
// +kubebuilder:validation:XValidation:rule="!has(self.domainValidationOptions) || (has(self.validationMethod) && self.validationMethod == 'EMAIL')",message="domainValidationOptions are for validationMethod EMAIL only"
// +kubebuilder:validation:XValidation:rule="!has(self.domainValidationOptions) || self.domainValidationOptions.all(o, o.domainName == self.domainName || (has(self.subjectAlternativeNames) && o.domainName in self.subjectAlternativeNames))",message="each domainValidationOptions entry names domainName or one of subjectAlternativeNames"
// +kubebuilder:validation:XValidation:rule="!(has(self.hostedZoneRef) && has(self.hostedZoneID))",message="set at most one of hostedZoneRef and hostedZoneID"
// +kubebuilder:validation:XValidation:rule="!(has(self.hostedZoneRef) || has(self.hostedZoneID)) || (has(self.domainName) && (!has(self.validationMethod) || self.validationMethod == 'DNS'))",message="hostedZoneRef and hostedZoneID are for requested certificates with validationMethod DNS: the operator writes their DNS validation records into the zone"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.hostedZoneID) || (has(self.hostedZoneID) && self.hostedZoneID == oldSelf.hostedZoneID)",message="hostedZoneID cannot change or go once set: the validation records the operator wrote are in that zone"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.hostedZoneRef) || (has(self.hostedZoneRef) && self.hostedZoneRef.name == oldSelf.hostedZoneRef.name)",message="hostedZoneRef cannot change or go once set: the validation records the operator wrote are in that zone"
type ACMCertificateSpec struct {
	shared.ManagedSpec `json:",inline"`

	// DomainName is the fully qualified domain name the certificate is requested for, for
	// example www.example.com, or *.example.com for every name directly under example.com. ACM
	// issues it once the ownership of every name is validated (validationMethod). At most 64
	// characters (give longer names in subjectAlternativeNames). It cannot change.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainName cannot change: ACM cannot change the names of a certificate; create a new ACMCertificate"
	DomainName string `json:"domainName,omitempty"`

	// SubjectAlternativeNames are further names the certificate covers, for example
	// example.com and api.example.com; each is validated like domainName. Up to 100 names
	// (domainName may be among them) of at most 253 characters; ACM's default quota allows 10.
	// They cannot change.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=253
	// +kubebuilder:validation:items:Pattern=`^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	SubjectAlternativeNames []string `json:"subjectAlternativeNames,omitempty"`

	// ValidationMethod is how ACM checks that you own the names: DNS (the default: create the
	// CNAME records that status.domainValidationOptions lists; ACM renews the certificate by
	// itself while they stay) or EMAIL (someone answers the mail ACM sends to the domain's
	// administrative addresses). It cannot change.
	// +optional
	// +kubebuilder:validation:Enum=DNS;EMAIL
	ValidationMethod string `json:"validationMethod,omitempty"`

	// DomainValidationOptions choose, for EMAIL validation, the domain whose administrative
	// addresses receive the validation mail of a name: the name itself (the default) or a
	// domain above it, for example example.com for www.example.com. They cannot change.
	// +optional
	// +listType=map
	// +listMapKey=domainName
	// +kubebuilder:validation:MaxItems=100
	DomainValidationOptions []CertificateDomainValidationOption `json:"domainValidationOptions,omitempty"`

	// KeyAlgorithm is the algorithm of the certificate's key pair: RSA_2048 (the default),
	// EC_prime256v1 or EC_secp384r1. It cannot change.
	// +optional
	// +kubebuilder:validation:Enum=RSA_2048;EC_prime256v1;EC_secp384r1
	KeyAlgorithm string `json:"keyAlgorithm,omitempty"`

	// CertificateTransparencyLoggingPreference is ENABLED (the default: the certificate is
	// recorded in public certificate transparency logs, which browsers expect) or DISABLED.
	// It may change at any time.
	// +optional
	// +kubebuilder:validation:Enum=ENABLED;DISABLED
	CertificateTransparencyLoggingPreference string `json:"certificateTransparencyLoggingPreference,omitempty"`

	// ImportFrom imports a certificate of your own (from another certificate authority, or
	// cert-manager) instead of requesting one from ACM. When the Secret's certificate changes
	// (renewed), it is imported again into the same ACM certificate, so that the load balancers
	// using it serve the new one.
	// +optional
	ImportFrom *ACMCertificateImport `json:"importFrom,omitempty"`

	// HostedZoneRef names a Route53HostedZone in this namespace (networking family), a public
	// zone that holds the certificate's names: the operator writes the DNS validation records ACM
	// asks for into it, and ACM issues the certificate without a hand step. A record that
	// already holds ACM's value is left as it is; one that holds another value is never
	// overwritten (the certificate reports it). The records the operator wrote stay while the
	// certificate exists (ACM renews through them) and go with the last ACMCertificate of the
	// namespace that uses them. The certificate waits until the zone is Ready.
	// +optional
	HostedZoneRef *shared.Reference `json:"hostedZoneRef,omitempty"`

	// HostedZoneID is a public Route 53 hosted zone, by id (Z...), for the validation records
	// as with hostedZoneRef, for a zone made outside this cluster. The operator writes into it
	// only when an object of this namespace made it, unless the cluster administrator lets the
	// namespace write into resources it does not own.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^Z[A-Z0-9]+$`
	HostedZoneID string `json:"hostedZoneID,omitempty"`
}

// CertificateDomainValidationOption names the domain that validates one name of a certificate
// by email.
// +kubebuilder:validation:XValidation:rule="self.domainName == self.validationDomain || self.domainName.endsWith('.' + self.validationDomain)",message="validationDomain is the name itself (without *.) or a domain above it"
type CertificateDomainValidationOption struct {
	// DomainName is domainName or one of subjectAlternativeNames.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	DomainName string `json:"domainName"`

	// ValidationDomain is the domain whose administrative addresses (admin@, administrator@,
	// hostmaster@, postmaster@ and webmaster@) receive the validation mail.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	ValidationDomain string `json:"validationDomain"`
}

// ACMCertificateImport says where the certificate to import is.
type ACMCertificateImport struct {
	// SecretRef names a Secret of type kubernetes.io/tls in this namespace, as cert-manager
	// writes them: tls.crt holds the PEM certificate followed by its chain (intermediate
	// certificates), tls.key the PEM private key (unencrypted), and the optional ca.crt the
	// certificate authority's certificate, added to the chain. The key goes to ACM only; it is
	// never logged nor copied into the status.
	SecretRef ACMCertificateSecretReference `json:"secretRef"`
}

// ACMCertificateSecretReference names a Secret in the certificate's namespace.
type ACMCertificateSecretReference struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// ACMCertificateStatus is the observed state of an ACM certificate.
type ACMCertificateStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ARN is the certificate's ARN, which a load balancer listener's certificateRef resolves
	// to.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// Status is ACM's status of the certificate: PENDING_VALIDATION (waiting for the
	// validation records or mail), ISSUED, INACTIVE, EXPIRED, VALIDATION_TIMED_OUT, REVOKED or
	// FAILED. The certificate is Ready once ISSUED.
	// +optional
	Status string `json:"status,omitempty"`

	// FailureReason is why ACM could not issue the certificate, when its status is FAILED, for
	// example CAA_ERROR or DOMAIN_NOT_ALLOWED.
	// +optional
	FailureReason string `json:"failureReason,omitempty"`

	// Type is AMAZON_ISSUED (requested) or IMPORTED.
	// +optional
	Type string `json:"type,omitempty"`

	// DomainName is the certificate's main name.
	// +optional
	DomainName string `json:"domainName,omitempty" output:""`

	// SubjectAlternativeNames are every name the certificate covers, domainName included.
	// +optional
	SubjectAlternativeNames []string `json:"subjectAlternativeNames,omitempty"`

	// DomainValidationOptions say, for each name of a requested certificate, how its
	// ownership is validated and whether it is: with DNS validation, the CNAME record to create
	// in the domain's DNS zone (by hand, or with a DNS tool that reads this status).
	// +optional
	DomainValidationOptions []CertificateDomainValidation `json:"domainValidationOptions,omitempty"`

	// KeyAlgorithm is the algorithm and size of the certificate's key, for example RSA_2048.
	// +optional
	KeyAlgorithm string `json:"keyAlgorithm,omitempty"`

	// Serial is the certificate's serial number, in hexadecimal bytes separated by colons.
	// +optional
	Serial string `json:"serial,omitempty"`

	// NotBefore is when the certificate becomes valid.
	// +optional
	NotBefore *metav1.Time `json:"notBefore,omitempty"`

	// NotAfter is when the certificate expires. ACM renews the certificates it issued (with DNS
	// validation, while the validation records stay); an imported certificate is renewed by
	// renewing the certificate in its Secret.
	// +optional
	NotAfter *metav1.Time `json:"notAfter,omitempty"`

	// InUseBy are the ARNs of the AWS resources, such as load balancers, that use the
	// certificate. ACM refuses to delete a certificate in use: the object is deleted once
	// nothing uses it any more.
	// +optional
	InUseBy []string `json:"inUseBy,omitempty"`

	// RenewalEligibility says whether ACM can renew the certificate by itself: ELIGIBLE or
	// INELIGIBLE (imported certificates, and certificates nothing uses).
	// +optional
	RenewalEligibility string `json:"renewalEligibility,omitempty"`

	// ImportedFingerprint is the SHA-256 of the certificate and chain (DER, not the key) last
	// imported from the Secret, "sha256:" and hexadecimal: a Secret whose certificate or chain
	// differs is imported again.
	// +optional
	ImportedFingerprint string `json:"importedFingerprint,omitempty"`

	// ValidationRecords are the names of the DNS validation records the operator wrote into
	// the hosted zone, which it removes when the certificate goes and no other ACMCertificate of
	// the namespace lists them.
	// +optional
	ValidationRecords []string `json:"validationRecords,omitempty"`
}

// CertificateDomainValidation is how one name of a requested certificate is validated.
type CertificateDomainValidation struct {
	// DomainName is the name validated.
	DomainName string `json:"domainName"`

	// ValidationMethod is DNS or EMAIL.
	// +optional
	ValidationMethod string `json:"validationMethod,omitempty"`

	// ValidationStatus is PENDING_VALIDATION, SUCCESS or FAILED.
	// +optional
	ValidationStatus string `json:"validationStatus,omitempty"`

	// ValidationDomain is the domain that validates the name (for EMAIL validation, the one
	// whose addresses receive the mail).
	// +optional
	ValidationDomain string `json:"validationDomain,omitempty"`

	// ResourceRecord is the DNS record to create to validate the name, with DNS validation.
	// +optional
	ResourceRecord *CertificateResourceRecord `json:"resourceRecord,omitempty"`

	// ValidationEmails are the addresses ACM mails to validate the name, with EMAIL
	// validation.
	// +optional
	ValidationEmails []string `json:"validationEmails,omitempty"`
}

// CertificateResourceRecord is a DNS record that validates a name.
type CertificateResourceRecord struct {
	// Name is the record's name, for example _a79865eb4cd1a6ab990a45779b4e0b96.www.example.com.
	Name string `json:"name"`

	// Type is the record's type, CNAME.
	Type string `json:"type"`

	// Value is the record's value, for example _424c7224e9b0146f9a8808af955727d0.acm-validations.aws.
	Value string `json:"value"`
}

// ACMCertificate is an AWS Certificate Manager certificate for TLS: requested from ACM with DNS
// or email validation, or imported from a Kubernetes TLS Secret. Load balancer listeners name
// it with certificateRef.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=cert,categories={aws,aws-security}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="DOMAIN",type=string,JSONPath=`.status.domainName`
// +kubebuilder:printcolumn:name="STATUS",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="NOT AFTER",type=string,JSONPath=`.status.notAfter`
// +kubebuilder:printcolumn:name="ARN",type=string,JSONPath=`.status.arn`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type ACMCertificate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ACMCertificateSpec   `json:"spec"`
	Status ACMCertificateStatus `json:"status,omitempty"`
}

// ACMCertificateList is a list of ACMCertificates.
// +kubebuilder:object:root=true
type ACMCertificateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ACMCertificate `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (c *ACMCertificate) GetManagedSpec() *shared.ManagedSpec { return &c.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (c *ACMCertificate) GetManagedStatus() *shared.ManagedStatus { return &c.Status.ManagedStatus }
