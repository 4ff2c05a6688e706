package v1alpha1

// CORS is the cross-origin resource sharing configuration an AWS endpoint answers browsers'
// preflight requests with: a Lambda function URL's, an API Gateway HTTP API's.
type CORS struct {
	// AllowOrigins are the origins browsers may call from, for example https://example.com,
	// or "*".
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	AllowOrigins []string `json:"allowOrigins,omitempty"`

	// AllowMethods are the HTTP methods allowed, for example GET and POST, or "*"; a Lambda
	// function URL takes at most 6.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:Pattern=`^(\*|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$`
	AllowMethods []string `json:"allowMethods,omitempty"`

	// AllowHeaders are the request headers allowed, or "*".
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	AllowHeaders []string `json:"allowHeaders,omitempty"`

	// ExposeHeaders are the response headers browsers may read.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	ExposeHeaders []string `json:"exposeHeaders,omitempty"`

	// AllowCredentials says whether browsers may send credentials (cookies, authorization
	// headers).
	// +optional
	AllowCredentials bool `json:"allowCredentials,omitempty"`

	// MaxAge is how many seconds browsers may cache the preflight answer, at most 86400.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=86400
	MaxAge int32 `json:"maxAge,omitempty"`
}
