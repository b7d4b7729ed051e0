package acl

// Reading one acl yml file the way PlainPermissionManager.load reads it:
// AclUtils.getYamlDataObject, then fastjson's getJSONArray/toJavaList.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Account is one entry of "accounts" (Java's PlainAccessConfig). Fields are
// in fastjson's (alphabetical) order so that encoding/json writes them as a
// Java broker does; empty strings and lists stand for Java's null.
type Account struct {
	AccessKey          string   `json:"accessKey,omitempty"`
	Admin              bool     `json:"admin"`
	DefaultGroupPerm   string   `json:"defaultGroupPerm,omitempty"`
	DefaultTopicPerm   string   `json:"defaultTopicPerm,omitempty"`
	GroupPerms         []string `json:"groupPerms,omitempty"`
	SecretKey          string   `json:"secretKey,omitempty"`
	TopicPerms         []string `json:"topicPerms,omitempty"`
	WhiteRemoteAddress string   `json:"whiteRemoteAddress,omitempty"`
}

// DataVersion is a file's "dataVersion" (Java's DataVersion).
type DataVersion struct {
	Counter   int64 `json:"counter"`
	Timestamp int64 `json:"timestamp"`
}

// fileConf is what one file holds. Empty is true for a file without data
// (Java logs "No data in file" and skips it).
type fileConf struct {
	Empty       bool
	GlobalWhite []string
	Accounts    []Account
	// Version is nil when the file has no dataVersion.
	Version *DataVersion
}

// The top-level keys (AclConstants).
const (
	keyGlobalWhite = "globalWhiteRemoteAddresses"
	keyAccounts    = "accounts"
	keyDataVersion = "dataVersion"
)

// parseFile decodes one file's bytes.
func parseFile(data []byte) (fileConf, error) {
	root, err := decodeRoot(data)
	if err != nil || root == nil {
		return fileConf{Empty: true}, err
	}
	if root.Kind != yaml.MappingNode {
		return fileConf{}, fmt.Errorf("line %d: the document is not a mapping", root.Line)
	}
	if len(root.Content) == 0 {
		return fileConf{Empty: true}, nil
	}
	top := mappingFields(root, false)
	var c fileConf
	if c.GlobalWhite, err = stringList(top[keyGlobalWhite], true); err != nil {
		return fileConf{}, fmt.Errorf("%s: %w", keyGlobalWhite, err)
	}
	if c.Accounts, err = accountList(top[keyAccounts]); err != nil {
		return fileConf{}, fmt.Errorf("%s: %w", keyAccounts, err)
	}
	if c.Version, err = dataVersion(top[keyDataVersion]); err != nil {
		return fileConf{}, fmt.Errorf("%s: %w", keyDataVersion, err)
	}
	return c, nil
}

// decodeRoot returns the single document's root node, or nil for an empty
// file or a null document.
func decodeRoot(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("expected a single document: %v", err)
	}
	root := deref(&doc)
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = deref(root.Content[0])
	}
	if root.Kind == yaml.ScalarNode {
		s, err := resolveScalar(root)
		if err == nil && s.kind == kindNull {
			return nil, nil
		}
	}
	return root, nil
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// mappingFields indexes a mapping's values by key; with loose set, keys are
// matched as fastjson matches bean properties (case and '_'/'-' ignored).
// A repeated key keeps its last value, as SnakeYAML does.
func mappingFields(m *yaml.Node, loose bool) map[string]*yaml.Node {
	out := make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := deref(m.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		key := k.Value
		if loose {
			key = looseKey(key)
		}
		out[key] = deref(m.Content[i+1])
	}
	return out
}

func looseKey(k string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))
}

// nullable reports whether n is absent or a null scalar.
func nullable(n *yaml.Node) (scalar, bool, error) {
	if n == nil {
		return scalar{kind: kindNull}, true, nil
	}
	if n.Kind != yaml.ScalarNode {
		return scalar{}, false, nil
	}
	s, err := resolveScalar(n)
	return s, err == nil && s.kind == kindNull, err
}

// stringValue is fastjson's castToString: null is "", other scalars their
// Java text. A list or mapping is refused (fastjson would write it as JSON).
func stringValue(n *yaml.Node) (string, bool, error) {
	s, null, err := nullable(n)
	if err != nil || null {
		return "", false, err
	}
	if n.Kind != yaml.ScalarNode {
		return "", false, fmt.Errorf("line %d: expected a scalar", n.Line)
	}
	return s.text, true, nil
}

// stringList reads a list of scalars; null entries are "" when allowNull,
// an error otherwise (Java fails on them with a NullPointerException).
func stringList(n *yaml.Node, allowNull bool) ([]string, error) {
	if _, null, err := nullable(n); err != nil || null {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: expected a list", n.Line)
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		s, present, err := stringValue(deref(e))
		if err != nil {
			return nil, err
		}
		if !present && !allowNull {
			return nil, fmt.Errorf("line %d: null entry", e.Line)
		}
		out = append(out, s)
	}
	return out, nil
}

