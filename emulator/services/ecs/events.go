package ecs

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxEvents is how many of a service's events DescribeServices answers, the most recent ones, as
// AWS keeps them.
const maxEvents = 100

// event records a service event at, newest first, with its message formatted as AWS writes it:
// "(service web) " and then the rest. Only the maxEvents most recent are kept.
func (s *service) event(at time.Time, format string, args ...any) {
	e := types.ServiceEvent{Id: aws.String(core.NewUUID()), CreatedAt: aws.Time(at),
		Message: aws.String("(service " + s.name + ") " + fmt.Sprintf(format, args...))}
	s.events = append([]types.ServiceEvent{e}, s.events[:min(len(s.events), maxEvents-1)]...)
}

// taskList returns the "(task id) (task id)" list of tasks that service events name.
func taskList(tasks []*task) string {
	names := make([]string, len(tasks))
	for i, k := range tasks {
		names[i] = "(task " + k.id + ")"
	}
	return strings.Join(names, " ")
}
