// Package spec reads remoting/protocol/spec.txt, the declarative table of
// RocketMQ 4.9.8 request codes, response codes and custom headers, and
// generates the Go of package protocol from it. The syntax is described at
// the top of spec.txt. The generator (../../gen) and the tests of package
// protocol are its only users.
package spec

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Spec is a parsed spec.txt.
type Spec struct {
	Requests  []Request  // in file order (by value)
	Responses []Response // in file order (by value)
	Headers   []*Header  // header classes, in file order
	Bases     []*Header  // base classes, in file order
}

// Request is one RequestCode constant.
type Request struct {
	Name           string // Java constant name, e.g. SEND_MESSAGE_V2
	Value          int32
	ServedBy       string // broker, namesrv, client, broker+client or unused
	RequestHeader  string // header class name, "" for none
	ResponseHeader string // header class name, "" for none
	Comment        string // trailing comment: who sends it
	Line           int
}

// Response is one response code constant.
type Response struct {
	Name  string
	Value int32
	Class string // RemotingSysResponseCode or ResponseCode
	Line  int
}

// Header is a CommandCustomHeader class, or a base class of some.
type Header struct {
	Class   string   // Java simple name, also the Go type name
	Package string   // below org.apache.rocketmq, e.g. common.protocol.header
	Extends string   // base class name, "" for none
	Fast    bool     // implements FastCodesHeader
	Doc     []string // the comment lines just above the header line
	Own     []Field  // the class's own fields, in declaration order
	Fields  []Field  // Own then the base's fields: Java's reflection order
	Line    int
}

// QualifiedName is the Java class's fully qualified name.
func (h *Header) QualifiedName() string {
	return "org.apache.rocketmq." + h.Package + "." + h.Class
}

// Annotation values of a field.
const (
	NotNull  = "notnull"  // @CFNotNull
	Nullable = "nullable" // @CFNullable (ignored by Java's decoder)
	NoAnnot  = "-"
)

// Field is one header field.
type Field struct {
	Java       string // Java field name and wire key
	Type       string // Java type: String, Integer, int, Long, long, ...
	Annotation string // NotNull, Nullable or NoAnnot
	GoName     string
	Default    string // Java initializer of a boxed field; "" for none
	Lenient    bool   // notnull in Java, optional here (see spec.txt)
	Blank      bool   // notnull in Java, "" when absent here (see spec.txt)
	Declaring  string // declaring class (the header or its base)
	Line       int
}

// Required reports whether decoding fails when the field is absent.
func (f *Field) Required() bool { return f.Annotation == NotNull && !f.Lenient && !f.Blank }

// Primitive reports whether the Java type is a primitive (never null).
func (f *Field) Primitive() bool {
	switch f.Type {
	case "int", "long", "boolean", "double":
		return true
	}
	return false
}

// Kind is the Go scalar of the field: string, int32, int64, bool, float64.
func (f *Field) Kind() string { return javaTypes[f.Type] }

// Optional reports whether the Go field is an Opt[T]: a boxed number or
// boolean that may be null, or a lenient String (whose handler tells an
// absent one, Java's null, from an empty one).
func (f *Field) Optional() bool {
	return (f.Type != "String" || f.Lenient) && !f.Primitive() && !f.Required() && f.Default == ""
}

// GoType is the Go type of the field.
func (f *Field) GoType() string {
	if f.Optional() {
		return "Opt[" + f.Kind() + "]"
	}
	return f.Kind()
}

// javaTypes maps the Java field types a header may use (the ones
// RemotingCommand.decodeCommandCustomHeader can parse) to Go scalars.
var javaTypes = map[string]string{
	"String":  "string",
	"Integer": "int32", "int": "int32",
	"Long": "int64", "long": "int64",
	"Boolean": "bool", "boolean": "bool",
	"Double": "float64", "double": "float64",
}

var servedBy = map[string]bool{"broker": true, "namesrv": true, "client": true, "broker+client": true, "unused": true}

