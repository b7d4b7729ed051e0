package acl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: Permission.parsePermFromString.
func TestParsePerm(t *testing.T) {
	for in, want := range map[string]Perm{
		"PUB": Pub, "SUB": Sub, "PUB|SUB": Pub | Sub, "SUB|PUB": Pub | Sub, "DENY": Deny,
		" PUB ": Pub, "pub": Deny, "": Deny, "PUB |SUB": Deny, "ANY": Deny,
	} {
		require.Equal(t, want, ParsePerm(in), "%q", in)
	}
}

// Java 4.9.8: Permission.checkPermission(needed, owned).
func TestAllows(t *testing.T) {
	for _, c := range []struct {
		owned, needed Perm
		want          bool
	}{
		{Pub, Pub, true}, {Pub, Sub, false}, {Sub, Sub, true}, {Sub, Pub, false},
		{Pub | Sub, Pub, true}, {Pub | Sub, Sub, true},
		{Deny, Pub, false}, {Deny | Pub, Pub, false}, {Deny, Deny, false},
		{Pub, Any, true}, {Sub, Any, true}, {Deny, Any, false}, {0, Any, false},
		{0, Pub, false}, {Pub, Pub | Sub, true},
	} {
		require.Equal(t, c.want, c.owned.Allows(c.needed), "owned %v needed %v", c.owned, c.needed)
	}
}

// Java 4.9.8: Permission.parseResourcePerms.
func TestParseResourcePerms(t *testing.T) {
	m := map[string]Perm{}
	require.NoError(t, parseResourcePerms(m, []string{"topicA=PUB", " topicB = SUB|PUB ", "==t==SUB=="}, false))
	require.NoError(t, parseResourcePerms(m, []string{"g=SUB"}, true))
	require.Equal(t, map[string]Perm{"topicA": Pub, "topicB": Pub | Sub, "t": Sub, "%RETRY%g": Sub}, m)

	err := parseResourcePerms(m, []string{"topicA"}, false)
	require.EqualError(t, err, "Parse resource permission failed for topic:topicA")
	err = parseResourcePerms(m, []string{"g=SUB=x"}, true)
	require.EqualError(t, err, "Parse resource permission failed for group:g=SUB=x")
}

func TestRetryTopicAndResourceName(t *testing.T) {
	require.Equal(t, "%RETRY%g", RetryTopic("g"))
	require.Equal(t, "", RetryTopic(""))
	require.Equal(t, "group:g", resourceName("%RETRY%g"))
	require.Equal(t, "topic:t", resourceName("t"))
}

// The order Java's HashMap iterates String keys in: by bucket of the
// spread hashCode. The expected orders were printed by a JVM (HashMap
// keySet after inserting the keys in the order listed).
func TestJavaHashOrder(t *testing.T) {
	order := func(keys ...string) []string {
		var r Request
		for _, k := range keys {
			r.Need(k, Sub)
		}
		return r.Resources.Keys()
	}
	require.Equal(t, []string{"topicA", "b", "c", "%RETRY%groupA", "%RETRY%g"}, order("%RETRY%g", "c", "topicA", "b", "%RETRY%groupA"))
	var many []string
	for i := range 20 {
		many = append(many, fmt.Sprintf("topic%d", i))
	}
	require.Equal(t, []string{"topic1", "topic2", "topic0", "topic5", "topic6", "topic3", "topic4", "topic9",
		"topic12", "topic13", "topic7", "topic14", "topic8", "topic15", "topic16", "topic17", "topic18",
		"topic19", "topic10", "topic11"}, order(many...))
}
