package plan

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sampleReport has one object of every kind of entry the renderers show.
func sampleReport() *Report {
	r := &Report{
		Namespace: "team-a",
		Prune:     true,
		Objects: []Object{
			{Kind: "SQSQueue", Name: "orders", Family: "messaging", Action: Create,
				Changes: []Change{{Field: "queueName", Desired: "orders"}}},
			{Kind: "SQSQueue", Name: "events", Family: "messaging", Action: Update, ExternalName: "https://sqs/events",
				Changes: []Change{{Field: "visibilityTimeout", Current: "30", Desired: "60"}, {Field: "policy"}}},
			{Kind: "S3Bucket", Name: "logs", Family: "data", Action: NoChange, ExternalName: "logs-bucket"},
			{Kind: "S3Bucket", Name: "bad|name", Family: "data", Action: Refused, Reason: "Invalid", Message: "spec.bucketName: must match `^[a-z]+$`"},
			{Kind: "SNSTopic", Name: "alerts", Family: "messaging", Action: Waiting, Reason: "ProviderNotReady", Message: "AWSProvider default is not ready."},
			{Kind: "SQSQueue", Name: "old", Family: "messaging", Action: Delete, ExternalName: "https://sqs/old",
				Message: "deletes the object and the AWS resource https://sqs/old"},
		},
		NotPlanned: []Ref{{APIVersion: "v1", Kind: "Secret", Name: "db"}},
		Families:   []string{"data", "messaging"},
	}
	r.Summary = r.count()
	return r
}

func TestText(t *testing.T) {
	want := `+ create SQSQueue orders
    queueName: orders
~ update SQSQueue events (https://sqs/events)
    visibilityTimeout: 30 -> 60
    policy (changes)
! refused S3Bucket bad|name: Invalid: spec.bucketName: must match ` + "`^[a-z]+$`" + `
… waiting SNSTopic alerts: ProviderNotReady: AWSProvider default is not ready.
- delete SQSQueue old (https://sqs/old): deletes the object and the AWS resource https://sqs/old

Plan: 1 to create, 1 to update, 1 to delete, 1 refused, 1 waiting, 1 unchanged.
Not planned (not managed by infra-operator): Secret db.
`
	var b bytes.Buffer
	if err := Text(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text -want +got:\n%s", diff)
	}

	b.Reset()
	if err := TextVerbose(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("= no change S3Bucket logs (logs-bucket)\n")) {
		t.Errorf("verbose text lacks the unchanged object:\n%s", b.String())
	}
}

// TestTextNoAnswer checks the lines of objects and families that did not answer.
func TestTextNoAnswer(t *testing.T) {
	r := &Report{Namespace: "ns", Objects: []Object{{Kind: "SQSQueue", Name: "q", Family: "messaging", Action: NoAnswer,
		Reason: ReasonNoAnswer, Message: "no answer: is the messaging operator running?"}}, MissingFamilies: []string{"messaging"}}
	want := `? no answer SQSQueue q: NoAnswer: no answer: is the messaging operator running?
? no answer from the messaging operator: is it running?

Plan: 0 to create, 0 to update, 0 to delete, 0 refused, 0 waiting, 0 unchanged, 1 without answer.
`
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text -want +got:\n%s", diff)
	}
}

func TestMarkdown(t *testing.T) {
	want := "### infractl plan: namespace team-a\n\n" +
		"**Plan: 1 to create, 1 to update, 1 to delete, 1 refused, 1 waiting, 1 unchanged.**\n\n" +
		"| Action | Kind | Name | AWS id | Fields or reason |\n|---|---|---|---|---|\n" +
		"| + create | SQSQueue | orders |  | queueName |\n" +
		"| ~ update | SQSQueue | events | https://sqs/events | visibilityTimeout, policy |\n" +
		"| ! refused | S3Bucket | bad\\|name |  | Invalid: spec.bucketName: must match \\`^\\[a-z\\]+$\\` |\n" +
		"| … waiting | SNSTopic | alerts |  | ProviderNotReady: AWSProvider default is not ready. |\n" +
		"| - delete | SQSQueue | old | https://sqs/old | deletes the object and the AWS resource https://sqs/old |\n\n" +
		"<details><summary>create SQSQueue orders</summary>\n\n| Field | Current | Desired |\n|---|---|---|\n" +
		"| queueName |  | orders |\n\n</details>\n\n" +
		"<details><summary>update SQSQueue events</summary>\n\n| Field | Current | Desired |\n|---|---|---|\n" +
		"| visibilityTimeout | 30 | 60 |\n| policy |  |  |\n\n</details>\n\n" +
		"<details><summary>1 unchanged</summary>\n\n- S3Bucket logs (logs-bucket)\n\n</details>\n\n" +
		"Not planned (not managed by infra-operator): Secret db.\n"
	var b bytes.Buffer
	if err := Markdown(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("markdown -want +got:\n%s", diff)
	}
}

func TestJSON(t *testing.T) {
	r := &Report{Namespace: "ns", Objects: []Object{{Kind: "SQSQueue", Name: "q", Family: "messaging", Action: Update,
		ExternalName: "url", Changes: []Change{{Field: "delaySeconds", Current: "0", Desired: "5"}}}}, Families: []string{"messaging"}}
	want := `{
  "namespace": "ns",
  "prune": false,
  "objects": [
    {
      "kind": "SQSQueue",
      "name": "q",
      "family": "messaging",
      "action": "Update",
      "externalName": "url",
      "changes": [
        {
          "field": "delaySeconds",
          "current": "0",
          "desired": "5"
        }
      ]
    }
  ],
  "families": [
    "messaging"
  ],
  "summary": {
    "create": 0,
    "update": 1,
    "delete": 0,
    "refused": 0,
    "waiting": 0,
    "noChange": 0,
    "failed": 0,
    "noAnswer": 0,
    "notPlanned": 0
  }
}
`
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("json -want +got:\n%s", diff)
	}
}

func TestExitCode(t *testing.T) {
	cases := map[string]struct {
		objects []Action
		missing []string
		want    int
	}{
		"Empty":         {want: ExitNoChanges},
		"Unchanged":     {objects: []Action{NoChange, NoChange}, want: ExitNoChanges},
		"Create":        {objects: []Action{NoChange, Create}, want: ExitChanges},
		"Delete":        {objects: []Action{Delete}, want: ExitChanges},
		"RefusedWins":   {objects: []Action{Update, Refused}, want: ExitBlocked},
		"Waiting":       {objects: []Action{Waiting}, want: ExitBlocked},
		"Failed":        {objects: []Action{Failed, Create}, want: ExitBlocked},
		"NoAnswer":      {objects: []Action{NoAnswer}, want: ExitBlocked},
		"MissingFamily": {objects: []Action{NoChange}, missing: []string{"data"}, want: ExitBlocked},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := &Report{MissingFamilies: tc.missing}
			for _, a := range tc.objects {
				r.Objects = append(r.Objects, Object{Kind: "K", Name: "n", Action: a})
			}
			if got := r.ExitCode(); got != tc.want {
				t.Errorf("ExitCode() = %d, want %d", got, tc.want)
			}
		})
	}
}
