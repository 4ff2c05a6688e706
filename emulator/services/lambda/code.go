package lambda

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxZipFile is the largest deployment package a request may carry: 50 MB zipped when uploaded
// through the Lambda API (Lambda quotas, Deployment package (.zip file archive) size). Larger
// packages go through S3.
const maxZipFile = 50 << 20

// maxRequest is the request size Lambda states when it refuses a larger request, such as one
// carrying a larger package: the base64 form of 50 MB. The router refuses a body of this size or
// more before it is read (Service.MaxBody).
const maxRequest = 69905067

// tooLarge is Lambda's answer to a request of maxRequest bytes or more (HTTP 413).
func tooLarge(op string) *core.APIError {
	return &core.APIError{Code: "RequestEntityTooLargeException", Status: http.StatusRequestEntityTooLarge,
		Message: fmt.Sprintf("Request must be smaller than %d bytes for the %s operation", maxRequest, op)}
}

// imageURI matches the Amazon ECR image URIs a function may be created from:
// <account>.dkr.ecr.<region>.amazonaws.com/<repository>, with a tag or a digest.
var imageURI = regexp.MustCompile(`^\d{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(\.cn)?/[a-z0-9][a-z0-9._/-]*(:[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127}|@sha256:[0-9a-f]{64})?$`)

// s3Messages are S3's messages for the error codes reading a package can give, as Lambda
// repeats them.
var s3Messages = map[string]string{
	"NoSuchBucket":  "The specified bucket does not exist",
	"NoSuchKey":     "The specified key does not exist.",
	"NoSuchVersion": "The specified version does not exist.",
}

// source is a checked deployment package with the SHA-256 and size Lambda reports for it.
type source struct {
	code types.FunctionCode
	sha  string
	size int64
}

// checkCode validates the deployment package of a function of packageType and measures it: for
// a ZIP archive, uploaded or read from the emulated S3 (of the given object version, which must
// exist), CodeSha256 is the base64 SHA-256 of its bytes and CodeSize their number; for a
// container image, CodeSha256 is the image digest (the one in the URI, or for a tag, which the
// emulator cannot resolve without ECR, the hex SHA-256 of the URI) and CodeSize 0. op names the
// operation in Lambda's messages; update words the package-type errors as UpdateFunctionCode
// does.
func (b *Backend) checkCode(op string, packageType types.PackageType, code *types.FunctionCode, update bool) (source, error) {
	if code == nil {
		return source{}, invalidParameter("Please provide a source for function code.")
	}
	inS3 := code.S3Bucket != nil || code.S3Key != nil || code.S3ObjectVersion != nil
	if packageType == types.PackageTypeImage {
		if code.ZipFile != nil || inS3 || code.ImageUri == nil {
			if update {
				return source{}, invalidParameter("Please provide ImageUri when updating a function with packageType Image.")
			}
			return source{}, invalidParameter("Please provide ImageUri when the intended function PackageType is Image.")
		}
		uri := aws.ToString(code.ImageUri)
		if !imageURI.MatchString(uri) {
			return source{}, invalidParameter("Source image %s is not valid. Provide a valid source image.", uri)
		}
		digest, found := strings.CutPrefix(uri[strings.LastIndex(uri, "@")+1:], "sha256:")
		if !found {
			sum := sha256.Sum256([]byte(uri))
			digest = hex.EncodeToString(sum[:])
		}
		return source{code: types.FunctionCode{ImageUri: code.ImageUri}, sha: digest}, nil
	}
	if code.ImageUri != nil {
		if update {
			return source{}, invalidParameter("Please don't provide ImageUri when updating a function with packageType Zip.")
		}
		return source{}, invalidParameter("Please don't provide ImageUri when the intended function PackageType is Zip.")
	}
	var content []byte
	switch {
	case code.ZipFile != nil && inS3:
		return source{}, invalidParameter("Please provide only one source for function code: either ZipFile, or S3Bucket and S3Key.")
	case code.ZipFile != nil:
		if len(code.ZipFile) > maxZipFile {
			return source{}, tooLarge(op)
		}
		content = code.ZipFile
	case inS3:
		if code.S3Bucket == nil || code.S3Key == nil {
			return source{}, invalidParameter("Please provide a source for function code: both S3Bucket and S3Key are required.")
		}
		body, errCode := b.code.Object(*code.S3Bucket, *code.S3Key, aws.ToString(code.S3ObjectVersion))
		if errCode != "" {
			return source{}, invalidParameter("Error occurred while GetObject. S3 Error Code: %s. S3 Error Message: %s", errCode, s3Messages[errCode])
		}
		content = body
	default:
		return source{}, invalidParameter("Please provide a source for function code.")
	}
	sum := sha256.Sum256(content)
	kept := types.FunctionCode{S3Bucket: code.S3Bucket, S3Key: code.S3Key, S3ObjectVersion: code.S3ObjectVersion}
	return source{code: kept, sha: base64.StdEncoding.EncodeToString(sum[:]), size: int64(len(content))}, nil
}

