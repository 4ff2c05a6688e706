package lambda

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// versionNumber matches a version number, which a function URL's Qualifier may not be.
var versionNumber = regexp.MustCompile(`^\d+$`)

// urlID encodes URL ids: 32 lowercase letters and digits, as in
// https://<url-id>.lambda-url.<region>.on.aws/.
var urlID = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// urlNotFound is Lambda's answer when a function has no URL.
func urlNotFound() *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", "The resource you requested does not exist.")
}

// urlTime formats a function URL's CreationTime and LastModifiedTime, in ISO 8601.
func urlTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// withURLFunction runs f, holding the backend's lock, on the function whose URL configuration a
// request names (urlFunction), and returns f's answer or the lookup's error.
func withURLFunction[O any](b *Backend, call *core.Call, nameOrARN, qualifier *string, f func(*function) (*O, error)) (*O, error) {
	return core.Holding(b.state, func() (*function, error) { return b.urlFunction(call, nameOrARN, qualifier) }, f)
}

// urlFunction returns the function whose URL a request names. A function URL belongs to the
// function itself or to an alias (its Qualifier may be neither a version nor $LATEST); aliases
// are not emulated, so a qualified URL is never found. The caller holds the backend's lock.
func (b *Backend) urlFunction(call *core.Call, nameOrARN, qualifier *string) (*function, error) {
	t, err := parseTarget(call, nameOrARN, qualifier)
	if err != nil {
		return nil, err
	}
	if t.qualifier == "$LATEST" || versionNumber.MatchString(t.qualifier) {
		return nil, validationf("Value '%s' at 'qualifier' failed to satisfy constraint: Member must satisfy regular expression pattern: ((?!^\\d+$)^[0-9a-zA-Z-_]+$)", t.qualifier)
	}
	f, err := b.find(call, target{name: t.name, elsewhere: t.elsewhere})
	if err != nil {
		return nil, err
	}
	if t.qualifier != "" {
		return nil, functionNotFound(call, t)
	}
	return f, nil
}

// checkURLSettings validates a function URL's AuthType (required on create), InvokeMode and
// CORS settings against the API reference.
func checkURLSettings(auth types.FunctionUrlAuthType, create bool, mode types.InvokeMode, cors *types.Cors) error {
	if (create || auth != "") && !slices.Contains(auth.Values(), auth) {
		return validationf("Value '%s' at 'authType' failed to satisfy constraint: Member must satisfy enum value set: [NONE, AWS_IAM]", auth)
	}
	if mode != "" && !slices.Contains(mode.Values(), mode) {
		return validationf("Value '%s' at 'invokeMode' failed to satisfy constraint: Member must satisfy enum value set: [BUFFERED, RESPONSE_STREAM]", mode)
	}
	if cors == nil {
		return nil
	}
	if age := aws.ToInt32(cors.MaxAge); age < 0 || age > 86400 {
		return validationf("Value '%d' at 'cors.maxAge' failed to satisfy constraint: Member must have value between 0 and 86400", age)
	}
	lists := []struct {
		name  string
		items []string
		most  int // items
		long  int // characters an item
	}{
		{"cors.allowMethods", cors.AllowMethods, 6, 6},
		{"cors.allowOrigins", cors.AllowOrigins, 100, 253},
		{"cors.allowHeaders", cors.AllowHeaders, 100, 1024},
		{"cors.exposeHeaders", cors.ExposeHeaders, 100, 1024},
	}
	for _, l := range lists {
		if len(l.items) > l.most {
			return validationf("Value '%v' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", l.items, l.name, l.most)
		}
		for _, item := range l.items {
			if item == "" || len(item) > l.long {
				return validationf("Value '%v' at '%s' failed to satisfy constraint: Member must satisfy constraint: [Member must have length less than or equal to %d, Member must have length greater than or equal to 1]", l.items, l.name, l.long)
			}
		}
	}
	return nil
}

// corsOrNil returns nil for CORS settings that set nothing, which remove them.
func corsOrNil(cors *types.Cors) *types.Cors {
	if cors == nil || cors.AllowCredentials == nil && cors.MaxAge == nil && len(cors.AllowHeaders) == 0 &&
		len(cors.AllowMethods) == 0 && len(cors.AllowOrigins) == 0 && len(cors.ExposeHeaders) == 0 {
		return nil
	}
	return cors
}

