package acl

// Java reads the acl files with SnakeYAML (YAML 1.1 implicit types) and
// then lets fastjson convert the values to PlainAccessConfig's fields. This
// file gives each YAML scalar the Java value it becomes, so that
// "secretKey: 12345678" is the string "12345678", "admin: yes" is true and
// an empty value is null.

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// The implicit type patterns of SnakeYAML 2.0's Resolver.
var (
	yamlBool  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	yamlInt   = regexp.MustCompile(`^(?:[-+]?0b_*[0-1]+[0-1_]*|[-+]?0_*[0-7]+[0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F]+[0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yamlFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlNull  = regexp.MustCompile(`^(?:~|null|Null|NULL| |)$`)
	yamlTime  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
)

type scalarKind int

const (
	kindNull scalarKind = iota
	kindStr
	kindBool
	kindInt
	kindFloat
	kindTime
)

// scalar is a YAML scalar as the Java object SnakeYAML builds from it.
type scalar struct {
	kind scalarKind
	// text is String.valueOf of the Java object (timestamps keep their
	// YAML text).
	text string
	b    bool
	i    *big.Int
	f    float64
}

// resolveScalar types a scalar node as SnakeYAML does: quoted and !!str
// scalars are strings, plain ones are matched against the implicit types in
// SnakeYAML's order for their first character.
func resolveScalar(n *yaml.Node) (scalar, error) {
	v := n.Value
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return scalar{kind: kindStr, text: v}, nil
	}
	if n.Style&yaml.TaggedStyle != 0 {
		return resolveTagged(n)
	}
	switch kind := implicitKind(v); kind {
	case kindBool:
		b := strings.ContainsRune("yYtToO", rune(v[0])) && !strings.EqualFold(v, "off")
		return scalar{kind: kindBool, b: b, text: strconv.FormatBool(b)}, nil
	case kindInt:
		return yamlIntScalar(v)
	case kindFloat:
		return yamlFloatScalar(v)
	case kindNull:
		return scalar{kind: kindNull, text: "null"}, nil
	default:
		return scalar{kind: kind, text: v}, nil
	}
}

// implicitKind is Resolver.resolve for a plain scalar.
func implicitKind(v string) scalarKind {
	if v == "" {
		return kindNull
	}
	c := v[0]
	switch {
	case strings.IndexByte("yYnNtTfFoO", c) >= 0 && yamlBool.MatchString(v):
		return kindBool
	case strings.IndexByte("-+0123456789", c) >= 0 && yamlInt.MatchString(v):
		return kindInt
	case strings.IndexByte("-+0123456789.", c) >= 0 && yamlFloat.MatchString(v):
		return kindFloat
	case strings.IndexByte("~nN", c) >= 0 && yamlNull.MatchString(v):
		return kindNull
	case c >= '0' && c <= '9' && yamlTime.MatchString(v):
		return kindTime
	}
	return kindStr
}

// resolveTagged handles an explicit standard tag.
func resolveTagged(n *yaml.Node) (scalar, error) {
	want := map[string]scalarKind{"!!str": kindStr, "!!null": kindNull, "!!bool": kindBool,
		"!!int": kindInt, "!!float": kindFloat, "!!timestamp": kindTime}
	kind, ok := want[n.ShortTag()]
	if !ok {
		return scalar{}, fmt.Errorf("line %d: unsupported tag %s", n.Line, n.Tag)
	}
	if kind == kindStr {
		return scalar{kind: kindStr, text: n.Value}, nil
	}
	if kind == kindNull {
		return scalar{kind: kindNull, text: "null"}, nil
	}
	plain := *n
	plain.Style &^= yaml.TaggedStyle
	s, err := resolveScalar(&plain)
	if err == nil && s.kind != kind {
		err = fmt.Errorf("line %d: %q is not a valid %s", n.Line, n.Value, n.ShortTag())
	}
	return s, err
}

// yamlIntScalar is SafeConstructor.ConstructYamlInt: underscores dropped,
// 0b binary, 0x hex, 0 octal, a:b:c base 60, otherwise decimal.
func yamlIntScalar(v string) (scalar, error) {
	v = strings.ReplaceAll(v, "_", "")
	neg := false
	if v[0] == '-' || v[0] == '+' {
		neg, v = v[0] == '-', v[1:]
	}
	var i *big.Int
	switch {
	case v == "0":
		i = new(big.Int)
	case strings.HasPrefix(v, "0b"):
		i, _ = new(big.Int).SetString(v[2:], 2)
	case strings.HasPrefix(v, "0x"):
		i, _ = new(big.Int).SetString(v[2:], 16)
	case strings.HasPrefix(v, "0"):
		i, _ = new(big.Int).SetString(v[1:], 8)
	case strings.Contains(v, ":"):
		i = sexagesimal(v)
	default:
		i, _ = new(big.Int).SetString(v, 10)
	}
	if i == nil {
		return scalar{}, fmt.Errorf("%q is not an integer", v)
	}
	if neg {
		i.Neg(i)
	}
	return scalar{kind: kindInt, i: i, text: i.String()}, nil
}

// sexagesimal reads "a:b:c" as ((a*60)+b)*60+c.
func sexagesimal(v string) *big.Int {
	sum := new(big.Int)
	for _, d := range strings.Split(v, ":") {
		n, ok := new(big.Int).SetString(d, 10)
		if !ok {
			return nil
		}
		sum.Mul(sum, big.NewInt(60)).Add(sum, n)
	}
	return sum
}

// yamlFloatScalar is SafeConstructor.ConstructYamlFloat.
func yamlFloatScalar(v string) (scalar, error) {
	v = strings.ReplaceAll(v, "_", "")
	sign := 1.0
	if v[0] == '-' || v[0] == '+' {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	var f float64
	switch lower := strings.ToLower(v); {
	case lower == ".inf":
		f = math.Inf(1)
	case lower == ".nan":
		f = math.NaN()
	case strings.Contains(v, ":"):
		for _, d := range strings.Split(v, ":") {
			x, err := strconv.ParseFloat(d, 64)
			if err != nil {
				return scalar{}, fmt.Errorf("%q is not a float", v)
			}
			f = f*60 + x
		}
	default:
		x, err := strconv.ParseFloat(v, 64)
		if err != nil && !isRangeErr(err) {
			return scalar{}, fmt.Errorf("%q is not a float", v)
		}
		f = x
	}
	f *= sign
	return scalar{kind: kindFloat, f: f, text: javalang.FormatDouble(f)}, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
