package fastjson

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// Conversion errors of the As... methods.
var (
	// ErrNull: the value is absent, null, or a string "", "null" or "NULL";
	// fastjson leaves the Java field at its default.
	ErrNull = errors.New("fastjson: null value")
	// ErrType: fastjson would throw a JSONException filling the field.
	ErrType = errors.New("fastjson: cannot convert")
)

func typeError(v Value, target string) error {
	return fmt.Errorf("%w %s %q to %s", ErrType, v.kind, v.text, target)
}

func isNullText(s string) bool { return s == "" || s == "null" || s == "NULL" }

// AsString converts v for a String field: strings as they are, numbers by
// their literal, booleans as "true"/"false", objects and arrays as their
// Compact JSON.
func (v Value) AsString() (string, error) {
	switch v.kind {
	case String, Number, Bool:
		return v.text, nil
	case Object, Array:
		return v.String(), nil
	}
	return "", ErrNull
}

// AsInt converts v for a Java int field (see AsInt64); booleans are 1 and
// 0 here, as in fastjson.
func (v Value) AsInt() (int32, error) {
	if v.kind == Bool {
		if v.text == "true" {
			return 1, nil
		}
		return 0, nil
	}
	n, err := v.integer(32, "int")
	return int32(n), err
}

// AsInt64 converts v for a Java long field: an integer literal in range; a
// literal with a fraction or exponent truncated toward zero (12.7 → 12,
// 1e2 → 100); a string with commas removed and a trailing ".000" dropped,
// then Long.parseLong ("1,000" → 1000, "12.7" and " 12" fail). Booleans
// fail, unlike AsInt.
func (v Value) AsInt64() (int64, error) { return v.integer(64, "long") }

func (v Value) integer(bits int, target string) (int64, error) {
	switch v.kind {
	case Absent, Null:
		return 0, ErrNull
	case Number:
		n, ok := literalToInt(v.text, bits)
		if !ok {
			return 0, typeError(v, target)
		}
		return n, nil
	case String:
		if isNullText(v.text) {
			return 0, ErrNull
		}
		s := trimZeroFraction(strings.ReplaceAll(v.text, ",", ""))
		n, ok := parseInteger(s, bits)
		if !ok {
			return 0, typeError(v, target)
		}
		return n, nil
	}
	return 0, typeError(v, target)
}

// trimZeroFraction drops a trailing "\.0*" (fastjson's
// NUMBER_WITH_TRAILING_ZEROS_PATTERN).
func trimZeroFraction(s string) string {
	t := strings.TrimRight(s, "0")
	if strings.HasSuffix(t, ".") {
		return t[:len(t)-1]
	}
	return s
}

