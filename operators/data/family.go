// Package data is the data family of infra-operator: S3Bucket, RDSInstance and DynamoDBTable.
package data

import "github.com/runner-codes/infra-operator/shared/operator"

// Name is the family's name.
const Name = "data"

// Family returns the data family with every kind it implements so far. Kinds are added to
// AddToScheme and Setup as their drivers land; until then the family runs the AWSProvider
// controller and serves its health and metrics endpoints.
func Family() operator.Family {
	return operator.Family{Name: Name}
}
