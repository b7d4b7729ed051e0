package acl

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// What Java sees for `k: <value>`: SnakeYAML's type, then String.valueOf.
func TestResolveScalar(t *testing.T) {
	for in, want := range map[string]string{
		"12345678":    "12345678",
		"0012345678":  "0012345678", // neither octal nor decimal nor float: a string
		"01234567":    "342391",     // YAML 1.1 octal
		"0x1F":        "31",
		"0b101":       "5",
		"1_000":       "1000",
		"-0":          "0",
		"1:30":        "90", // base 60
		"99999999999": "99999999999",
		"1.5":         "1.5",
		"1e3":         "1000.0",
		"12345678.9":  "1.23456789E7",
		"0.0001":      "1.0E-4",
		".inf":        "Infinity",
		"yes":         "true",
		"Off":         "false",
		"null":        "null",
		"~":           "null",
		"2001-01-01":  "2001-01-01",
		"'12345678'":  "12345678",
		"\"yes\"":     "yes",
		"!!str 123":   "123",
		"abc":         "abc",
		"192.168.0.*": "192.168.0.*",
	} {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte("k: "+in), &doc), in)
		s, err := resolveScalar(doc.Content[0].Content[1])
		require.NoError(t, err, in)
		require.Equal(t, want, s.text, in)
	}
	// Digits were printed by a JVM's Double.toString.
	for f, want := range map[float64]string{1.2345678e7: "1.2345678E7", 0.001: "0.001", 1e-4: "1.0E-4",
		100: "100.0", 1.5: "1.5", 12345678.9: "1.23456789E7", 1e21: "1.0E21"} {
		require.Equal(t, want, javalang.FormatDouble(f))
	}
	// An unquoted IPv6-looking address of decimal groups is a base-60 int.
	require.Equal(t, kindInt, implicitKind("1:2:3:4:5:6:7:8"))
	require.Equal(t, kindStr, implicitKind("2001:db8::1"))
}
