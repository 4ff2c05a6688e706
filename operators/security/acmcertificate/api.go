package acmcertificate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/acm"
)

// acmAPI is the part of the ACM API the driver uses.
type acmAPI interface {
	RequestCertificate(ctx context.Context, in *acm.RequestCertificateInput, opts ...func(*acm.Options)) (*acm.RequestCertificateOutput, error)
	ImportCertificate(ctx context.Context, in *acm.ImportCertificateInput, opts ...func(*acm.Options)) (*acm.ImportCertificateOutput, error)
	GetCertificate(ctx context.Context, in *acm.GetCertificateInput, opts ...func(*acm.Options)) (*acm.GetCertificateOutput, error)
	DescribeCertificate(ctx context.Context, in *acm.DescribeCertificateInput, opts ...func(*acm.Options)) (*acm.DescribeCertificateOutput, error)
	ListCertificates(ctx context.Context, in *acm.ListCertificatesInput, opts ...func(*acm.Options)) (*acm.ListCertificatesOutput, error)
	UpdateCertificateOptions(ctx context.Context, in *acm.UpdateCertificateOptionsInput, opts ...func(*acm.Options)) (*acm.UpdateCertificateOptionsOutput, error)
	DeleteCertificate(ctx context.Context, in *acm.DeleteCertificateInput, opts ...func(*acm.Options)) (*acm.DeleteCertificateOutput, error)
	ListTagsForCertificate(ctx context.Context, in *acm.ListTagsForCertificateInput, opts ...func(*acm.Options)) (*acm.ListTagsForCertificateOutput, error)
	AddTagsToCertificate(ctx context.Context, in *acm.AddTagsToCertificateInput, opts ...func(*acm.Options)) (*acm.AddTagsToCertificateOutput, error)
	RemoveTagsFromCertificate(ctx context.Context, in *acm.RemoveTagsFromCertificateInput, opts ...func(*acm.Options)) (*acm.RemoveTagsFromCertificateOutput, error)
}

var _ acmAPI = (*acm.Client)(nil)
