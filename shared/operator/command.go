package operator

import (
	"os"

	"fmt"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// Version is the operator's version, set at build time with
// -ldflags "-X github.com/runner-codes/infra-operator/shared/operator.Version=v1.2.3".
var Version = "dev"

// NewCommand returns the root command of one family's operator binary.
func NewCommand(f Family) *cobra.Command {
	opts := DefaultOptions()
	cmd := &cobra.Command{
		Use:           f.Name + "-operator",
		Short:         fmt.Sprintf("Manage the AWS %s resources of infra-operator from Kubernetes", f.Name),
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: false,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Validate(); err != nil {
				return err
			}
			ctrl.SetLogger(NewLogger(opts.LogLevel, opts.LogFormat))
			cfg, err := RESTConfig(opts.Kubeconfig, opts.KubeAPIQPS, opts.KubeAPIBurst)
			if err != nil {
				return err
			}
			ctx := ctrl.SetupSignalHandler()
			mgr, err := NewManager(ctx, cfg, []Family{f}, Instance(f.Name), opts)
			if err != nil {
				return err
			}
			ctrl.Log.Info("starting", "family", f.Name, "version", Version, "namespaces", opts.Namespaces)
			if err := mgr.Start(ctx); err != nil {
				return fmt.Errorf("run the %s operator: %w", f.Name, err)
			}
			return nil
		},
	}
	opts.AddFlags(cmd.Flags())
	return cmd
}

// NewLogger returns a structured logger at level ("debug", "info" or "error") in format
// ("json" or "console").
func NewLogger(level, format string) logr.Logger {
	lvl := zapcore.InfoLevel
	switch level {
	case "debug":
		lvl = zapcore.DebugLevel
	case "error":
		lvl = zapcore.ErrorLevel
	}
	return zap.New(zap.UseDevMode(false), zap.Level(lvl), zap.JSONEncoder(), func(o *zap.Options) {
		if format == "console" {
			o.Encoder = zapcore.NewConsoleEncoder(zapcore.EncoderConfig{
				TimeKey: "ts", LevelKey: "level", NameKey: "logger", MessageKey: "msg",
				EncodeTime: zapcore.ISO8601TimeEncoder, EncodeLevel: zapcore.CapitalLevelEncoder,
				ConsoleSeparator: "  ",
			})
		}
	})
}

// Main runs one family's operator binary and exits with a non-zero status when it fails.
func Main(f Family) {
	if err := NewCommand(f).Execute(); err != nil {
		os.Exit(1)
	}
}
