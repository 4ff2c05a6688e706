// Package plan is `infractl plan`: it asks the family operators what applying a set of
// manifests would do in one namespace, through a Preview object, and renders their answers as
// text, JSON or Markdown. Nothing is written to AWS or to the cluster's objects; the only
// object written is the Preview, deleted at the end.
package plan

// Action is what applying one object would do. The values are the Preview's actions, and
// NoAnswer for an object no operator answered before the timeout.
type Action string

// The actions, in the order the summary counts them.
const (
	Create   Action = "Create"
	Update   Action = "Update"
	Delete   Action = "Delete"
	Refused  Action = "Refused"
	Waiting  Action = "Waiting"
	NoChange Action = "NoChange"
	Failed   Action = "Failed"
	NoAnswer Action = "NoAnswer"
)

// Reasons that infractl itself gives, before any operator answers.
const (
	// ReasonInvalid: the API server refused the object's dry run (schema, CEL rule, admission).
	ReasonInvalid = "Invalid"
	// ReasonNotInstalled: the cluster serves no such kind.
	ReasonNotInstalled = "NotInstalled"
	// ReasonNoAnswer: no operator answered for the object before the timeout.
	ReasonNoAnswer = "NoAnswer"
)

// Report is what applying the manifests would do. Its JSON form is `infractl plan -o json`:
// the field names below are stable.
type Report struct {
	// Namespace is the namespace planned.
	Namespace string `json:"namespace"`
	// Prune tells whether objects missing from the manifests were planned for deletion.
	Prune bool `json:"prune"`
	// Objects hold one entry per planned object, in the manifests' order, then the Delete
	// entries of pruning.
	Objects []Object `json:"objects"`
	// NotPlanned names the manifests' objects that are not infra-operator managed kinds
	// (Secrets, ConfigMaps, AWSProviders, ...): the plan says nothing about them.
	NotPlanned []Ref `json:"notPlanned,omitempty"`
	// Families are the operator families that answered, sorted.
	Families []string `json:"families,omitempty"`
	// MissingFamilies are the families expected to answer that did not before the timeout.
	MissingFamilies []string `json:"missingFamilies,omitempty"`
	// Warnings are problems that did not stop the plan (a Preview that could not be deleted).
	Warnings []string `json:"warnings,omitempty"`
	// Summary counts the objects by action.
	Summary Summary `json:"summary"`
}

// Ref names an object of the manifests.
type Ref struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
}

// Object is what applying one object would do.
type Object struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Family is the operator family that planned the object; empty for infractl's own results.
	Family string `json:"family,omitempty"`
	Action Action `json:"action"`
	// Reason is the reason of the condition the object would show (Refused, Waiting, Failed,
	// NoAnswer), or AwaitingApproval for an Update that waits for approval.
	Reason string `json:"reason,omitempty"`
	// Message explains the action in a sentence.
	Message string `json:"message,omitempty"`
	// ExternalName is the AWS identifier of the resource, when it exists.
	ExternalName string `json:"externalName,omitempty"`
	// Changes are the fields an Update changes, or the fields a Create sets.
	Changes []Change `json:"changes,omitempty"`
}

// Change is one field that applying an object would change. Current and Desired are empty
// when the kind does not show them.
type Change struct {
	Field   string `json:"field"`
	Current string `json:"current,omitempty"`
	Desired string `json:"desired,omitempty"`
}

// Summary counts the planned objects by action.
type Summary struct {
	Create     int `json:"create"`
	Update     int `json:"update"`
	Delete     int `json:"delete"`
	Refused    int `json:"refused"`
	Waiting    int `json:"waiting"`
	NoChange   int `json:"noChange"`
	Failed     int `json:"failed"`
	NoAnswer   int `json:"noAnswer"`
	NotPlanned int `json:"notPlanned"`
}

// count counts the report's objects by action.
func (r *Report) count() Summary {
	s := Summary{NotPlanned: len(r.NotPlanned)}
	for _, o := range r.Objects {
		switch o.Action {
		case Create:
			s.Create++
		case Update:
			s.Update++
		case Delete:
			s.Delete++
		case Refused:
			s.Refused++
		case Waiting:
			s.Waiting++
		case NoChange:
			s.NoChange++
		case Failed:
			s.Failed++
		case NoAnswer:
			s.NoAnswer++
		}
	}
	return s
}

// Exit codes of `infractl plan`; 1 is left for the command's own errors.
const (
	ExitNoChanges = 0
	ExitChanges   = 2
	ExitBlocked   = 3
)

// ExitCode is the exit status the report calls for: 3 (ExitBlocked) when an object would be
// refused, would wait, could not be planned or got no answer, or a family did not answer;
// else 2 (ExitChanges) when an object would be created, updated or deleted; else 0.
func (r *Report) ExitCode() int {
	s := r.count()
	switch {
	case s.Refused+s.Waiting+s.Failed+s.NoAnswer > 0 || len(r.MissingFamilies) > 0:
		return ExitBlocked
	case s.Create+s.Update+s.Delete > 0:
		return ExitChanges
	}
	return ExitNoChanges
}