// Parse reads a spec and checks it for consistency.
func Parse(r io.Reader) (*Spec, error) {
	p := parser{s: &Spec{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.line++
		if err := p.parseLine(sc.Text()); err != nil {
			return nil, fmt.Errorf("spec.txt:%d: %w", p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := p.s.resolve(); err != nil {
		return nil, err
	}
	return p.s, nil
}

type parser struct {
	s    *Spec
	line int
	cur  *Header  // header or base receiving field lines
	doc  []string // comment lines since the last blank or item line
}

func (p *parser) parseLine(text string) error {
	body, comment, _ := strings.Cut(text, "#")
	cols := strings.Fields(body)
	if len(cols) == 0 {
		if strings.TrimSpace(text) == "" {
			p.doc = nil
			p.cur = nil
		} else {
			p.doc = append(p.doc, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "#")))
		}
		return nil
	}
	comment = strings.TrimSpace(comment)
	doc := p.doc
	p.doc = nil
	if text[0] == ' ' || text[0] == '\t' {
		if p.cur == nil {
			return fmt.Errorf("field line outside a header")
		}
		return p.parseField(cols)
	}
	p.cur = nil
	switch cols[0] {
	case "request":
		return p.parseRequest(cols[1:], comment)
	case "response":
		return p.parseResponse(cols[1:])
	case "header", "base":
		return p.parseHeader(cols[0] == "base", cols[1:], doc)
	}
	return fmt.Errorf("unknown item %q", cols[0])
}

func (p *parser) parseRequest(cols []string, comment string) error {
	if len(cols) != 5 {
		return fmt.Errorf("request wants NAME VALUE SERVED_BY REQUEST_HEADER RESPONSE_HEADER, got %d columns", len(cols))
	}
	v, err := parseCode(cols[1])
	if err != nil {
		return err
	}
	if !servedBy[cols[2]] {
		return fmt.Errorf("request %s: unknown SERVED_BY %q", cols[0], cols[2])
	}
	p.s.Requests = append(p.s.Requests, Request{
		Name: cols[0], Value: v, ServedBy: cols[2],
		RequestHeader: dash(cols[3]), ResponseHeader: dash(cols[4]),
		Comment: comment, Line: p.line,
	})
	return checkConstName(cols[0])
}

func (p *parser) parseResponse(cols []string) error {
	if len(cols) != 3 {
		return fmt.Errorf("response wants NAME VALUE CLASS, got %d columns", len(cols))
	}
	v, err := parseCode(cols[1])
	if err != nil {
		return err
	}
	if cols[2] != "RemotingSysResponseCode" && cols[2] != "ResponseCode" {
		return fmt.Errorf("response %s: unknown class %q", cols[0], cols[2])
	}
	p.s.Responses = append(p.s.Responses, Response{Name: cols[0], Value: v, Class: cols[2], Line: p.line})
	return checkConstName(cols[0])
}

func (p *parser) parseHeader(base bool, cols []string, doc []string) error {
	if len(cols) < 2 {
		return fmt.Errorf("header wants CLASS PACKAGE [extends BASE] [fast]")
	}
	h := &Header{Class: cols[0], Package: cols[1], Doc: doc, Line: p.line}
	if !isIdent(h.Class) || !unicode.IsUpper(rune(h.Class[0])) {
		return fmt.Errorf("bad class name %q", h.Class)
	}
	for rest := cols[2:]; len(rest) > 0; rest = rest[1:] {
		switch {
		case rest[0] == "extends" && len(rest) > 1 && h.Extends == "":
			h.Extends = rest[1]
			rest = rest[1:]
		case rest[0] == "fast" && !h.Fast:
			h.Fast = true
		default:
			return fmt.Errorf("header %s: unexpected %q", h.Class, rest[0])
		}
	}
	if base {
		if h.Extends != "" || h.Fast {
			return fmt.Errorf("base %s: extends and fast are for headers", h.Class)
		}
		p.s.Bases = append(p.s.Bases, h)
	} else {
		p.s.Headers = append(p.s.Headers, h)
	}
	p.cur = h
	return nil
}

func (p *parser) parseField(cols []string) error {
	if len(cols) < 3 {
		return fmt.Errorf("field wants JAVA_NAME JAVA_TYPE ANNOTATION [options]")
	}
	f := Field{Java: cols[0], Type: cols[1], Annotation: cols[2], Declaring: p.cur.Class, Line: p.line}
	if !isIdent(f.Java) {
		return fmt.Errorf("bad field name %q", f.Java)
	}
	if _, ok := javaTypes[f.Type]; !ok {
		return fmt.Errorf("field %s: unknown Java type %q", f.Java, f.Type)
	}
	if f.Annotation != NotNull && f.Annotation != Nullable && f.Annotation != NoAnnot {
		return fmt.Errorf("field %s: annotation must be notnull, nullable or -, not %q", f.Java, f.Annotation)
	}
	for _, opt := range cols[3:] {
		if err := f.setOption(opt); err != nil {
			return fmt.Errorf("field %s: %w", f.Java, err)
		}
	}
	if f.GoName == "" {
		f.GoName = strings.ToUpper(f.Java[:1]) + f.Java[1:]
	}
	p.cur.Own = append(p.cur.Own, f)
	return nil
}

func (f *Field) setOption(opt string) error {
	key, val, hasVal := strings.Cut(opt, "=")
	switch {
	case key == "go" && hasVal && f.GoName == "":
		if !isIdent(val) || !unicode.IsUpper(rune(val[0])) {
			return fmt.Errorf("go name %q is not an exported identifier", val)
		}
		f.GoName = val
	case key == "default" && hasVal && f.Default == "":
		if f.Type == "String" || f.Primitive() {
			return fmt.Errorf("default= is for boxed Integer, Long, Boolean and Double fields")
		}
		if err := checkLiteral(f.Kind(), val); err != nil {
			return err
		}
		f.Default = val
	case opt == "lenient" && !f.Lenient:
		if f.Annotation != NotNull {
			return fmt.Errorf("lenient is for notnull fields")
		}
		f.Lenient = true
	case opt == "blank" && !f.Blank && !f.Lenient:
		if f.Annotation != NotNull || f.Type != "String" {
			return fmt.Errorf("blank is for notnull String fields")
		}
		f.Blank = true
	default:
		return fmt.Errorf("unknown or repeated option %q", opt)
	}
	return nil
}

// checkLiteral checks a default= value as Go source for the kind.
func checkLiteral(kind, v string) error {
	var err error
	switch kind {
	case "int32":
		_, err = strconv.ParseInt(v, 10, 32)
	case "int64":
		_, err = strconv.ParseInt(v, 10, 64)
	case "bool":
		_, err = strconv.ParseBool(v)
		if v != "true" && v != "false" {
			err = fmt.Errorf("want true or false")
		}
	case "float64":
		_, err = strconv.ParseFloat(v, 64)
	}
	if err != nil {
		return fmt.Errorf("default %q is not a %s literal: %w", v, kind, err)
	}
	return nil
}

// resolve links headers to bases and requests to headers, and checks that
// names and values are unique.
func (s *Spec) resolve() error {
	classes := map[string]*Header{}
	bases := map[string]*Header{}
	for _, set := range []struct {
		hs []*Header
		m  map[string]*Header
	}{{s.Bases, bases}, {s.Headers, classes}} {
		for _, h := range set.hs {
			if classes[h.Class] != nil || bases[h.Class] != nil {
				return fmt.Errorf("spec.txt:%d: class %s declared twice", h.Line, h.Class)
			}
			set.m[h.Class] = h
			h.Fields = h.Own
		}
	}
	for _, h := range s.Headers {
		if h.Extends != "" {
			b := bases[h.Extends]
			if b == nil {
				return fmt.Errorf("spec.txt:%d: %s extends unknown base %s", h.Line, h.Class, h.Extends)
			}
			h.Fields = append(append([]Field(nil), h.Own...), b.Own...)
		}
		if err := checkFieldNames(h); err != nil {
			return err
		}
	}
	if err := s.checkRequests(classes); err != nil {
		return err
	}
	return s.checkResponses()
}

func checkFieldNames(h *Header) error {
	java := map[string]bool{}
	goNames := map[string]bool{"EncodeTo": true, "DecodeFrom": true}
	for _, f := range h.Fields {
		if java[f.Java] {
			return fmt.Errorf("spec.txt:%d: %s: field %s declared twice", f.Line, h.Class, f.Java)
		}
		if goNames[f.GoName] {
			return fmt.Errorf("spec.txt:%d: %s: Go name %s used twice", f.Line, h.Class, f.GoName)
		}
		java[f.Java] = true
		goNames[f.GoName] = true
	}
	return nil
}

func (s *Spec) checkRequests(classes map[string]*Header) error {
	names := map[string]bool{}
	values := map[int32]bool{}
	for _, r := range s.Requests {
		if names[r.Name] || values[r.Value] {
			return fmt.Errorf("spec.txt:%d: request %s %d: name or value declared twice", r.Line, r.Name, r.Value)
		}
		names[r.Name], values[r.Value] = true, true
		for _, h := range []string{r.RequestHeader, r.ResponseHeader} {
			if h != "" && classes[h] == nil {
				return fmt.Errorf("spec.txt:%d: request %s: unknown header %s", r.Line, r.Name, h)
			}
		}
	}
	return nil
}

func (s *Spec) checkResponses() error {
	names := map[string]bool{}
	values := map[int32]bool{}
	for _, r := range s.Responses {
		if names[r.Name] || values[r.Value] {
			return fmt.Errorf("spec.txt:%d: response %s %d: name or value declared twice", r.Line, r.Name, r.Value)
		}
		names[r.Name], values[r.Value] = true, true
	}
	return nil
}

// Header returns the header class named name, or nil.
func (s *Spec) Header(name string) *Header {
	for _, h := range s.Headers {
		if h.Class == name {
			return h
		}
	}
	return nil
}

// parseCode parses a code value; codes travel as int16 in the ROCKETMQ
// binary header, so they must fit one.
func parseCode(s string) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 16)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad code value %q", s)
	}
	return int32(v), nil
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

