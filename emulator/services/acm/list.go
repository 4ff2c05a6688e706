package acm

import (
	"cmp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultKeyTypes are the key algorithms ListCertificates lists when its request names none
// (Filters, keyTypes: "Default filtering returns only RSA_1024 and RSA_2048 certificates").
var defaultKeyTypes = []types.KeyAlgorithm{types.KeyAlgorithmRsa1024, types.KeyAlgorithmRsa2048}

// listed reports whether a certificate passes a ListCertificates request's filters.
func listed(c *certificate, in *acm.ListCertificatesInput) bool {
	if len(in.CertificateStatuses) > 0 && !slices.Contains(in.CertificateStatuses, c.status) {
		return false
	}
	keyTypes := defaultKeyTypes
	f := in.Includes
	if f != nil && len(f.KeyTypes) > 0 {
		keyTypes = f.KeyTypes
	}
	if !slices.Contains(keyTypes, c.algorithm) || c.domain == "" {
		return false
	}
	if f == nil {
		return true
	}
	if len(f.KeyUsage) > 0 && !slices.ContainsFunc(c.keyUsages, func(u types.KeyUsageName) bool {
		return slices.Contains(f.KeyUsage, u) || slices.Contains(f.KeyUsage, types.KeyUsageNameAny)
	}) {
		return false
	}
	if len(f.ExtendedKeyUsage) > 0 && !slices.ContainsFunc(c.extUsages, func(u types.ExtendedKeyUsage) bool {
		return slices.Contains(f.ExtendedKeyUsage, u.Name) || slices.Contains(f.ExtendedKeyUsage, types.ExtendedKeyUsageNameAny)
	}) {
		return false
	}
	if f.ExportOption != "" && c.options.Export != f.ExportOption {
		return false
	}
	return true
}

// checkList returns the error for a ListCertificates request with an unknown status, key
// algorithm, sort or page size.
func checkList(in *acm.ListCertificatesInput) (size int, err error) {
	for _, s := range in.CertificateStatuses {
		if !slices.Contains(s.Values(), s) {
			return 0, validation("1 validation error detected: Value '[%s]' at 'certificateStatuses' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: %v]", s, s.Values())
		}
	}
	if f := in.Includes; f != nil {
		for _, k := range f.KeyTypes {
			if !slices.Contains(k.Values(), k) {
				return 0, validation("1 validation error detected: Value '[%s]' at 'includes.keyTypes' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: %v]", k, k.Values())
			}
		}
	}
	if (in.SortBy == "") != (in.SortOrder == "") {
		return 0, validation("SortBy and SortOrder must be specified together.")
	}
	if in.SortBy != "" && in.SortBy != types.SortByCreatedAt {
		return 0, validation("1 validation error detected: Value '%s' at 'sortBy' failed to satisfy constraint: Member must satisfy enum value set: [CREATED_AT]", in.SortBy)
	}
	if in.SortOrder != "" && !slices.Contains(in.SortOrder.Values(), in.SortOrder) {
		return 0, validation("1 validation error detected: Value '%s' at 'sortOrder' failed to satisfy constraint: Member must satisfy enum value set: [ASCENDING, DESCENDING]", in.SortOrder)
	}
	size = 1000
	if m := in.MaxItems; m != nil {
		if *m < 1 || *m > 1000 {
			return 0, validation("1 validation error detected: Value '%d' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 1000", *m)
		}
		size = int(*m)
	}
	return size, nil
}

// listCertificates lists the certificates of the region that pass the request's filters, by pages.
func (b *Backend) listCertificates(call *core.Call, in *acm.ListCertificatesInput) (*acm.ListCertificatesOutput, error) {
	size, err := checkList(in)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*acm.ListCertificatesOutput, error) {
		var certs []*certificate
		for _, c := range r.certs {
			if call.Now.Before(c.readableAt) {
				continue
			}
			c.settle(call.Now)
			if listed(c, in) {
				certs = append(certs, c)
			}
		}
		// Oldest first (by CreatedAt, or ImportedAt for imported certificates), then by ARN.
		slices.SortFunc(certs, func(x, y *certificate) int {
			c := cmp.Or(x.since().Compare(y.since()), strings.Compare(x.arn, y.arn))
			if in.SortOrder == types.SortOrderDescending {
				return -c
			}
			return c
		})
		page, next, ok := core.Page(certs, aws.ToString(in.NextToken), size)
		if !ok {
			return nil, core.Errorf("InvalidArgsException", "The NextToken %s is not valid.", aws.ToString(in.NextToken))
		}
		out := &acm.ListCertificatesOutput{CertificateSummaryList: []types.CertificateSummary{}}
		for _, c := range page {
			out.CertificateSummaryList = append(out.CertificateSummaryList, c.summary())
		}
		if next != "" {
			out.NextToken = aws.String(next)
		}
		return out, nil
	})
}
