// Package differential runs the same sequences of aws-sdk-go-v2 calls against the emulator and
// against third-party emulators that install here (fauxqs for SQS and SNS, dynalite for
// DynamoDB, versitygw for S3, moto for RDS, EC2 instances, Lambda, EKS, IAM, KMS, Secrets
// Manager and ACM) and compares the outcomes. Where a peer departs from AWS, the emulator follows
// AWS and the difference is listed in knownDifferences with its reason.
//
// `make peers` installs fauxqs, dynalite and versitygw into the cache; CI does so and requires
// them (CI=true); run locally without them, the tests skip with a message saying how to install
// them. moto is a Python package that `make peers` cannot install: its test runs where
// moto_server is on the PATH and skips, in CI too, where it is not.
package differential

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// Peer versions, as `make peers` installs them.
const (
	fauxqsVersion    = "1.9.2"
	dynaliteVersion  = "4.0.0"
	versitygwVersion = "v1.8.0"
	motoVersion      = "5.2.1" // the version the known differences were found with
)

// Static credentials every side accepts (versitygw checks signatures against them).
const (
	accessKey = "AKIDDIFFERENTIAL"
	secretKey = "differential-secret"
)

// peersDir is where `make peers` installs the peers.
func peersDir() string {
	if dir := os.Getenv("INFRA_OPERATOR_CACHE"); dir != "" {
		return filepath.Join(dir, "peers")
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "infra-operator", "peers")
	}
	return filepath.Join(base, "infra-operator", "peers")
}

// peerBinary returns the path of an installed peer, or skips the test (fails it in CI) when the
// peer is not installed.
func peerBinary(t *testing.T, rel string) string {
	t.Helper()
	path := filepath.Join(peersDir(), rel)
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("%s is not installed (run `make peers`, which needs npm and the Go module proxy)", path)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// motoServer returns the path of moto_server, or skips the test when it is not on the PATH.
func motoServer(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("moto_server")
	if err != nil {
		t.Skipf("moto_server is not on the PATH (pip install 'moto[server]==%s' to compare RDS, EC2 instances and EKS with moto): %v", motoVersion, err)
	}
	return path
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startPeer runs a peer until the test ends and waits until its port answers HTTP.
func startPeer(t *testing.T, port int, env []string, name string, args ...string) string {
	t.Helper()
	cmd, url := launchPeer(t, port, env, name, args...)
	t.Cleanup(func() { stopPeer(cmd) })
	return url
}

// launchPeer starts a peer and waits until its port answers HTTP; the caller stops it with
// stopPeer.
func launchPeer(t *testing.T, port int, env []string, name string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url + "/")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return cmd, url
		}
		time.Sleep(100 * time.Millisecond)
	}
	stopPeer(cmd)
	t.Fatalf("%s did not answer on %s within 30s", name, url)
	return nil, ""
}

// stopPeer kills a peer and waits for it.
func stopPeer(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}

// sdkConfig reaches url with the shared static credentials and no retries, so that every
// outcome is the first answer.
func sdkConfig(t *testing.T, url string) aws.Config {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(context.Background(),
		config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(accessKey, secretKey, "")),
		config.WithRetryMaxAttempts(1),
		config.WithBaseEndpoint(url),
	)
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPClient = sdkhttp.Wrap(cfg.HTTPClient)
	return cfg
}
