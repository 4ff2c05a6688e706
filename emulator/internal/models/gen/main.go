// Command gen copies the AWS API models the emulator needs from the aws-sdk-go v1 module
// (models/apis/<service>/<version>/api-2.json) into ../apis, keeping only what the wire codecs
// read: operations' input and output shapes, and shapes' types, members and wire names.
//
// Usage (from emulator/internal/models): go run ./gen sts sns s3 ec2 lambda rds elasticloadbalancingv2 eks iam secretsmanager kms acm
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
)

// module is the aws-sdk-go v1 release whose models are copied.
const module = "github.com/aws/aws-sdk-go@v1.55.8"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(services []string) error {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return fmt.Errorf("download %s: %w", module, err)
	}
	var dl struct{ Dir string }
	if err := json.Unmarshal(out, &dl); err != nil {
		return fmt.Errorf("read go mod download output: %w", err)
	}
	for _, svc := range services {
		matches, err := filepath.Glob(filepath.Join(dl.Dir, "models", "apis", svc, "*", "api-2.json"))
		if err != nil || len(matches) == 0 {
			return fmt.Errorf("no model for %s in %s", svc, module)
		}
		sort.Strings(matches)
		if err := minify(matches[len(matches)-1], filepath.Join("apis", svc+".json")); err != nil {
			return err
		}
	}
	return nil
}

// The subset of api-2.json the emulator keeps.
type model struct {
	Metadata   map[string]any       `json:"metadata"`
	Operations map[string]operation `json:"operations"`
	Shapes     map[string]shape     `json:"shapes"`
}

type operation struct {
	HTTP   *httpBinding `json:"http,omitempty"`
	Input  *ref         `json:"input,omitempty"`
	Output *ref         `json:"output,omitempty"`
}

type httpBinding struct {
	Method       string `json:"method"`
	RequestURI   string `json:"requestUri"`
	ResponseCode int    `json:"responseCode,omitempty"`
}

type ref struct {
	Shape           string `json:"shape"`
	LocationName    string `json:"locationName,omitempty"`
	QueryName       string `json:"queryName,omitempty"`
	Location        string `json:"location,omitempty"`
	Flattened       bool   `json:"flattened,omitempty"`
	XMLAttribute    bool   `json:"xmlAttribute,omitempty"`
	ResultWrapper   string `json:"resultWrapper,omitempty"`
	TimestampFormat string `json:"timestampFormat,omitempty"`
	XMLNamespace    *xmlNS `json:"xmlNamespace,omitempty"`
}

type xmlNS struct {
	URI string `json:"uri"`
}

type shape struct {
	Type            string         `json:"type"`
	Members         map[string]ref `json:"members,omitempty"`
	Member          *ref           `json:"member,omitempty"`
	Key             *ref           `json:"key,omitempty"`
	Value           *ref           `json:"value,omitempty"`
	Flattened       bool           `json:"flattened,omitempty"`
	TimestampFormat string         `json:"timestampFormat,omitempty"`
	Error           map[string]any `json:"error,omitempty"`
	Exception       bool           `json:"exception,omitempty"`
	Payload         string         `json:"payload,omitempty"`
	Required        []string       `json:"required,omitempty"`
	LocationName    string         `json:"locationName,omitempty"`
	Streaming       bool           `json:"streaming,omitempty"`
}

func minify(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	var m model
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("decode %s: %w", src, err)
	}
	keep := map[string]any{}
	for _, k := range []string{"apiVersion", "endpointPrefix", "protocol", "serviceId", "signingName", "targetPrefix", "xmlNamespace", "jsonVersion"} {
		if v, ok := m.Metadata[k]; ok {
			keep[k] = v
		}
	}
	m.Metadata = keep
	out, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s: %w", dst, err)
	}
	if err := os.WriteFile(dst, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	fmt.Printf("%s: %d operations, %d shapes, %d bytes\n", dst, len(m.Operations), len(m.Shapes), len(out))
	return nil
}
