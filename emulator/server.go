// Package emulator is a local AWS endpoint that speaks the real AWS wire protocols to the real
// aws-sdk-go-v2 clients. It serves the operators' integration tests (in-process), benchmarks,
// fault tests and the sandbox (standalone), keeps state in memory per account and region,
// simulates asynchronous lifecycles on a controllable clock, injects faults, and counts every
// call by service, operation and outcome.
package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/wire"
	"github.com/runner-codes/infra-operator/emulator/services/acm"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
	"github.com/runner-codes/infra-operator/emulator/services/apigatewayv2"
	"github.com/runner-codes/infra-operator/emulator/services/cloudfront"
	"github.com/runner-codes/infra-operator/emulator/services/dynamodb"
	"github.com/runner-codes/infra-operator/emulator/services/ec2"
	"github.com/runner-codes/infra-operator/emulator/services/ecr"
	"github.com/runner-codes/infra-operator/emulator/services/ecs"
	"github.com/runner-codes/infra-operator/emulator/services/eks"
	"github.com/runner-codes/infra-operator/emulator/services/elasticache"
	"github.com/runner-codes/infra-operator/emulator/services/elbv2"
	"github.com/runner-codes/infra-operator/emulator/services/iam"
	"github.com/runner-codes/infra-operator/emulator/services/kms"
	"github.com/runner-codes/infra-operator/emulator/services/lambda"
	"github.com/runner-codes/infra-operator/emulator/services/rds"
	"github.com/runner-codes/infra-operator/emulator/services/route53"
	"github.com/runner-codes/infra-operator/emulator/services/s3"
	"github.com/runner-codes/infra-operator/emulator/services/secretsmanager"
	"github.com/runner-codes/infra-operator/emulator/services/sns"
	"github.com/runner-codes/infra-operator/emulator/services/sqs"
	"github.com/runner-codes/infra-operator/emulator/services/sts"
)

// DefaultAccount is the account of every access key that Options.Accounts does not name.
const DefaultAccount = "000000000000"

// Options configure a Server.
type Options struct {
	// Accounts maps access key IDs to account IDs. Unknown keys belong to DefaultAccount.
	Accounts map[string]string
	// Faults are the faults in force at start, keyed "Service" or "Service.Operation".
	Faults map[string]Fault
	// Transitions override, by service ID ("ACM", "APIGateway", "APIGatewayV2", "CloudFront", "DynamoDB", "EC2", "ECS", "EKS",
	// "ElastiCache", "ELBv2", "Lambda", "RDS", "Route53"), how long asynchronous lifecycles (creating -> active) take on the simulation
	// clock; zero makes them immediate. Services not named keep their defaults (DynamoDB, EKS, ElastiCache, ELBv2 and RDS
	// 2s, Route 53's changes 2s, EC2, ECS's tasks, Lambda and API Gateway's VPC links 1s, ACM 3s, CloudFront 5s).
	Transitions map[string]time.Duration
	// AdminToken, when set, is required on the admin endpoints under /_emulator/, sent as
	// "Authorization: Bearer <token>" or "X-Emulator-Token: <token>". AWS requests are not
	// affected. Empty leaves the admin endpoints open, as in-process tests want them.
	AdminToken string
}

// Fault is what to inject into calls; see the fields of core.Fault.
type Fault = core.Fault

// Duration is a fault's duration, written in JSON as "250ms".
type Duration = core.Duration

// Server is the emulator. It is an http.Handler.
type Server struct {
	// Clock is the simulation clock; tests freeze and advance it.
	Clock *core.Clock
	// Faults are the faults in force; change them at run time with Set.
	Faults *core.Faults
	// Calls counts every call by service, operation and outcome.
	Calls *core.Counters

	accounts    map[string]string
	transitions map[string]time.Duration
	adminToken  string
	sts         *sts.Backend
	bySigner    map[string][]*core.Service // longest PathPrefix first
	byTarget    map[string]*core.Service
	byVer       map[string]*core.Service
	seq         atomic.Uint64
}

