// Command emulator serves the infra-operator AWS emulator on a loopback address, for the
// sandbox and for trying the operators without an AWS account.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/runner-codes/infra-operator/emulator"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:4566", "address to serve on")
	flag.Parse()
	if err := run(*listen); err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

func run(listen string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Addr: listen, Handler: emulator.New(emulator.Options{}), ReadHeaderTimeout: 10 * time.Second}
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
