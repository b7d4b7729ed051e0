package body

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Decode errors.
var (
	// ErrCorrupt marks a body that fastjson cannot turn into the Java class
	// (JSONException): bad syntax, wrong container kind, unconvertible
	// value. Java answers such a request with SYSTEM_ERROR.
	ErrCorrupt = errors.New("body: corrupt")
	// ErrNull marks a body that Java decodes to null: no bytes, only
	// white space, or the JSON literal null. The Java processors then
	// throw a NullPointerException.
	ErrNull = errors.New("body: null")
)

// fieldSet maps a bean's property names for fastjson's field lookup.
type fieldSet struct {
	exact  map[string]string
	folded map[string]string // lower case, '_' and '-' removed
	bools  map[string]bool
}

// fields lists a bean's properties; a trailing '?' marks a boolean one
// (its "is" prefix may be given in the JSON key).
func fields(names ...string) fieldSet {
	s := fieldSet{exact: map[string]string{}, folded: map[string]string{}, bools: map[string]bool{}}
	for _, n := range names {
		isBool := strings.HasSuffix(n, "?")
		n = strings.TrimSuffix(n, "?")
		s.exact[n], s.folded[fold(n)], s.bools[n] = n, n, isBool
	}
	return s
}

var folder = strings.NewReplacer("_", "", "-", "")

func fold(s string) string { return strings.ToLower(folder.Replace(s)) }

// match is fastjson 1.2.69's JavaBeanDeserializer field lookup: the exact
// name, then smartMatch (case, '_' and '-' ignored; "is" + a boolean
// property). It returns the property name or "" (an unknown key, ignored).
func (s fieldSet) match(key fastjson.Value) string {
	k := key.Text()
	if n, ok := s.exact[k]; ok {
		return n
	}
	if n, ok := s.folded[fold(k)]; ok {
		return n
	}
	if strings.HasPrefix(k, "is") {
		if n, ok := s.folded[fold(k[2:])]; ok && s.bools[n] {
			return n
		}
	}
	return ""
}

// parseRoot parses a whole body that must hold a JSON object.
func parseRoot(data []byte, class string) (fastjson.Value, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return fastjson.Value{}, fmt.Errorf("%s: %w", class, ErrNull)
	}
	root, err := fastjson.Parse(data)
	if err != nil {
		return root, fmt.Errorf("%w: %s: %w", ErrCorrupt, class, err)
	}
	if root.IsNull() {
		return root, fmt.Errorf("%s: %w", class, ErrNull)
	}
	if root.Kind() == fastjson.Array && root.Len() == 0 {
		return root, fmt.Errorf("%s: %w", class, ErrNull) // fastjson: [] is null
	}
	if root.Kind() != fastjson.Object {
		return root, fmt.Errorf("%w: %s: top level is %s, not an object", ErrCorrupt, class, root.Kind())
	}
	return root, nil
}

// finish turns a Decoder's sticky error into ErrCorrupt.
func finish(d *fastjson.Decoder, class string) error {
	if err := d.Err(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, class, err)
	}
	return nil
}

// NullString is a Java String field that may be null (left out when
// written). The zero value is null.
type NullString struct {
	S     string
	Valid bool // false: Java null
}

// Str is a non-null NullString.
func Str(s string) NullString { return NullString{S: s, Valid: true} }

// Get returns the string, "" for null.
func (n NullString) Get() string { return n.S }

func decodeNullString(d *fastjson.Decoder, v fastjson.Value) NullString {
	if v.Kind() == fastjson.Null || v.Kind() == fastjson.Absent {
		return NullString{}
	}
	s := d.String(v, "")
	return Str(s)
}

func writeNullString(w *fastjson.Writer, key string, s NullString) {
	if !s.Valid {
		return
	}
	w.Key(key)
	w.String(s.S)
}

// decodeStringSet reads a Set<String> the way fastjson fills a HashSet:
// elements in array order, null elements kept as "" (documented
// divergence: Java keeps a null element), duplicates dropped; the result
// is in HashSet iteration order. A JSON null gives nil (Java null).
func decodeStringSet(d *fastjson.Decoder, v fastjson.Value) []string {
	if v.IsNull() {
		return nil
	}
	set := jhash.NewStringSet()
	for _, e := range d.Array(v).Elems() {
		set.Add(d.String(e, ""))
	}
	return nonNil(set.Keys())
}

// decodeIntSet reads a Set<Integer> into HashSet iteration order
// (Integer.hashCode is the value).
func decodeIntSet(d *fastjson.Decoder, v fastjson.Value) []int32 {
	if v.IsNull() {
		return nil
	}
	set := jhash.NewSet(func(n int32) int32 { return n }, -1)
	for _, e := range d.Array(v).Elems() {
		set.Add(d.Int(e, 0))
	}
	return nonNil(set.Keys())
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// writeStrings writes a non-null Set or List of strings; nil is null and
// left out.
func writeStrings(w *fastjson.Writer, key string, s []string) {
	if s == nil {
		return
	}
	w.Key(key)
	w.BeginArray()
	for _, e := range s {
		w.String(e)
	}
	w.EndArray()
}

func writeInts(w *fastjson.Writer, key string, s []int32) {
	if s == nil {
		return
	}
	w.Key(key)
	w.BeginArray()
	for _, e := range s {
		w.Int(int(e))
	}
	w.EndArray()
}

// encodeCompact runs write on a Compact writer (RemotingSerializable.encode()).
func encodeCompact(write func(w *fastjson.Writer)) []byte {
	w := fastjson.NewWriter(fastjson.Compact)
	write(w) // the writer only fails on misuse, which the golden tests would show
	return w.Bytes()
}

func fmtErr(format string, args ...any) error { return fmt.Errorf(format, args...) }

// beanElems returns the elements of a Set or List of beans: fastjson
// reads a single object where an array is expected as a one-element
// collection. Null is no elements.
func beanElems(d *fastjson.Decoder, v fastjson.Value) []fastjson.Value {
	if v.Kind() == fastjson.Object {
		return []fastjson.Value{v}
	}
	var out []fastjson.Value
	for _, e := range d.Array(v).Elems() {
		out = append(out, e)
	}
	return out
}
