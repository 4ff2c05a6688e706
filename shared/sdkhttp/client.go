// Package sdkhttp provides the HTTP client that every aws-sdk-go-v2 client of the project uses.
//
// smithy-go (v1.28.8, the newest release) closes a request's body as soon as the response
// headers arrive, and its closed body answers WriteTo with io.EOF. net/http's writeLoop, having
// sent the body, copies what is left of it (nothing) to io.Discard to check its length; when
// the answer arrived first, that copy goes through WriteTo, fails with io.EOF, and the
// transport closes the connection under the response being read. The call then fails with
// "failed to decode response body ... use of closed network connection". On loopback (the
// emulator) this hit about one in twenty-five large answers; on real networks it is rare but
// reported upstream (aws/aws-sdk-go-v2 issues 1825, 2737, 2935).
package sdkhttp

import (
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Client returns the SDK's default HTTP client with the request-body fix of Wrap, for
// configurations built without config.LoadDefaultConfig.
func Client() aws.HTTPClient {
	return Wrap(nil)
}

// Wrap returns next (the SDK's default client when nil) with request bodies that offer only
// Read and Close, so that the transport's closing length check reads (and takes io.EOF as the
// end) instead of calling WriteTo. Wrap a configuration's client after config.LoadDefaultConfig
// has set it up (AWS_CA_BUNDLE, for one, needs the SDK's own client type).
func Wrap(next aws.HTTPClient) aws.HTTPClient {
	if next == nil {
		next = awshttp.NewBuildableClient()
	}
	return client{next: next}
}

// client hides io.WriterTo on request bodies before handing requests to next.
type client struct {
	next aws.HTTPClient
}

// Do sends req through the wrapped client.
func (c client) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = readCloser{req.Body}
	}
	return c.next.Do(req)
}

// readCloser exposes only the io.ReadCloser methods of the body it holds.
type readCloser struct {
	body io.ReadCloser
}

// Read reads from the body.
func (r readCloser) Read(p []byte) (int, error) {
	return r.body.Read(p)
}

// Close closes the body.
func (r readCloser) Close() error {
	return r.body.Close()
}
