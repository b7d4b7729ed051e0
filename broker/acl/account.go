package acl

import (
	"fmt"
	"strings"
)

// account is a loaded Account (Java's PlainAccessResource built by
// buildPlainAccessResource).
type account struct {
	Account
	file             string
	white            addrPattern
	defaultTopicPerm Perm
	defaultGroupPerm Perm
	// perms holds topics and retry topics of groups; nil when the account
	// lists neither.
	perms map[string]Perm
}

// minKeyLen: keys must be longer (AclConstants.ACCESS_KEY_MIN_LENGTH,
// SECRET_KEY_MIN_LENGTH).
const minKeyLen = 6

// checkKeys is checkPlainAccessConfig.
func checkKeys(a Account) error {
	if javaLen(a.AccessKey) <= minKeyLen || javaLen(a.SecretKey) <= minKeyLen {
		return fmt.Errorf("The accessKey=%s and secretKey=%s cannot be null and length should longer than 6",
			javaNull(a.AccessKey), javaNull(a.SecretKey))
	}
	return nil
}

// javaNull prints "" as Java prints a null String.
func javaNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// buildAccount is buildPlainAccessResource.
func buildAccount(a Account, file string) (*account, error) {
	if err := checkKeys(a); err != nil {
		return nil, err
	}
	acc := &account{
		Account:          a,
		file:             file,
		defaultTopicPerm: ParsePerm(a.DefaultTopicPerm),
		defaultGroupPerm: ParsePerm(a.DefaultGroupPerm),
	}
	if len(a.GroupPerms)+len(a.TopicPerms) > 0 {
		acc.perms = make(map[string]Perm, len(a.GroupPerms)+len(a.TopicPerms))
	}
	if err := parseResourcePerms(acc.perms, a.GroupPerms, true); err != nil {
		return nil, err
	}
	if err := parseResourcePerms(acc.perms, a.TopicPerms, false); err != nil {
		return nil, err
	}
	white, err := parseAddrPattern(a.WhiteRemoteAddress)
	if err != nil {
		return nil, fmt.Errorf("accessKey %s: %w", a.AccessKey, err)
	}
	acc.white = white
	return acc, nil
}

// checkPerm is PlainPermissionManager.checkPerm. Resources are checked in
// the order Java's HashMap iterates them, so the first failure named is the
// one Java names.
func (a *account) checkPerm(r *Request) error {
	if adminCodes[r.Code] && !a.Admin {
		return refuse(frameNeedAdmin, "Need admin permission for request code=%d, but accessKey=%s is not",
			r.Code, a.AccessKey)
	}
	if r.Resources == nil || (a.perms == nil && a.Admin) {
		return nil
	}
	var err error
	r.Resources.Range(func(res string, needed Perm) bool {
		err = a.checkResource(res, needed)
		return err == nil
	})
	return err
}

// checkResource checks one resource against the account's own perm for
// it, else its default topic or group perm.
func (a *account) checkResource(res string, needed Perm) error {
	owned, ok := a.perms[res]
	frame := frameOwnedPerm
	if !ok {
		frame, owned = frameDefaultPerm, a.defaultTopicPerm
		if strings.HasPrefix(res, retryPrefix) {
			owned = a.defaultGroupPerm
		}
	}
	if !owned.Allows(needed) {
		return refuse(frame, "No default permission for %s", resourceName(res))
	}
	return nil
}