func accountList(n *yaml.Node) ([]Account, error) {
	if _, null, err := nullable(n); err != nil || null {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: expected a list", n.Line)
	}
	out := make([]Account, 0, len(n.Content))
	for _, e := range n.Content {
		a, err := accountFrom(deref(e))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// accountFrom converts one mapping to PlainAccessConfig as fastjson does;
// unknown keys are ignored.
func accountFrom(n *yaml.Node) (Account, error) {
	if n == nil || n.Kind != yaml.MappingNode {
		line := 0
		if n != nil {
			line = n.Line
		}
		return Account{}, fmt.Errorf("line %d: an account must be a mapping", line)
	}
	f := mappingFields(n, true)
	var a Account
	var err error
	strs := []struct {
		key string
		dst *string
	}{{"accesskey", &a.AccessKey}, {"secretkey", &a.SecretKey}, {"whiteremoteaddress", &a.WhiteRemoteAddress},
		{"defaulttopicperm", &a.DefaultTopicPerm}, {"defaultgroupperm", &a.DefaultGroupPerm}}
	for _, s := range strs {
		if *s.dst, _, err = stringValue(f[s.key]); err != nil {
			return Account{}, fmt.Errorf("%s: %w", s.key, err)
		}
	}
	if a.Admin, err = boolValue(f["admin"]); err != nil {
		return Account{}, fmt.Errorf("admin: %w", err)
	}
	if a.TopicPerms, err = stringList(f["topicperms"], false); err != nil {
		return Account{}, fmt.Errorf("topicPerms: %w", err)
	}
	if a.GroupPerms, err = stringList(f["groupperms"], false); err != nil {
		return Account{}, fmt.Errorf("groupPerms: %w", err)
	}
	return a, nil
}

// boolValue is fastjson's castToBoolean for a primitive boolean: null is
// false, numbers are true when their int value is 1, strings may be
// true/false (any case), 1/0, Y/T or F/N.
func boolValue(n *yaml.Node) (bool, error) {
	s, null, err := nullable(n)
	if err != nil || null {
		return false, err
	}
	if n.Kind != yaml.ScalarNode {
		return false, fmt.Errorf("line %d: expected a boolean", n.Line)
	}
	switch s.kind {
	case kindBool:
		return s.b, nil
	case kindInt:
		return intValue(s.i) == 1, nil
	case kindFloat:
		return s.f >= 1 && s.f < 2, nil
	}
	switch t := s.text; {
	case t == "" || t == "null" || t == "NULL":
		return false, nil
	case strings.EqualFold(t, "true") || t == "1" || strings.EqualFold(t, "Y") || t == "T":
		return true, nil
	case strings.EqualFold(t, "false") || t == "0" || strings.EqualFold(t, "F") || t == "N":
		return false, nil
	}
	return false, fmt.Errorf("line %d: can not cast %q to boolean", n.Line, s.text)
}

// intValue is Number.intValue: the low 32 bits.
func intValue(i *big.Int) int32 {
	low := new(big.Int).And(i, big.NewInt(0xffffffff))
	return int32(uint32(low.Uint64()))
}

// longValue is fastjson's castToLong for a scalar.
func longValue(n *yaml.Node) (int64, bool, error) {
	s, null, err := nullable(n)
	if err != nil || null {
		return 0, false, err
	}
	if n.Kind == yaml.ScalarNode {
		switch s.kind {
		case kindInt:
			return s.i.Int64(), true, nil
		case kindFloat:
			return int64(s.f), true, nil
		case kindStr:
			if v, err := strconv.ParseInt(strings.TrimSpace(s.text), 10, 64); err == nil {
				return v, true, nil
			}
		}
	}
	return 0, false, fmt.Errorf("line %d: expected a number", n.Line)
}

// dataVersion reads the first element of the "dataVersion" list. A missing
// timestamp is nowMillis() (DataVersion's constructor default), resolved by
// the caller: Timestamp is -1 then.
func dataVersion(n *yaml.Node) (*DataVersion, error) {
	if _, null, err := nullable(n); err != nil || null {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: expected a list", n.Line)
	}
	if len(n.Content) == 0 {
		return nil, nil
	}
	first := deref(n.Content[0])
	if first == nil || first.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: expected a mapping", n.Content[0].Line)
	}
	f := mappingFields(first, true)
	v := &DataVersion{Timestamp: -1}
	var err error
	var ok bool
	if v.Counter, _, err = longValue(f["counter"]); err != nil {
		return nil, fmt.Errorf("counter: %w", err)
	}
	ts, ok, err := longValue(f["timestamp"])
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	if ok {
		v.Timestamp = ts
	}
	return v, nil
}