// location is where GetFunction says a deployment package can be downloaded: a (not really
// presigned) S3 URL for a ZIP archive, the image for a container image.
func location(call *core.Call, cfg types.FunctionConfiguration, code types.FunctionCode) *types.FunctionCodeLocation {
	if code.ImageUri != nil {
		uri := aws.ToString(code.ImageUri)
		repository, _, digested := strings.Cut(uri, "@")
		if i := strings.LastIndex(repository, ":"); !digested && i > strings.LastIndex(repository, "/") {
			repository = repository[:i]
		}
		return &types.FunctionCodeLocation{RepositoryType: aws.String("ECR"), ImageUri: code.ImageUri,
			ResolvedImageUri: aws.String(repository + "@sha256:" + aws.ToString(cfg.CodeSha256))}
	}
	return &types.FunctionCodeLocation{RepositoryType: aws.String("S3"),
		Location: aws.String("https://awslambda-" + call.Region + "-tasks.s3." + call.Region + ".amazonaws.com/snapshots/" + call.Account + "/" +
			aws.ToString(cfg.FunctionName) + "-" + aws.ToString(cfg.RevisionId))}
}

// updateFunctionCode replaces the deployment package of $LATEST, from the same sources as
// CreateFunction and of the same package type, and may change the architecture; Publish also
// publishes a version of the result. DryRun checks the request and changes nothing.
func (b *Backend) updateFunctionCode(call *core.Call, in *lambda.UpdateFunctionCodeInput) (*lambda.UpdateFunctionCodeOutput, error) {
	if err := checkArchitectures(in.Architectures); err != nil {
		return nil, err
	}
	code := &types.FunctionCode{ZipFile: in.ZipFile, S3Bucket: in.S3Bucket, S3Key: in.S3Key, S3ObjectVersion: in.S3ObjectVersion, ImageUri: in.ImageUri}
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.UpdateFunctionCodeOutput, error) {
		if err := checkRevision(in.RevisionId, f.cfg.RevisionId); err != nil {
			return nil, err
		}
		// Reading the package from S3 under the lock is safe: S3 never calls into Lambda.
		src, err := b.checkCode("UpdateFunctionCode", f.cfg.PackageType, code, true)
		if err != nil {
			return nil, err
		}
		out := &lambda.UpdateFunctionCodeOutput{}
		if in.DryRun {
			copyFields(out, f.cfg)
			return out, nil
		}
		if err := f.startUpdate(call); err != nil {
			return nil, err
		}
		f.code, f.cfg.CodeSha256, f.cfg.CodeSize = src.code, aws.String(src.sha), src.size
		if len(in.Architectures) > 0 {
			f.cfg.Architectures = in.Architectures
		}
		f.revision++
		f.cfg.RevisionId = aws.String(b.revision())
		if in.Publish {
			copyFields(out, b.publish(call, f, nil).cfg)
			return out, nil
		}
		copyFields(out, f.cfg)
		return out, nil
	})
}
