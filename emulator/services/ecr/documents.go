package ecr

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// document is one of the text documents a repository holds, its policy or its lifecycle policy:
// where the repository keeps it, how a new one is checked, and AWS's answer to a repository
// without one.
type document struct {
	text     func(r *repository) *string
	check    func(text string) error
	notFound func(r *repository) error
}

// The documents of a repository.
var (
	repositoryPolicy = document{text: func(r *repository) *string { return &r.policy }, check: checkPolicy, notFound: policyNotFound}
	lifecyclePolicy  = document{text: func(r *repository) *string { return &r.lifecyclePolicy }, check: checkLifecycle, notFound: lifecycleNotFound}
)

// documentAnswer is what the outputs of the document operations say: the repository and the
// document's text, under the name of either document.
type documentAnswer struct {
	RegistryId, RepositoryName, PolicyText, LifecyclePolicyText *string
}

// putDocument sets document d of the repository a request names to text, once checked, and
// answers O with it.
func putDocument[O any](b *Backend, d document, call *core.Call, registryID, name, text *string) (*O, error) {
	return core.Locked(b.state, call, func(reg *registry) (*O, error) {
		r, err := lookup(reg, call, registryID, name)
		if err != nil {
			return nil, err
		}
		if err := d.check(aws.ToString(text)); err != nil {
			return nil, err
		}
		*d.text(r) = aws.ToString(text)
		return answer[O](r, *d.text(r)), nil
	})
}

// readDocument answers O with document d of the repository a request names, removing it when
// remove is set, or d's not-found error when the repository has none.
func readDocument[O any](b *Backend, d document, call *core.Call, registryID, name *string, remove bool) (*O, error) {
	return core.Locked(b.state, call, func(reg *registry) (*O, error) {
		r, err := lookup(reg, call, registryID, name)
		if err != nil {
			return nil, err
		}
		text := *d.text(r)
		if text == "" {
			return nil, d.notFound(r)
		}
		if remove {
			*d.text(r) = ""
		}
		return answer[O](r, text), nil
	})
}

// answer returns the output O of a document operation on r whose document's text is text.
func answer[O any](r *repository, text string) *O {
	out := new(O)
	core.Fill(out, &documentAnswer{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name), PolicyText: aws.String(text),
		LifecyclePolicyText: aws.String(text)})
	return out
}