// createFunctionURLConfig gives a function its URL, https://<32-character id>.lambda-url.<region>.on.aws/;
// a function has at most one.
func (b *Backend) createFunctionURLConfig(call *core.Call, in *lambda.CreateFunctionUrlConfigInput) (*lambda.CreateFunctionUrlConfigOutput, error) {
	if err := checkURLSettings(in.AuthType, true, in.InvokeMode, in.Cors); err != nil {
		return nil, err
	}
	return withURLFunction(b, call, in.FunctionName, in.Qualifier, func(f *function) (*lambda.CreateFunctionUrlConfigOutput, error) {
		if f.url != nil {
			return nil, &core.APIError{Code: "ResourceConflictException", Status: http.StatusConflict,
				Message: fmt.Sprintf("Failed to create function url config for [functionArn = %s]. Error message:  FunctionUrlConfig exists for this Lambda function", aws.ToString(f.cfg.FunctionArn))}
		}
		b.seq++
		sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d", aws.ToString(f.cfg.FunctionArn), b.seq))
		mode := in.InvokeMode
		if mode == "" {
			mode = types.InvokeModeBuffered
		}
		now := aws.String(urlTime(call.Now))
		f.url = &types.FunctionUrlConfig{AuthType: in.AuthType, Cors: corsOrNil(in.Cors), CreationTime: now, LastModifiedTime: now,
			FunctionArn: f.cfg.FunctionArn, InvokeMode: mode,
			FunctionUrl: aws.String("https://" + urlID.EncodeToString(sum[:])[:32] + ".lambda-url." + call.Region + ".on.aws/")}
		u := f.url
		return &lambda.CreateFunctionUrlConfigOutput{AuthType: u.AuthType, Cors: u.Cors, CreationTime: u.CreationTime,
			FunctionArn: u.FunctionArn, FunctionUrl: u.FunctionUrl, InvokeMode: u.InvokeMode}, nil
	})
}

// getFunctionURLConfig answers a function's URL and its settings.
func (b *Backend) getFunctionURLConfig(call *core.Call, in *lambda.GetFunctionUrlConfigInput) (*lambda.GetFunctionUrlConfigOutput, error) {
	return withURLFunction(b, call, in.FunctionName, in.Qualifier, func(f *function) (*lambda.GetFunctionUrlConfigOutput, error) {
		if f.url == nil {
			return nil, urlNotFound()
		}
		out := &lambda.GetFunctionUrlConfigOutput{}
		copyFields(out, *f.url)
		return out, nil
	})
}

// updateFunctionURLConfig changes the settings a request gives of a function's URL: its
// AuthType, its InvokeMode and its CORS settings, which it replaces as a whole (empty ones
// remove them). The URL itself never changes.
func (b *Backend) updateFunctionURLConfig(call *core.Call, in *lambda.UpdateFunctionUrlConfigInput) (*lambda.UpdateFunctionUrlConfigOutput, error) {
	if err := checkURLSettings(in.AuthType, false, in.InvokeMode, in.Cors); err != nil {
		return nil, err
	}
	return withURLFunction(b, call, in.FunctionName, in.Qualifier, func(f *function) (*lambda.UpdateFunctionUrlConfigOutput, error) {
		if f.url == nil {
			return nil, urlNotFound()
		}
		if in.AuthType != "" {
			f.url.AuthType = in.AuthType
		}
		if in.InvokeMode != "" {
			f.url.InvokeMode = in.InvokeMode
		}
		if in.Cors != nil {
			f.url.Cors = corsOrNil(in.Cors)
		}
		f.url.LastModifiedTime = aws.String(urlTime(call.Now))
		out := &lambda.UpdateFunctionUrlConfigOutput{}
		copyFields(out, *f.url)
		return out, nil
	})
}

// deleteFunctionURLConfig removes a function's URL; the function stays.
func (b *Backend) deleteFunctionURLConfig(call *core.Call, in *lambda.DeleteFunctionUrlConfigInput) (*lambda.DeleteFunctionUrlConfigOutput, error) {
	return withURLFunction(b, call, in.FunctionName, in.Qualifier, func(f *function) (*lambda.DeleteFunctionUrlConfigOutput, error) {
		if f.url == nil {
			return nil, urlNotFound()
		}
		f.url = nil
		return &lambda.DeleteFunctionUrlConfigOutput{}, nil
	})
}

// listFunctionURLConfigs lists a function's URLs (without aliases, at most one), MaxItems (1 to
// 50, default 50) at a time.
func (b *Backend) listFunctionURLConfigs(call *core.Call, in *lambda.ListFunctionUrlConfigsInput) (*lambda.ListFunctionUrlConfigsOutput, error) {
	return listedOf(b, call, in.FunctionName, in.MaxItems, 50, 50, func(f *function, size int) (*lambda.ListFunctionUrlConfigsOutput, error) {
		all := []types.FunctionUrlConfig{}
		if f.url != nil {
			all = append(all, *f.url)
		}
		page, next, err := pageOf(all, in.Marker, size)
		if err != nil {
			return nil, err
		}
		return &lambda.ListFunctionUrlConfigsOutput{FunctionUrlConfigs: page, NextMarker: next}, nil
	})
}
