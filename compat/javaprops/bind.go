package javaprops

import (
	"encoding"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// TagName is the struct tag read by Bind, Print, Lines and ToProperties:
//
//	ListenPort int32  `prop:"listenPort"`                  // key = Java field name
//	BrokerRole Role   `prop:"brokerRole,important"`        // @ImportantField
//	BatchPush  bool   `prop:"enableBatchPush,field=isEnableBatchPush"`
//	HAMaster   *string `prop:"haMasterAddress"`            // nil = Java null
//
// The name is the key properties2Object derives from the setter (setXxx ⇒
// "xxx"); field= gives the Java field name when it differs, which is what
// printObjectProperties and object2Properties print (MessageStoreConfig's
// isEnableBatchPush is the one case in 4.9.8). Fields without the tag, and
// with tag "-", are ignored; untagged embedded structs are walked.
//
// Field types and the Java parse applied by Bind:
//
//	Go (or a named type of it)  Java type  parse
//	string                      String     as is (no trim)
//	int, int32                  int        Integer.parseInt
//	int64                       long       Long.parseLong
//	bool                        boolean    Boolean.parseBoolean (never fails)
//	float64                     double     Double.parseDouble (trims)
//	float32                     float      Float.parseFloat (trims)
//	*T of the above             boxed T    same; nil prints as "" / is skipped
//
// A field whose pointer implements encoding.TextUnmarshaler is parsed by
// UnmarshalText instead; that is how enum-typed Java fields (brokerRole,
// flushDiskType, set through a String setter and Enum.valueOf) keep their
// default on an invalid name. Go int follows Java int (32-bit range), so
// declare Java long fields as int64.
const TagName = "prop"

// ValueError reports a property whose value the Java setter's parse rejects.
// Java catches the exception and keeps the field's previous value; Bind does
// the same and returns these errors (joined) so the caller can warn.
type ValueError struct {
	Key, Value string
	JavaType   string // "int", "long", "double", "float" or the Go type of an enum-like field
	Err        error
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("javaprops: %s=%q is not a valid Java %s, value ignored: %v", e.Key, e.Value, e.JavaType, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

// ErrBadTarget is returned for a target that is not a non-nil pointer to a
// struct, or a struct whose prop tags are inconsistent.
var ErrBadTarget = errors.New("javaprops: bad target")

type fieldInfo struct {
	key       string // properties2Object key (setter name)
	name      string // Java field name (print / object2Properties)
	important bool
	index     []int
}

// fieldsOf lists the tagged fields of struct type t in declaration order.
func fieldsOf(t reflect.Type) ([]fieldInfo, error) {
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, tagged := sf.Tag.Lookup(TagName)
		if !tagged && sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			inner, err := fieldsOf(sf.Type)
			if err != nil {
				return nil, err
			}
			for _, f := range inner {
				f.index = append([]int{i}, f.index...)
				out = append(out, f)
			}
			continue
		}
		if !tagged || tag == "-" {
			continue
		}
		f, err := parseTag(tag, sf)
		if err != nil {
			return nil, err
		}
		f.index = []int{i}
		out = append(out, f)
	}
	return out, nil
}

func parseTag(tag string, sf reflect.StructField) (fieldInfo, error) {
	parts := strings.Split(tag, ",")
	f := fieldInfo{key: parts[0], name: parts[0]}
	for _, opt := range parts[1:] {
		switch {
		case opt == "important":
			f.important = true
		case strings.HasPrefix(opt, "field="):
			f.name = strings.TrimPrefix(opt, "field=")
		default:
			return f, fmt.Errorf("%w: field %s: unknown tag option %q", ErrBadTarget, sf.Name, opt)
		}
	}
	if f.key == "" || f.name == "" {
		return f, fmt.Errorf("%w: field %s: empty name in tag %q", ErrBadTarget, sf.Name, tag)
	}
	if !sf.IsExported() {
		return f, fmt.Errorf("%w: field %s is not exported", ErrBadTarget, sf.Name)
	}
	if !supported(sf.Type) {
		return f, fmt.Errorf("%w: field %s has unsupported type %s", ErrBadTarget, sf.Name, sf.Type)
	}
	return f, nil
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

func supported(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int32, reflect.Int64, reflect.Bool, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// structFields returns the struct behind obj (a struct or a pointer to one)
// and its tagged fields.
func structFields(obj any, needPointer bool) (reflect.Value, []fieldInfo, error) {
	v := reflect.ValueOf(obj)
	switch {
	case v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct:
		v = v.Elem()
	case needPointer || v.Kind() != reflect.Struct:
		return reflect.Value{}, nil, fmt.Errorf("%w: want a non-nil pointer to a struct, got %T", ErrBadTarget, obj)
	}
	fields, err := fieldsOf(v.Type())
	return v, fields, err
}

type target struct {
	v     reflect.Value
	byKey map[string]fieldInfo
}

func newTarget(obj any) (target, error) {
	v, fields, err := structFields(obj, true)
	if err != nil {
		return target{}, err
	}
	t := target{v: v, byKey: make(map[string]fieldInfo, len(fields))}
	for _, f := range fields {
		if _, dup := t.byKey[f.key]; dup {
			return target{}, fmt.Errorf("%w: %s: key %q tagged twice", ErrBadTarget, v.Type(), f.key)
		}
		t.byKey[f.key] = f
	}
	return t, nil
}

// Bind applies p to every target as MixAll.properties2Object does, target
// by target: each property whose key names a tagged field is parsed with the
// Java setter's parse and stored. Values Java would reject leave the field
// unchanged and are reported as *ValueError in err (errors.Join); every
// other property is still applied. Keys that match no field of any target
// are returned in unknown, in p's order: Java ignores them silently, callers
// should warn. Bind fails before touching anything only when a target is
// unusable (ErrBadTarget).
func Bind(p *Properties, targets ...any) (unknown []string, err error) {
	ts := make([]target, len(targets))
	for i, obj := range targets {
		if ts[i], err = newTarget(obj); err != nil {
			return nil, err
		}
	}
	var errs []error
	for _, k := range p.keys {
		matched := false
		for _, t := range ts {
			f, ok := t.byKey[k]
			if !ok {
				continue
			}
			matched = true
			if err := setField(t.v.FieldByIndex(f.index), k, p.m[k]); err != nil {
				errs = append(errs, err)
			}
		}
		if !matched {
			unknown = append(unknown, k)
		}
	}
	return unknown, errors.Join(errs...)
}

// setField parses s into field fv (of a supported type).
func setField(fv reflect.Value, key, s string) error {
	if fv.Kind() == reflect.Pointer {
		nv := reflect.New(fv.Type().Elem())
		if err := setField(nv.Elem(), key, s); err != nil {
			return err
		}
		fv.Set(nv)
		return nil
	}
	if fv.Addr().Type().Implements(textUnmarshaler) {
		return setText(fv, key, s)
	}
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(s)
	case reflect.Bool:
		fv.SetBool(javalang.ParseBool(s))
	case reflect.Int, reflect.Int32:
		return setNumber(fv, key, s, "int", javalang.ParseInt)
	case reflect.Int64:
		return setNumber(fv, key, s, "long", javalang.ParseLong)
	case reflect.Float64:
		return setNumber(fv, key, s, "double", javalang.ParseDouble)
	case reflect.Float32:
		return setNumber(fv, key, s, "float", javalang.ParseFloat)
	}
	return nil
}

// setText runs UnmarshalText on a scratch copy so that a failure leaves the
// field as it was.
func setText(fv reflect.Value, key, s string) error {
	tmp := reflect.New(fv.Type())
	tmp.Elem().Set(fv)
	if err := tmp.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
		return &ValueError{Key: key, Value: s, JavaType: fv.Type().String(), Err: err}
	}
	fv.Set(tmp.Elem())
	return nil
}

// setNumber parses s with the Java parser of the field's type (parseInt,
// parseLong, parseDouble, parseFloat) and stores the result.
func setNumber[T int32 | int64 | float32 | float64](fv reflect.Value, key, s, javaType string, parse func(string) (T, error)) error {
	v, err := parse(s)
	if err != nil {
		return &ValueError{Key: key, Value: s, JavaType: javaType, Err: err}
	}
	fv.Set(reflect.ValueOf(v).Convert(fv.Type()))
	return nil
}

// formatField renders a field as Java's value.toString(); ok is false for
// a nil pointer (Java null).
func formatField(fv reflect.Value) (s string, ok bool) {
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return "", false
		}
		fv = fv.Elem()
	}
	switch fv.Kind() {
	case reflect.String:
		return fv.String(), true
	case reflect.Bool:
		return strconv.FormatBool(fv.Bool()), true
	case reflect.Int, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(fv.Int(), 10), true
	case reflect.Float64:
		return javalang.FormatDouble(fv.Float()), true
	case reflect.Float32:
		return javalang.FormatFloat(float32(fv.Float())), true
	}
	return fmt.Sprint(fv.Interface()), true
}

