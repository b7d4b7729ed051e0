package protocol

import (
	"strconv"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Field helpers of the generated EncodeTo and DecodeFrom methods.
//
// Java 4.9.8 mirror: RemotingCommand.makeCustomHeaderToNet (encode: every
// non-null field as value.toString()) and decodeCommandCustomHeader plus the
// FastCodesHeader.decode methods (decode). Java never fails on a missing
// @CFNotNull field: it logs "the custom field <name> is null" and the
// processor later trips over the null, answering SYSTEM_ERROR. We fail fast
// with the same code and Java's own text as the remark. A malformed number
// fails likewise (as it does in Java's FastCodesHeader decoders; the
// reflective decoder only logs it and leaves the field null, so a malformed
// optional field of an ordinary header decodes as absent).

// ErrFieldNull is the error for a missing required field, and for a
// lenient one where Java's processor trips over its null; Java throws
// there.
func ErrFieldNull(key string) *Error {
	return Threw("the custom field <" + key + "> is null")
}

// errFieldInvalid is the error for a malformed number; err is the
// javalang.NumberFormatError, whose text is the message of the
// NumberFormatException Java would throw.
func errFieldInvalid(key string, err error) error {
	return Threw("the custom field <" + key + "> is invalid: " + err.Error())
}

// fieldDecoder reads header fields from a command's extFields. Its error is
// sticky: the first failure is kept and later reads still run, so a
// generated DecodeFrom is a flat list of reads ending in `return d.err`.
type fieldDecoder struct {
	c    *wire.Command
	fast bool // a FastCodesHeader: a malformed optional number fails too
	err  error
}

func (d *fieldDecoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// value returns the raw value of a field; a required one must be present.
func (d *fieldDecoder) value(key string, required bool) (string, bool) {
	v, ok := extValue(d.c.Ext, key)
	if !ok && required {
		d.fail(ErrFieldNull(key))
	}
	return v, ok
}

// extValue is wire.Command.ExtValue (the last entry of a key wins, like
// Java's HashMap.put) for a non-empty key, comparing first bytes before
// whole strings: the one-letter keys of SendMessageRequestHeaderV2 all have
// the same length, and a memequal call per entry made its decoding 4x
// slower.
func extValue(ext []wire.ExtField, key string) (string, bool) {
	for i := len(ext) - 1; i >= 0; i-- {
		if k := ext[i].Key; len(k) == len(key) && k[0] == key[0] && k == key {
			return ext[i].Value, true
		}
	}
	return "", false
}

func (d *fieldDecoder) requiredString(key string) string {
	v, _ := d.value(key, true) // absence is recorded in d.err
	return v
}

// optString returns an optional string field; "" when absent (null).
func (d *fieldDecoder) optString(key string) string {
	v, _ := d.value(key, false) // absent is ""
	return v
}

// nullableString returns a lenient string field, Valid false when absent.
func (d *fieldDecoder) nullableString(key string) Opt[string] {
	v, ok := d.value(key, false)
	return Opt[string]{Value: v, Valid: ok}
}

// number parses a present field with parse (a javalang parser, which
// allocates only to fail); a failure is an error when the field is required
// or the header is a FastCodesHeader.
func number[T any](d *fieldDecoder, key string, required bool, parse func(string) (T, error)) (T, bool) {
	var zero T
	s, ok := d.value(key, required)
	if !ok {
		return zero, false
	}
	v, err := parse(s)
	if err != nil {
		if required || d.fast {
			d.fail(errFieldInvalid(key, err))
		}
		return zero, false
	}
	return v, true
}

func (d *fieldDecoder) requiredInt32(key string) int32 {
	v, _ := number(d, key, true, javalang.ParseInt)
	return v
}

func (d *fieldDecoder) requiredInt64(key string) int64 {
	v, _ := number(d, key, true, javalang.ParseLong)
	return v
}

func (d *fieldDecoder) requiredFloat64(key string) float64 {
	v, _ := number(d, key, true, javalang.ParseDouble)
	return v
}

func (d *fieldDecoder) requiredBool(key string) bool {
	v, _ := d.value(key, true)
	return javalang.ParseBool(v)
}

func (d *fieldDecoder) optInt32(key string) Opt[int32] {
	v, ok := number(d, key, false, javalang.ParseInt)
	return Opt[int32]{Value: v, Valid: ok}
}

func (d *fieldDecoder) optInt64(key string) Opt[int64] {
	v, ok := number(d, key, false, javalang.ParseLong)
	return Opt[int64]{Value: v, Valid: ok}
}

func (d *fieldDecoder) optFloat64(key string) Opt[float64] {
	v, ok := number(d, key, false, javalang.ParseDouble)
	return Opt[float64]{Value: v, Valid: ok}
}

func (d *fieldDecoder) optBool(key string) Opt[bool] {
	v, ok := d.value(key, false)
	return Opt[bool]{Value: ok && javalang.ParseBool(v), Valid: ok}
}

// plainInt32 reads a field that is never null in Java (a primitive, or a
// boxed field with an initializer): def when absent or malformed.
func (d *fieldDecoder) plainInt32(key string, def int32) int32 {
	if v, ok := number(d, key, false, javalang.ParseInt); ok {
		return v
	}
	return def
}

func (d *fieldDecoder) plainInt64(key string, def int64) int64 {
	if v, ok := number(d, key, false, javalang.ParseLong); ok {
		return v
	}
	return def
}

func (d *fieldDecoder) plainFloat64(key string, def float64) float64 {
	if v, ok := number(d, key, false, javalang.ParseDouble); ok {
		return v
	}
	return def
}

func (d *fieldDecoder) plainBool(key string, def bool) bool {
	if v, ok := d.value(key, false); ok {
		return javalang.ParseBool(v)
	}
	return def
}

// Encoders: put* always writes the field (required fields and fields that
// are never null in Java), putOpt* only a non-null one. A required string
// is written even when empty: Java would send "" as well.

func putString(c *wire.Command, key, v string) { c.AddExt(key, v) }

func putOptString(c *wire.Command, key, v string) {
	if v != "" {
		c.AddExt(key, v)
	}
}

func putNullableString(c *wire.Command, key string, v Opt[string]) {
	if v.Valid {
		c.AddExt(key, v.Value)
	}
}

func putInt32(c *wire.Command, key string, v int32) {
	c.AddExt(key, strconv.FormatInt(int64(v), 10))
}

func putInt64(c *wire.Command, key string, v int64) {
	c.AddExt(key, strconv.FormatInt(v, 10))
}

func putBool(c *wire.Command, key string, v bool) { c.AddExt(key, strconv.FormatBool(v)) }

func putFloat64(c *wire.Command, key string, v float64) { c.AddExt(key, javalang.FormatDouble(v)) }

func putOptInt32(c *wire.Command, key string, v Opt[int32]) {
	if v.Valid {
		putInt32(c, key, v.Value)
	}
}

func putOptInt64(c *wire.Command, key string, v Opt[int64]) {
	if v.Valid {
		putInt64(c, key, v.Value)
	}
}

func putOptBool(c *wire.Command, key string, v Opt[bool]) {
	if v.Valid {
		putBool(c, key, v.Value)
	}
}

func putOptFloat64(c *wire.Command, key string, v Opt[float64]) {
	if v.Valid {
		putFloat64(c, key, v.Value)
	}
}
