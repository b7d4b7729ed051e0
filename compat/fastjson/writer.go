package fastjson

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// Mode selects which fastjson output a Writer reproduces.
type Mode uint8

const (
	// Compact is JSON.toJSONString(obj): remoting bodies.
	Compact Mode = iota
	// Pretty is JSON.toJSONString(obj, true): the JSON config files.
	Pretty
	// Standard is toJSONString with BrowserCompatible, QuoteFieldNames,
	// SkipTransientField and MapSortField: GET_ROUTEINFO_BY_TOPIC for
	// version >= 401 or acceptStandardJsonOnly.
	Standard
)

// ErrMisuse reports calls in an order that cannot produce JSON (a value
// where a key is due, an unbalanced End...). The Writer stops writing at the
// first one; Err returns it.
var ErrMisuse = errors.New("fastjson: writer misuse")

// maxSafeLong is JavaScript's Number.MAX_SAFE_INTEGER: BrowserCompatible
// writes longs beyond ±maxSafeLong as strings.
const maxSafeLong = 1<<53 - 1

type frameKind uint8

const (
	frameObject frameKind = iota
	frameList             // java.util.List, Object[]: one element per line
	frameInline           // Set, other Collections, primitive/String arrays
	frameKey              // the value being written is an object key
)

type frame struct {
	kind  frameKind
	count int // members, elements or key values written so far
}

// Writer appends fastjson output to a byte slice. Callers write bean
// fields in alphabetical order and leave out nulls, as fastjson does; the
// Writer takes care of commas, quoting, escaping, number formats, unquoted
// non-String keys and the Pretty layout. A zero Writer is not usable; call
// NewWriter.
type Writer struct {
	buf      []byte
	mode     Mode
	frames   []frame
	inline   [16]frame
	indent   int
	afterKey bool // a key was written, its value is due
	done     bool // a complete top-level value was written
	err      error
}

// NewWriter returns a Writer for mode with an empty buffer.
func NewWriter(mode Mode) *Writer {
	w := &Writer{mode: mode}
	w.frames = w.inline[:0]
	return w
}

// Reset discards the state and appends further output to dst.
func (w *Writer) Reset(dst []byte) {
	w.buf, w.frames, w.indent, w.afterKey, w.done, w.err = dst, w.frames[:0], 0, false, false, nil
}

// Bytes returns the output so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Err returns the first misuse, or an error if containers are still open.
func (w *Writer) Err() error {
	if w.err == nil && (len(w.frames) > 0 || w.afterKey) {
		return fmt.Errorf("%w: %d container(s) not closed", ErrMisuse, len(w.frames))
	}
	return w.err
}

func (w *Writer) misuse(what string) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: %s", ErrMisuse, what)
	}
}

func (w *Writer) top() *frame {
	if len(w.frames) == 0 {
		return nil
	}
	return &w.frames[len(w.frames)-1]
}

func (w *Writer) newline() {
	w.buf = append(w.buf, '\n')
	for i := 0; i < w.indent; i++ {
		w.buf = append(w.buf, '\t')
	}
}

// beforeValue writes what precedes a value in the current container and
// reports whether the value may be written.
func (w *Writer) beforeValue() bool {
	if w.err != nil {
		return false
	}
	f := w.top()
	if f == nil {
		if w.done {
			w.misuse("second top-level value")
			return false
		}
		w.done = true
		return true
	}
	switch f.kind {
	case frameObject:
		if !w.afterKey {
			w.misuse("object value without a key")
			return false
		}
		w.afterKey = false
	case frameList:
		if f.count > 0 {
			w.buf = append(w.buf, ',')
		}
		if w.mode == Pretty {
			w.newline()
		}
	case frameInline:
		if f.count > 0 {
			w.buf = append(w.buf, ',')
		}
	case frameKey:
		if f.count > 0 {
			w.misuse("object key must be a single value")
			return false
		}
	}
	f.count++
	return true
}

