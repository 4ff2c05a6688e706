// Command emulator serves the infra-operator AWS emulator on a loopback address, for the
// sandbox and for trying the operators without an AWS account.
//
//	emulator --listen 127.0.0.1:4566 --accounts AKIDPROD=111111111111 --faults faults.json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/runner-codes/infra-operator/emulator"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:4566", "address to serve on")
	accounts := flag.String("accounts", "", "comma-separated ACCESSKEY=ACCOUNT pairs; other keys belong to "+emulator.DefaultAccount)
	faults := flag.String("faults", "", `JSON file of faults by "Service" or "Service.Operation", as PUT /_emulator/faults takes`)
	flag.Parse()
	opts, err := options(*accounts, *faults)
	if err == nil {
		err = run(*listen, opts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

// options builds the emulator's options from the --accounts and --faults flags.
func options(accounts, faultsFile string) (emulator.Options, error) {
	var opts emulator.Options
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
	srv := &http.Server{Addr: listen, Handler: emulator.New(opts), ReadHeaderTimeout: 10 * time.Second}
	errs := make(chan error, 1)
	go func() { errs <- srv.ListenAndServe() }()
	slog.Info("AWS emulator listening", "endpoint", "http://"+listen, "admin", "http://"+listen+"/_emulator/calls")
	select {
	case err := <-errs:
		return fmt.Errorf("serve %s: %w", listen, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
