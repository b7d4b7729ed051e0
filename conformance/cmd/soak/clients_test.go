package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVersions(t *testing.T) {
	vs, err := parseVersions(" 4.3.2, 5.3.1,,4.9.8 ")
	require.NoError(t, err)
	assert.Equal(t, []string{"4.3.2", "5.3.1", "4.9.8"}, vs)
	for _, bad := range []string{"4.7", "latest", "4.x.1", "5..1"} {
		_, err := parseVersions(bad)
		assert.Error(t, err, bad)
	}
}

func TestClientRuns(t *testing.T) {
	cases := []struct {
		version, kind string
		want          bool
	}{
		{"4.3.2", kindJPlain, true},
		{"4.3.2", kindJOrderly, true},
		{"4.5.2", kindJLitePull, false},
		{"4.6.0", kindJLitePull, true},
		{"4.9.8", kindJLitePull, true},
		{"5.1.4", kindJLitePull, false},
		{"5.3.1", kindJPlain, true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, clientRuns(c.version, c.kind), "%s %s", c.version, c.kind)
	}
	assert.Error(t, checkClients([]string{"4.3.2", "5.3.1"}, []string{kindJPlain, kindJLitePull}))
	assert.NoError(t, checkClients([]string{"4.3.2", "4.7.1"}, []string{kindJPlain, kindJLitePull}))
	assert.NoError(t, checkClients(nil, []string{kindJLitePull}))
}

// Each slot takes every version of a kind in turn over its cycles of
// that kind, and the two slots start apart.
func TestClientOfRotates(t *testing.T) {
	o := options{kinds: []string{kindPlain, kindJPlain, kindJLitePull}, javaClients: []string{"4.3.2", "4.7.1", "5.3.1"}}
	for slot := range 2 {
		seen := map[string]map[string]int{}
		for cycle := range 60 {
			kind := kindOf(o.kinds, slot, cycle)
			v := clientOf(o, kind, slot, cycle)
			if !javaKind(kind) {
				assert.Empty(t, v)
				continue
			}
			require.True(t, clientRuns(v, kind), "%s %s", kind, v)
			if seen[kind] == nil {
				seen[kind] = map[string]int{}
			}
			seen[kind][v]++
		}
		require.Len(t, seen[kindJPlain], 3, "slot %d", slot)
		for v, n := range seen[kindJPlain] {
			assert.Contains(t, []int{6, 7}, n, "slot %d, %s", slot, v)
		}
		assert.Equal(t, map[string]int{"4.7.1": 20}, seen[kindJLitePull], "slot %d", slot)
	}
	assert.NotEqual(t, clientOf(o, kindJPlain, 0, 1), clientOf(o, kindJPlain, 1, 0))
}

func TestSortLabels(t *testing.T) {
	labels := []string{"jplain@5.3.1", "plain", "jplain@4.10.0", "jorderly@4.3.2", "jplain@4.3.2"}
	sortLabels(labels, []string{kindPlain, kindJPlain, kindJOrderly})
	assert.Equal(t, []string{"plain", "jplain@4.3.2", "jplain@4.10.0", "jplain@5.3.1", "jorderly@4.3.2"}, labels)
}
