package secretsmanager

import (
	"crypto/rand"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The character classes of GetRandomPassword.
const (
	lowercase   = "abcdefghijklmnopqrstuvwxyz"
	uppercase   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits      = "0123456789"
	punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)

// pick returns a random character of set.
func pick(set string) byte {
	n, err := rand.Int(rand.Reader, big.NewInt(int64(len(set))))
	if err != nil {
		panic(err)
	}
	return set[n.Int64()]
}

// getRandomPassword returns a random password of the length and character classes the request asks
// for.
func (b *Backend) getRandomPassword(_ *core.Call, in *secretsmanager.GetRandomPasswordInput) (*secretsmanager.GetRandomPasswordOutput, error) {
	length := int64(32)
	if in.PasswordLength != nil {
		length = *in.PasswordLength
	}
	if length < 1 || length > 4096 {
		return nil, validation("Value '%d' at 'passwordLength' failed to satisfy constraint: Member must have value between 1 and 4096", length)
	}
	if len(aws.ToString(in.ExcludeCharacters)) > 4096 {
		return nil, validation("Value at 'excludeCharacters' failed to satisfy constraint: Member must have length less than or equal to 4096")
	}
	exclude := func(set string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(aws.ToString(in.ExcludeCharacters), r) {
				return -1
			}
			return r
		}, set)
	}
	var classes []string
	for _, c := range []struct {
		set  string
		skip *bool
	}{{lowercase, in.ExcludeLowercase}, {uppercase, in.ExcludeUppercase}, {digits, in.ExcludeNumbers}, {punctuation, in.ExcludePunctuation}} {
		if set := exclude(c.set); !aws.ToBool(c.skip) && set != "" {
			classes = append(classes, set)
		}
	}
	if aws.ToBool(in.IncludeSpace) {
		if set := exclude(" "); set != "" {
			classes = append(classes, set)
		}
	}
	if len(classes) == 0 {
		return nil, invalidParameter("The password can't be generated: every character is excluded.")
	}
	each := in.RequireEachIncludedType == nil || *in.RequireEachIncludedType
	if each && length < int64(len(classes)) {
		return nil, invalidParameter("Password length is too short based on the required types.")
	}
	all := strings.Join(classes, "")
	password := make([]byte, length)
	for i := range password {
		password[i] = pick(all)
	}
	if each {
		// One character of each class, at distinct random places.
		places := make([]int, 0, len(classes))
		for _, set := range classes {
			for {
				n, err := rand.Int(rand.Reader, big.NewInt(length))
				if err != nil {
					panic(err)
				}
				if p := int(n.Int64()); !slices.Contains(places, p) {
					places = append(places, p)
					password[p] = pick(set)
					break
				}
			}
		}
	}
	return &secretsmanager.GetRandomPasswordOutput{RandomPassword: aws.String(string(password))}, nil
}