// beforeKey writes the comma before a member and reports whether a key may
// be written.
func (w *Writer) beforeKey() bool {
	if w.err != nil {
		return false
	}
	f := w.top()
	if f == nil || f.kind != frameObject || w.afterKey {
		w.misuse("key outside an object or where a value is due")
		return false
	}
	if f.count > 0 {
		w.buf = append(w.buf, ',')
	}
	f.count++
	return true
}

func (w *Writer) begin(kind frameKind, open byte) {
	if !w.beforeValue() {
		return
	}
	w.buf = append(w.buf, open)
	w.frames = append(w.frames, frame{kind: kind})
	if kind != frameInline {
		w.indent++
	}
}

func (w *Writer) end(kind frameKind, closing byte) {
	if w.err != nil {
		return
	}
	f := w.top()
	if f == nil || f.kind != kind || w.afterKey {
		w.misuse(fmt.Sprintf("unbalanced '%c'", closing))
		return
	}
	count := f.count
	w.frames = w.frames[:len(w.frames)-1]
	if kind != frameInline {
		w.indent--
		if w.mode == Pretty && count > 0 {
			w.newline()
		}
	}
	w.buf = append(w.buf, closing)
}

// BeginObject starts a bean or map.
func (w *Writer) BeginObject() { w.begin(frameObject, '{') }

// EndObject ends the innermost object.
func (w *Writer) EndObject() { w.end(frameObject, '}') }

// BeginArray starts a java.util.List or Object[]: in Pretty mode each
// element goes on its own line.
func (w *Writer) BeginArray() { w.begin(frameList, '[') }

// EndArray ends the innermost BeginArray.
func (w *Writer) EndArray() { w.end(frameList, ']') }

// BeginInlineArray starts a Set or other non-List Collection, an int[],
// long[] or String[]: fastjson never breaks these over lines itself, even in
// Pretty mode (nested containers still lay themselves out).
func (w *Writer) BeginInlineArray() { w.begin(frameInline, '[') }

// EndInlineArray ends the innermost BeginInlineArray.
func (w *Writer) EndInlineArray() { w.end(frameInline, ']') }

// Key writes a bean field name or String map key. In Pretty mode it starts
// a new line.
func (w *Writer) Key(name string) {
	if !w.beforeKey() {
		return
	}
	if w.mode == Pretty {
		w.newline()
	}
	w.buf = AppendString(w.buf, name, w.mode)
	w.buf = append(w.buf, ':')
	w.afterKey = true
}

// KeyInt writes an Integer or Long map key: unquoted ({0:...}) and on the
// same line in Compact and Pretty mode, quoted in Standard mode.
func (w *Writer) KeyInt(n int64) {
	if !w.beforeKey() {
		return
	}
	if w.mode == Standard {
		w.buf = append(w.buf, '"')
		w.buf = strconv.AppendInt(w.buf, n, 10)
		w.buf = append(w.buf, '"', ':')
	} else {
		w.buf = strconv.AppendInt(w.buf, n, 10)
		w.buf = append(w.buf, ':')
	}
	w.afterKey = true
}

// KeyObject writes a bean map key such as a MessageQueue: write must
// write exactly one value (normally BeginObject ... EndObject). Compact and
// Pretty mode write it unquoted in place ({{"brokerName":"b",...}:11});
// Standard mode writes its Compact form as a quoted, escaped string.
func (w *Writer) KeyObject(write func(w *Writer)) {
	if !w.beforeKey() {
		return
	}
	if w.mode == Standard {
		sub := NewWriter(Compact)
		write(sub)
		if err := sub.Err(); err != nil {
			w.misuse("object key: " + err.Error())
			return
		}
		w.buf = AppendString(w.buf, string(sub.Bytes()), Standard)
	} else {
		depth := len(w.frames)
		w.frames = append(w.frames, frame{kind: frameKey})
		write(w)
		if w.err != nil {
			return
		}
		if len(w.frames) != depth+1 || w.frames[depth].count != 1 {
			w.misuse("object key must be one complete value")
			return
		}
		w.frames = w.frames[:depth]
	}
	w.buf = append(w.buf, ':')
	w.afterKey = true
}