func checkConstName(name string) error {
	for i, r := range name {
		if !(r >= 'A' && r <= 'Z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Errorf("bad constant name %q", name)
		}
	}
	return nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// CamelCase turns a Java constant name into the Go name suffix: split on
// '_', upper-case each part's first letter and lower-case the rest, keep
// digits (SEND_MESSAGE_V2 → SendMessageV2, GET_KVLIST_BY_NAMESPACE →
// GetKvlistByNamespace).
func CamelCase(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if part == "" {
			continue
		}
		b.WriteString(part[:1])
		b.WriteString(strings.ToLower(part[1:]))
	}
	return b.String()
}

// qualifiedName is the fully qualified name of a header or base class.
func (s *Spec) qualifiedName(class string) string {
	for _, h := range append(append([]*Header(nil), s.Headers...), s.Bases...) {
		if h.Class == class {
			return h.QualifiedName()
		}
	}
	return class
}

// PutOrder is the order in which Java's RemotingCommand.makeCustomHeaderToNet
// puts h's fields into the command's extFields map, which decides their
// order on the wire where two keys share a bucket: getClazzFields gathers
// the declared fields of the class and of its bases (subclass first) into a
// java.util.HashSet and iterates it, and a java.lang.reflect.Field hashes as
// its declaring class's name XOR its own name. Static fields, which the
// spec does not list, are in that set too; they could only matter by
// growing it past 12 entries (TestHeaderPutOrderMatchesJava compares with
// the real classes).
func (s *Spec) PutOrder(h *Header) []string {
	hashes := make([]int32, len(h.Fields))
	for i, f := range h.Fields {
		hashes[i] = jhash.String(s.qualifiedName(f.Declaring)) ^ jhash.String(f.Java)
	}
	set := jhash.NewSet(func(i int) int32 { return hashes[i] }, -1)
	for i := range h.Fields {
		set.Add(i)
	}
	out := make([]string, 0, len(h.Fields))
	for _, i := range set.Keys() {
		out = append(out, h.Fields[i].Java)
	}
	return out
}
