package acl

// Permissions, as Java's Permission class defines and checks them.

import (
	"fmt"
	"strings"
)

// Perm is a set of permission bits (Java's Permission byte).
type Perm byte

// The permission bits. Part of the protocol with Java, do not change.
const (
	Deny Perm = 1
	Any  Perm = 2
	Pub  Perm = 4
	Sub  Perm = 8
)

// retryPrefix marks a group's retry topic (MixAll.RETRY_GROUP_TOPIC_PREFIX);
// group permissions are kept under it.
const retryPrefix = "%RETRY%"

// traceTopic is TopicValidator.RMQ_SYS_TRACE_TOPIC: publishing to it skips
// the permission check.
const traceTopic = "RMQ_SYS_TRACE_TOPIC"

// adminCodes are the request codes that need an admin account
// (Permission.ADMIN_CODE): UPDATE_AND_CREATE_TOPIC, UPDATE_BROKER_CONFIG,
// DELETE_TOPIC_IN_BROKER, UPDATE_AND_CREATE_SUBSCRIPTIONGROUP and
// DELETE_SUBSCRIPTIONGROUP.
var adminCodes = map[int32]bool{17: true, 25: true, 215: true, 200: true, 207: true}

// RetryTopic returns "%RETRY%"+group, the name group permissions are kept
// under ("" for "").
func RetryTopic(group string) string {
	if group == "" {
		return ""
	}
	return retryPrefix + group
}

// ParsePerm is Permission.parsePermFromString for a present value: PUB,
// SUB, PUB|SUB and SUB|PUB after trimming; anything else is Deny. (An
// absent value is Deny too.)
func ParsePerm(s string) Perm {
	switch trimJava(s) {
	case "PUB":
		return Pub
	case "SUB":
		return Sub
	case "PUB|SUB", "SUB|PUB":
		return Pub | Sub
	}
	return Deny
}

// String is the perm as the yml spells it.
func (p Perm) String() string {
	switch p {
	case Pub:
		return "PUB"
	case Sub:
		return "SUB"
	case Pub | Sub:
		return "PUB|SUB"
	case Deny:
		return "DENY"
	}
	return fmt.Sprintf("Perm(%d)", byte(p))
}

// Allows is Permission.checkPermission(needed, p): Deny refuses everything,
// Any needs Pub or Sub, otherwise one shared bit is enough.
func (p Perm) Allows(needed Perm) bool {
	switch {
	case p&Deny != 0:
		return false
	case needed&Any != 0:
		return p&(Pub|Sub) != 0
	}
	return needed&p != 0
}

// parseResourcePerms is Permission.parseResourcePerms: each entry is
// "name=PERM"; group names are stored as their retry topic.
func parseResourcePerms(into map[string]Perm, entries []string, group bool) error {
	kind := "topic"
	if group {
		kind = "group"
	}
	for _, e := range entries {
		items := splitJava(e, '=')
		if len(items) != 2 {
			return fmt.Errorf("Parse resource permission failed for %s:%s", kind, e)
		}
		name := trimJava(items[0])
		if group {
			name = retryPrefix + name
		}
		into[name] = ParsePerm(items[1])
	}
	return nil
}

// checkResourcePerms is Permission.checkResourcePerms, which the admin
// update applies before writing: the perm must be spelled correctly.
func checkResourcePerms(entries []string) error {
	for _, e := range entries {
		items := splitJava(e, '=')
		if len(items) != 2 {
			return fmt.Errorf("Parse Resource format error for %s.\n"+
				"The expected resource format is 'Res=Perm'. For example: topicA=SUB", e)
		}
		if p := trimJava(items[1]); p != "DENY" && ParsePerm(p) == Deny {
			return fmt.Errorf("Parse resource permission error for %s.\n"+
				"The expected permissions are 'SUB' or 'PUB' or 'SUB|PUB' or 'PUB|SUB'.", e)
		}
	}
	return nil
}

// resourceName is PlainAccessResource.printStr: "group:g" for a retry
// topic, "topic:t" otherwise.
func resourceName(res string) string {
	if g, ok := strings.CutPrefix(res, retryPrefix); ok {
		return "group:" + g
	}
	return "topic:" + res
}