// New returns an emulator with every implemented service.
func New(opts Options) *Server {
	s := &Server{
		Clock:       &core.Clock{},
		Faults:      &core.Faults{},
		Calls:       &core.Counters{},
		accounts:    opts.Accounts,
		transitions: opts.Transitions,
		adminToken:  opts.AdminToken,
		bySigner:    map[string][]*core.Service{},
		byTarget:    map[string]*core.Service{},
		byVer:       map[string]*core.Service{},
	}
	for k, f := range opts.Faults {
		s.Faults.Set(k, f)
	}
	s.sts = sts.New()
	// SQS, SNS, S3 and DynamoDB check the KMS keys they encrypt with against the emulated KMS,
	// as Lambda checks VPC configurations against the emulated EC2.
	keys := kms.New(s.Clock)
	queues := sqs.New(s.Clock, keys)
	s.register(s.sts.Service())
	s.register(queues.Service())
	topics := sns.New(s.Clock, queues, keys)
	s.register(topics.Service())
	tables := dynamodb.New(s.Clock, keys)
	s.register(tables.Service())
	objects := s3.New(s.Clock, keys)
	s.register(objects.Service())
	network := ec2.New(s.Clock)
	s.register(network.Service())
	certificates := acm.New(s.Clock)
	balancers := elbv2.New(s.Clock, network, certificates)
	s.register(balancers.Service())
	// EKS records the caller STS knows as the creator of a cluster, for its admin access entry.
	s.register(eks.New(s.Clock, network, s.sts).Service())
	// Lambda checks the queues and streams of event source mappings against SQS and DynamoDB,
	// and that the functions' execution roles may read them against IAM.
	identities := iam.New(s.Clock)
	functions := lambda.New(s.Clock, objects, network, queues, tables, identities)
	s.register(functions.Service())
	// ELBv2 checks that its Lambda targets exist and let it invoke them, against Lambda.
	balancers.CheckFunctionsWith(functions)
	// S3 checks the destinations of its event notifications and delivers its events to them.
	objects.NotifyThrough(s3.Destinations{Queues: queues, Topics: topics, Functions: functions})
	// RDS keeps the master passwords it manages for DB clusters in the emulated Secrets Manager.
	databases, secrets := rds.New(s.Clock), secretsmanager.New(s.Clock)
	databases.KeepSecretsIn(secrets)
	s.register(databases.Service())
	s.register(keys.Service())
	s.register(identities.Service())
	s.register(secrets.Service())
	s.register(certificates.Service())
	// API Gateway v1 and v2 share the signing name "apigateway"; v2's paths start with /v2/.
	restAPIs, httpAPIs := apigateway.New(certificates), apigatewayv2.New(network, certificates)
	s.register(restAPIs.Service())
	s.register(httpAPIs.Service())
	// CloudFront serves ACM certificates of us-east-1 to viewers, checked against the emulated ACM.
	distributions := cloudfront.New(s.Clock, certificates)
	s.register(distributions.Service())
	// ECR checks the KMS keys its repositories are encrypted with against the emulated KMS.
	images := ecr.New(keys)
	s.register(images.Service())
	// ECS checks the subnets and security groups of its services against the emulated EC2, and
	// the ECR images of its tasks against the emulated ECR.
	s.register(ecs.New(s.Clock, network, images).Service())
	// ElastiCache checks the subnets of its subnet groups and its security groups against EC2.
	s.register(elasticache.New(s.Clock, network).Service())
	// Route 53 checks the VPCs of private hosted zones against the emulated EC2.
	zones := route53.New(s.Clock, network)
	s.register(zones.Service())
	// ACM validates the names a public hosted zone of the emulated Route 53 holds through it.
	certificates.ValidateThrough(zones)
	// Route 53 checks alias targets against the load balancers, distributions and API domains
	// that make them.
	zones.AliasThrough(balancers, distributions, restAPIs, httpAPIs)
	return s
}

func (s *Server) register(svc *core.Service) {
	if svc.Model != nil {
		for name, op := range svc.Operations {
			wire.Augment(svc.InputSchema(name), reflect.TypeOf(op.NewInput()))
			wire.Augment(svc.OutputSchema(name), reflect.TypeOf(op.NewOutput()))
		}
	}
	same := append(s.bySigner[svc.SigningName], svc)
	sort.SliceStable(same, func(i, j int) bool { return len(same[i].PathPrefix) > len(same[j].PathPrefix) })
	s.bySigner[svc.SigningName] = same
	if svc.TargetPrefix != "" {
		s.byTarget[svc.TargetPrefix] = svc
	}
	if svc.APIVersion != "" {
		s.byVer[svc.APIVersion] = svc
	}
}

// Start serves the emulator on a loopback port until the returned server is closed.
func (s *Server) Start() *httptest.Server { return httptest.NewServer(s) }

// account returns the account an access key belongs to.
func (s *Server) account(key string) string {
	if acct, ok := s.sts.AccountFor(key); ok {
		return acct
	}
	if acct, ok := s.accounts[key]; ok {
		return acct
	}
	return DefaultAccount
}

func (s *Server) requestID() string {
	n := s.seq.Add(1)
	return fmt.Sprintf("%08x-%04x-4000-8000-%012x", uint32(time.Now().Unix()), uint16(n>>48), n&0xffffffffffff)
}

// ServeHTTP answers one AWS request, or an admin request under /_emulator/.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, adminPrefix) {
		if s.authorizeAdmin(w, r) {
			s.serveAdmin(w, r)
		}
		return
	}
	req, err := s.parse(r)
	if err != nil {
		req.writeError(w, err)
		return
	}
	s.dispatch(w, req)
}

// Services returns the emulated services, for tools and tests that walk every operation.
func (s *Server) Services() []*core.Service {
	var out []*core.Service
	for _, same := range s.bySigner {
		out = append(out, same...)
	}
	return out
}

// signed returns the service that requests signed with the signing name name and sent to path
// are for: among the services of that signing name, the first whose PathPrefix path starts
// with.
func (s *Server) signed(name, path string) (*core.Service, bool) {
	for _, svc := range s.bySigner[name] {
		if strings.HasPrefix(path, svc.PathPrefix) {
			return svc, true
		}
	}
	return nil, false
}