// Lines returns the "name=value" lines MixAll.printObjectProperties logs for
// obj (a struct or a pointer to one): tagged fields in declaration order,
// named by their Java field name, a nil pointer printed as an empty value;
// with onlyImportant only the fields tagged important (@ImportantField).
func Lines(obj any, onlyImportant bool) ([]string, error) {
	v, fields, err := structFields(obj, false)
	if err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(fields))
	for _, f := range fields {
		if onlyImportant && !f.important {
			continue
		}
		s, _ := formatField(v.FieldByIndex(f.index))
		lines = append(lines, f.name+"="+s)
	}
	return lines, nil
}

// Print writes Lines(obj, onlyImportant), one per line ("\n"), to w.
func Print(w io.Writer, obj any, onlyImportant bool) error {
	lines, err := Lines(obj, onlyImportant)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// ToProperties mirrors MixAll.object2Properties: every tagged field of obj
// (a struct or a pointer to one) under its Java field name, in declaration
// order, nil pointers (Java null) left out.
func ToProperties(obj any) (*Properties, error) {
	v, fields, err := structFields(obj, false)
	if err != nil {
		return nil, err
	}
	p := New()
	for _, f := range fields {
		if s, ok := formatField(v.FieldByIndex(f.index)); ok {
			p.Set(f.name, s)
		}
	}
	return p, nil
}