// literalToInt converts a number literal to an integer of the given size,
// truncating a fraction toward zero (BigDecimal.longValue / intValue for
// in-range values). It works on the decimal digits, so its cost is linear in
// the literal whatever the exponent.
func literalToInt(lit string, bits int) (int64, bool) {
	sign := ""
	if strings.HasPrefix(lit, "-") {
		sign, lit = "-", lit[1:]
	}
	mant, exp, ok := splitExponent(lit)
	if !ok {
		return 0, false
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	trimmed := strings.TrimLeft(digits, "0")
	point := int64(len(intPart)) - int64(len(digits)-len(trimmed)) + exp // digits before the point
	switch {
	case trimmed == "" || point <= 0:
		return 0, true
	case point > 19: // >= 1e19 > MaxInt64
		return 0, false
	}
	whole := trimmed
	if int64(len(whole)) >= point {
		whole = whole[:point]
	} else {
		whole += strings.Repeat("0", int(point)-len(whole))
	}
	return parseInteger(sign+whole, bits)
}

// parseInteger is Integer.parseInt (bits 32) or Long.parseLong (bits 64):
// the syntax is the same, an int is a long that fits 32 bits.
func parseInteger(s string, bits int) (int64, bool) {
	n, err := javalang.ParseLong(s)
	if err != nil || bits == 32 && n != int64(int32(n)) {
		return 0, false
	}
	return n, true
}

// splitExponent splits "mant[eE]exp"; exponents beyond ±1e9 are clamped
// (they only decide between zero and out of range).
func splitExponent(lit string) (string, int64, bool) {
	i := strings.IndexAny(lit, "eE")
	if i < 0 {
		return lit, 0, true
	}
	e := lit[i+1:]
	neg := strings.HasPrefix(e, "-")
	e = strings.TrimLeft(e, "+-")
	if e == "" || strings.Trim(e, "0123456789") != "" {
		return "", 0, false
	}
	n, err := strconv.ParseInt(e, 10, 64)
	if err != nil || n > 1e9 {
		n = 1e9
	}
	if neg {
		n = -n
	}
	return lit[:i], n, true
}

// AsBool converts v for a boolean field: numbers are true when their int
// value is 1; strings "true"/"false" (any case), "1"/"0", "Y"/"y"/"T" and
// "F"/"f"/"N".
func (v Value) AsBool() (bool, error) {
	switch v.kind {
	case Absent, Null:
		return false, ErrNull
	case Bool:
		return v.text == "true", nil
	case Number:
		n, ok := literalToInt(v.text, 32)
		if !ok {
			return false, typeError(v, "boolean")
		}
		return n == 1, nil
	case String:
		return stringToBool(v)
	}
	return false, typeError(v, "boolean")
}

func stringToBool(v Value) (bool, error) {
	s := v.text
	switch {
	case isNullText(s):
		return false, ErrNull
	case strings.EqualFold(s, "true") || s == "1" || strings.EqualFold(s, "Y") || s == "T":
		return true, nil
	case strings.EqualFold(s, "false") || s == "0" || strings.EqualFold(s, "F") || s == "N":
		return false, nil
	}
	return false, typeError(v, "boolean")
}

// AsFloat64 converts v for a double field: numbers by their literal,
// strings with commas removed through Double.parseDouble (which trims).
func (v Value) AsFloat64() (float64, error) {
	switch v.kind {
	case Absent, Null:
		return 0, ErrNull
	case Number:
		f, err := strconv.ParseFloat(strings.TrimSuffix(v.text, "."), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, typeError(v, "double")
		}
		return f, nil
	case String:
		if isNullText(v.text) {
			return 0, ErrNull
		}
		f, err := javalang.ParseDouble(strings.ReplaceAll(v.text, ",", ""))
		if err != nil {
			return 0, typeError(v, "double")
		}
		return f, nil
	}
	return 0, typeError(v, "double")
}

// Decoder reads typed values out of a parsed tree with a sticky error: the
// first conversion failure is kept (Err) and later calls return defaults,
// so a body decoder checks once at the end. Absent and null values (ErrNull)
// are not failures: they yield the default passed in, which should be the
// Java field's initial value.
type Decoder struct {
	err error
}

// Err returns the first failure.
func (d *Decoder) Err() error { return d.err }

// Fail records err if no failure was recorded yet.
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *Decoder) ok(err error) bool {
	if err == nil {
		return true
	}
	if !errors.Is(err, ErrNull) {
		d.Fail(err)
	}
	return false
}

// String returns v.AsString() or def.
func (d *Decoder) String(v Value, def string) string {
	s, err := v.AsString()
	if d.err != nil || !d.ok(err) {
		return def
	}
	return s
}

// Int returns v.AsInt() or def (Java int).
func (d *Decoder) Int(v Value, def int32) int32 {
	n, err := v.AsInt()
	if d.err != nil || !d.ok(err) {
		return def
	}
	return n
}

// Int64 returns v.AsInt64() or def (Java long).
func (d *Decoder) Int64(v Value, def int64) int64 {
	n, err := v.AsInt64()
	if d.err != nil || !d.ok(err) {
		return def
	}
	return n
}

// Bool returns v.AsBool() or def.
func (d *Decoder) Bool(v Value, def bool) bool {
	b, err := v.AsBool()
	if d.err != nil || !d.ok(err) {
		return def
	}
	return b
}

// Float64 returns v.AsFloat64() or def.
func (d *Decoder) Float64(v Value, def float64) float64 {
	f, err := v.AsFloat64()
	if d.err != nil || !d.ok(err) {
		return def
	}
	return f
}

// Object returns v if it is an object; an Absent value (nothing to iterate)
// if v is null or absent; otherwise it records ErrType.
func (d *Decoder) Object(v Value) Value { return d.container(v, Object) }

// Array returns v if it is an array; Absent if v is null or absent;
// otherwise it records ErrType.
func (d *Decoder) Array(v Value) Value { return d.container(v, Array) }

func (d *Decoder) container(v Value, kind Kind) Value {
	switch {
	case d.err != nil || v.IsNull():
		return Value{}
	case v.kind == kind:
		return v
	}
	d.Fail(typeError(v, kind.String()))
	return Value{}
}
