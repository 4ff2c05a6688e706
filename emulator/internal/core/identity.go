package core

// Callers is what a service that records who made a request needs of the emulated STS: the IAM
// principal behind the request's access key. The STS backend implements it.
type Callers interface {
	// Principal returns the ARN of the IAM user or role whose access key signed call: the role
	// for temporary credentials STS issued, DefaultPrincipal for any other key.
	Principal(call *Call) string
}

// DefaultPrincipal returns the IAM user that every access key STS did not issue stands for,
// arn:aws:iam::<account>:user/emulator, as GetCallerIdentity answers it.
func DefaultPrincipal(account string) string {
	return "arn:aws:iam::" + account + ":user/emulator"
}
