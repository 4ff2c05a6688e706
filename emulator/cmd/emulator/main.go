// Command emulator serves the infra-operator AWS emulator on a loopback address, for the
// sandbox and for trying the operators without an AWS account.
//
//	emulator --listen 127.0.0.1:4566 --accounts AKIDPROD=111111111111 --faults faults.json
//
// The emulator accepts any AWS credentials and checks no signature, so it warns loudly when it
// listens on anything but a loopback address. An admin token (--admin-token, or the
// INFRA_EMULATOR_ADMIN_TOKEN environment variable) guards its /_emulator/ endpoints.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/runner-codes/infra-operator/emulator"
)

// adminTokenEnv is the environment variable that sets the admin token when --admin-token does not.
const adminTokenEnv = "INFRA_EMULATOR_ADMIN_TOKEN"

func main() {
	listen := flag.String("listen", "127.0.0.1:4566", "address to serve on")
	accounts := flag.String("accounts", "", "comma-separated ACCESSKEY=ACCOUNT pairs; other keys belong to "+emulator.DefaultAccount)
	faults := flag.String("faults", "", `JSON file of faults by "Service" or "Service.Operation", as PUT /_emulator/faults takes`)
	token := flag.String("admin-token", "", "token the /_emulator/ endpoints require (as \"Authorization: Bearer <token>\" or \"X-Emulator-Token: <token>\"); "+
		"default $"+adminTokenEnv+", which keeps it off command lines other users can see; empty leaves them open")
	flag.Parse()
	opts, err := options(*accounts, *faults, adminToken(*token))
	if err == nil {
		err = run(*listen, opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

// adminToken returns the --admin-token flag's value, or the environment's when it is empty.
func adminToken(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return os.Getenv(adminTokenEnv)
}

// options builds the emulator's options from the --accounts and --faults flags and the admin
// token.
func options(accounts, faultsFile, adminToken string) (emulator.Options, error) {
	opts := emulator.Options{AdminToken: adminToken}
	if accounts != "" {
		opts.Accounts = map[string]string{}
		for _, pair := range strings.Split(accounts, ",") {
			key, account, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok || key == "" || len(account) != 12 || strings.Trim(account, "0123456789") != "" {
				return opts, fmt.Errorf("--accounts: %q is not ACCESSKEY=ACCOUNT with a 12-digit account", pair)
			}
			opts.Accounts[key] = account
		}
	}
	if faultsFile != "" {
		b, err := os.ReadFile(faultsFile)
		if err != nil {
			return opts, fmt.Errorf("--faults: %w", err)
		}
		if err := json.Unmarshal(b, &opts.Faults); err != nil {
			return opts, fmt.Errorf("--faults %s: %w", faultsFile, err)
		}
	}
	return opts, nil
}

func run(listen string, opts emulator.Options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", listen, err)
	}
	bound := l.Addr().String()
	warnExposed(os.Stderr, bound, opts.AdminToken != "")
	srv := &http.Server{Handler: emulator.New(opts), ReadHeaderTimeout: 10 * time.Second}
	errs := make(chan error, 1)
	go func() { errs <- srv.Serve(l) }()
	slog.Info("AWS emulator listening", "endpoint", "http://"+bound, "admin", "http://"+bound+"/_emulator/calls", "adminToken", opts.AdminToken != "")
	select {
	case err := <-errs:
		return fmt.Errorf("serve %s: %w", bound, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
