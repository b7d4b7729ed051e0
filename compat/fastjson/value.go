package fastjson

import (
	"cmp"
	"iter"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the type of a Value.
type Kind uint8

// Kinds of Value. Absent is the zero Value: what Get and Index return for a
// member or element that is not there.
const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"absent", "null", "bool", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Value is a parsed JSON value. Numbers keep their literal text (a type
// suffix such as 12L dropped); object members keep their order, duplicates
// included, and their keys may be strings, numbers, objects or arrays.
type Value struct {
	kind Kind
	text string  // String: decoded; Number: literal; Bool: "true"/"false"
	kids []Value // Array: elements; Object: key0, value0, key1, value1, ...
}

// Kind returns v's kind.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null or absent.
func (v Value) IsNull() bool { return v.kind == Absent || v.kind == Null }

// Text returns the decoded text of a String, the literal of a Number,
// "true"/"false" for a Bool and "" for anything else.
func (v Value) Text() string { return v.text }

// Len returns the number of elements of an Array or members of an Object.
func (v Value) Len() int {
	switch v.kind {
	case Array:
		return len(v.kids)
	case Object:
		return len(v.kids) / 2
	}
	return 0
}

// Index returns element i of an Array, or an Absent value.
func (v Value) Index(i int) Value {
	if v.kind != Array || i < 0 || i >= len(v.kids) {
		return Value{}
	}
	return v.kids[i]
}

// Member returns key and value of member i of an Object (Absent values if
// out of range).
func (v Value) Member(i int) (key, val Value) {
	if v.kind != Object || i < 0 || 2*i+1 >= len(v.kids) {
		return Value{}, Value{}
	}
	return v.kids[2*i], v.kids[2*i+1]
}

// Get returns the value of the last member whose key is the string (or
// unquoted identifier, or number literal) name, like a Java map where the
// last duplicate wins; Absent if there is none or v is not an Object.
func (v Value) Get(name string) Value {
	if v.kind != Object {
		return Value{}
	}
	for i := len(v.kids) - 2; i >= 0; i -= 2 {
		k := v.kids[i]
		if (k.kind == String || k.kind == Number) && k.text == name {
			return v.kids[i+1]
		}
	}
	return Value{}
}

// Elems iterates over the elements of an Array.
func (v Value) Elems() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		if v.kind != Array {
			return
		}
		for i, e := range v.kids {
			if !yield(i, e) {
				return
			}
		}
	}
}

// Members iterates over the members of an Object in document order.
func (v Value) Members() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		if v.kind != Object {
			return
		}
		for i := 0; i+1 < len(v.kids); i += 2 {
			if !yield(v.kids[i], v.kids[i+1]) {
				return
			}
		}
	}
}

// MakeString returns a String value.
func MakeString(s string) Value { return Value{kind: String, text: s} }

// MakeNumber returns a Number value holding literal (not checked).
func MakeNumber(literal string) Value { return Value{kind: Number, text: literal} }

// MakeBool returns a Bool value.
func MakeBool(b bool) Value {
	if b {
		return Value{kind: Bool, text: "true"}
	}
	return Value{kind: Bool, text: "false"}
}

// MakeNull returns a null value.
func MakeNull() Value { return Value{kind: Null} }

// MakeArray returns an Array of elems (not copied).
func MakeArray(elems ...Value) Value { return Value{kind: Array, kids: elems} }

// MakeObject returns an Object from alternating keys and values (not
// copied); an odd trailing key is dropped.
func MakeObject(keyValues ...Value) Value {
	return Value{kind: Object, kids: keyValues[:len(keyValues)&^1]}
}

// CompareJavaStrings orders a and b as Java's String.compareTo does (by
// UTF-16 code unit), which is the order MapSortField gives String keys. It
// differs from Go's byte order only between supplementary characters and
// U+E000..U+FFFF.
func CompareJavaStrings(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ha, la := utf16Units(ra)
			hb, lb := utf16Units(rb)
			if ha != hb {
				return cmp.Compare(int(ha), int(hb))
			}
			return cmp.Compare(int(la), int(lb))
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// utf16Units returns the first UTF-16 unit of r and the second (0 for BMP).
func utf16Units(r rune) (uint16, uint16) {
	if r < 0x10000 {
		return uint16(r), 0
	}
	hi, lo := utf16.EncodeRune(r)
	return uint16(hi), uint16(lo)
}

// String renders v in Compact mode (for debugging and error messages).
func (v Value) String() string {
	w := NewWriter(Compact)
	w.Value(v)
	return string(w.Bytes())
}
