package sqs

import (
	"sort"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// pageOf sorts urls and returns the page that maxResults (1 to 1000) and nextToken ask for,
// with the token of the next page. Without maxResults a page holds up to 1,000 URLs and
// carries no token, as SQS's list operations document.
func pageOf(urls []string, maxResults *int32, nextToken *string) ([]string, *string, error) {
	sort.Strings(urls)
	limit := 1000
	if maxResults != nil {
		if *maxResults < 1 || *maxResults > 1000 {
			return nil, nil, core.Errorf("InvalidParameterValue", "Value for parameter MaxResults is invalid. Reason: must be between 1 and 1000.")
		}
		limit = int(*maxResults)
	}
	start := 0
	if tok := aws.ToString(nextToken); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 || n > len(urls) {
			return nil, nil, core.Errorf("InvalidParameterValue", "Invalid NextToken value.")
		}
		start = n
	}
	end := min(start+limit, len(urls))
	var next *string
	if end < len(urls) && maxResults != nil {
		next = aws.String(strconv.Itoa(end))
	}
	return urls[start:end], next, nil
}
