package acl

import (
	"fmt"
	"slices"
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
	if len(r.Resources) == 0 || (a.perms == nil && a.Admin) {
		return nil
	}
	for _, res := range javaHashOrder(r.Resources, r.Added) {
		needed := r.Resources[res]
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
	}
	return nil
}

// javaHashOrder lists the keys of m in the order a java.util.HashMap holding
// them iterates: by bucket (spread String.hashCode masked by the table
// size), then in insertion order, which is the first place a key has in
// added; keys not in added come last, by name.
func javaHashOrder(m map[string]Perm, added []string) []string {
	rank := make(map[string]int, len(added))
	for i, k := range added {
		if _, dup := rank[k]; !dup {
			rank[k] = i
		}
	}
	tableSize := 16
	for len(m) > tableSize*3/4 {
		tableSize *= 2
	}
	type entry struct {
		key          string
		bucket, rank int
	}
	entries := make([]entry, 0, len(m))
	for k := range m {
		h := uint32(hashJava(k))
		r, ok := rank[k]
		if !ok {
			r = len(added)
		}
		entries = append(entries, entry{k, int((h ^ h>>16) & uint32(tableSize-1)), r})
	}
	slices.SortFunc(entries, func(x, y entry) int {
		if x.bucket != y.bucket {
			return x.bucket - y.bucket
		}
		if x.rank != y.rank {
			return x.rank - y.rank
		}
		return strings.Compare(x.key, y.key)
	})
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.key
	}
	return keys
}
