package ecr

import (
	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultPage is how many items ECR's list operations answer when the request sets no
// maxResults (DescribeRepositories, ListImages: "up to 100 results and a nextToken value").
const defaultPage = 100

// pageSize returns a request's maxResults (1 to 1000), or defaultPage.
func pageSize(maxResults *int32) (int, error) {
	if maxResults == nil {
		return defaultPage, nil
	}
	if *maxResults < 1 || *maxResults > 1000 {
		return 0, invalidParameter("maxResults", "must be between 1 and 1000")
	}
	return int(*maxResults), nil
}

// paginate returns the page of items that token starts, and the token of the next page (nil
// after the last); a token that no page gave is InvalidParameterException.
func paginate[T any](items []T, token *string, size int) ([]T, *string, error) {
	page, next, ok := core.PageAt(items, token, size)
	if !ok {
		return nil, nil, invalidParameter("nextToken", "must be a token from a previous response")
	}
	return page, next, nil
}