// keyLiteral writes an unquoted non-String key (number, boolean, null);
// Standard mode quotes it as fastjson's JSON.toJSONString(key) string.
func (w *Writer) keyLiteral(lit string) {
	if !w.beforeKey() {
		return
	}
	if w.mode == Standard {
		w.buf = AppendString(w.buf, lit, Standard)
	} else {
		w.buf = append(w.buf, lit...)
	}
	w.buf = append(w.buf, ':')
	w.afterKey = true
}

// String writes a string value.
func (w *Writer) String(s string) {
	if w.beforeValue() {
		w.buf = AppendString(w.buf, s, w.mode)
	}
}

// Int writes a Java int / Integer.
func (w *Writer) Int(n int) {
	if w.beforeValue() {
		w.buf = strconv.AppendInt(w.buf, int64(n), 10)
	}
}

// Int64 writes a Java long / Long; Standard mode quotes values beyond
// ±(2^53-1), as BrowserCompatible does.
func (w *Writer) Int64(n int64) {
	if !w.beforeValue() {
		return
	}
	if w.mode == Standard && (n > maxSafeLong || n < -maxSafeLong) {
		w.buf = append(w.buf, '"')
		w.buf = strconv.AppendInt(w.buf, n, 10)
		w.buf = append(w.buf, '"')
		return
	}
	w.buf = strconv.AppendInt(w.buf, n, 10)
}

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	if w.beforeValue() {
		w.buf = strconv.AppendBool(w.buf, b)
	}
}

// Null writes null (fastjson writes it for null List elements; bean fields
// and map entries that are null are left out instead).
func (w *Writer) Null() {
	if w.beforeValue() {
		w.buf = append(w.buf, "null"...)
	}
}

// Float64 writes a Java double as fastjson does: 0.0, 1.5, 1.0E10,
// 4.9E-324; NaN and infinities as null.
func (w *Writer) Float64(f float64) {
	if w.finite(f) {
		w.buf = javalang.AppendDouble(w.buf, f)
	}
}

// Float32 writes a Java float (1.5, 1.0E10, 1.4E-45); NaN and infinities as
// null.
func (w *Writer) Float32(f float32) {
	if w.finite(float64(f)) {
		w.buf = javalang.AppendFloat(w.buf, f)
	}
}

// finite starts a floating-point value and reports whether f is to be
// written as a number; NaN and infinities are written as null here.
func (w *Writer) finite(f float64) bool {
	if !w.beforeValue() {
		return false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.buf = append(w.buf, "null"...)
		return false
	}
	return true
}

// Value writes a parsed (or Make...) tree: arrays as Lists, object keys by
// their kind (String keys quoted, numbers, booleans and null bare, objects
// and arrays as object keys), numbers by their literal (Standard mode quotes
// integer literals beyond ±(2^53-1)).
func (w *Writer) Value(v Value) {
	switch v.kind {
	case Null:
		w.Null()
	case Bool:
		w.Bool(v.text == "true")
	case Number:
		w.number(v.text)
	case String:
		w.String(v.text)
	case Array:
		w.BeginArray()
		for _, e := range v.kids {
			w.Value(e)
		}
		w.EndArray()
	case Object:
		w.BeginObject()
		for k, val := range v.Members() {
			w.valueKey(k)
			w.Value(val)
		}
		w.EndObject()
	default:
		w.misuse("absent value")
	}
}

func (w *Writer) valueKey(k Value) {
	switch k.kind {
	case String:
		w.Key(k.text)
	case Number, Bool:
		w.keyLiteral(k.text)
	case Null:
		w.keyLiteral("null")
	case Object, Array:
		w.KeyObject(func(w *Writer) { w.Value(k) })
	default:
		w.misuse("absent key")
	}
}

func (w *Writer) number(lit string) {
	if !w.beforeValue() {
		return
	}
	if w.mode == Standard {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil && (n > maxSafeLong || n < -maxSafeLong) {
			w.buf = append(w.buf, '"')
			w.buf = append(w.buf, lit...)
			w.buf = append(w.buf, '"')
			return
		}
	}
	w.buf = append(w.buf, lit...)
}
