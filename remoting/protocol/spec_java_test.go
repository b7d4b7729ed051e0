package protocol

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sputnikmq/sputnik/remoting/protocol/internal/spec"
)

// javaFacts is where compat/java writes what reflection finds in the real
// 4.9.8 jars (RequestCode, ResponseCode and every CommandCustomHeader).
var javaFacts = filepath.Join("..", "..", "compat", "testdata", "java-4.9.8")

// readTSV reads a facts file: tab-separated rows after a '#' comment line.
// A missing file fails the test: the spec must always be checked.
func readTSV(t *testing.T, name string, cols int) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(javaFacts, name))
	if err != nil {
		t.Fatalf("Java facts missing (make java-oracle / compat/java): %v", err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if sc.Text() == "" || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		row := strings.Split(sc.Text(), "\t")
		if len(row) != cols {
			t.Fatalf("%s:%d: %d columns, want %d", name, line, len(row), cols)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

func loadSpec(t testing.TB) *spec.Spec {
	t.Helper()
	f, err := os.Open("spec.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := spec.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func atoi32(t *testing.T, s string) int32 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return int32(v)
}

// TestSpecRequestCodesMatchJava: every RequestCode constant of 4.9.8 is in
// the spec with its value, and nothing else is.
func TestSpecRequestCodesMatchJava(t *testing.T) {
	s := loadSpec(t)
	java := map[string]int32{}
	for _, row := range readTSV(t, "request_codes.tsv", 2) {
		java[row[0]] = atoi32(t, row[1])
	}
	ours := map[string]int32{}
	for _, r := range s.Requests {
		ours[r.Name] = r.Value
	}
	compareCodes(t, "request", java, ours)
	// The generated constants carry the same facts.
	for name, v := range java {
		if got := RequestCode(v).String(); got != name {
			t.Errorf("RequestCode(%d).String() = %q, want %q", v, got, name)
		}
		if info, ok := LookupRequest(RequestCode(v)); !ok || info.Name != name {
			t.Errorf("LookupRequest(%d) = %+v, %v", v, info, ok)
		}
	}
	if len(Requests) != len(java) {
		t.Errorf("len(Requests) = %d, Java has %d codes", len(Requests), len(java))
	}
}

// TestSpecResponseCodesMatchJava does the same for ResponseCode and
// RemotingSysResponseCode, including the declaring class.
func TestSpecResponseCodesMatchJava(t *testing.T) {
	s := loadSpec(t)
	java := map[string]int32{}
	javaClass := map[string]string{}
	for _, row := range readTSV(t, "response_codes.tsv", 3) {
		java[row[0]] = atoi32(t, row[1])
		javaClass[row[0]] = simpleName(row[2])
	}
	ours := map[string]int32{}
	for _, r := range s.Responses {
		ours[r.Name] = r.Value
		if c, ok := javaClass[r.Name]; ok && c != r.Class {
			t.Errorf("response %s: declared in %s, spec says %s", r.Name, c, r.Class)
		}
	}
	compareCodes(t, "response", java, ours)
	for name, v := range java {
		if got := ResponseCode(v).String(); got != name {
			t.Errorf("ResponseCode(%d).String() = %q, want %q", v, got, name)
		}
	}
	if len(ResponseCodes) != len(java) {
		t.Errorf("len(ResponseCodes) = %d, Java has %d codes", len(ResponseCodes), len(java))
	}
}

func compareCodes(t *testing.T, what string, java, ours map[string]int32) {
	t.Helper()
	for name, v := range java {
		if got, ok := ours[name]; !ok {
			t.Errorf("Java %s code %s (%d) is missing from spec.txt", what, name, v)
		} else if got != v {
			t.Errorf("%s code %s: Java %d, spec.txt %d", what, name, v, got)
		}
	}
	for name, v := range ours {
		if _, ok := java[name]; !ok {
			t.Errorf("spec.txt %s code %s (%d) is not in Java 4.9.8", what, name, v)
		}
	}
}

func simpleName(class string) string {
	return class[strings.LastIndexByte(class, '.')+1:]
}

// javaHeader is one class of headers.tsv.
type javaHeader struct {
	class  string // fully qualified
	fields []javaField
	fast   bool
}

type javaField struct {
	name, typ, annotation, declaring string
}

func readJavaHeaders(t *testing.T) map[string]*javaHeader {
	t.Helper()
	out := map[string]*javaHeader{}
	for _, row := range readTSV(t, "headers.tsv", 6) {
		simple := simpleName(row[0])
		h := out[simple]
		if h == nil {
			h = &javaHeader{class: row[0]}
			out[simple] = h
		} else if h.class != row[0] {
			t.Fatalf("two Java header classes named %s: %s and %s", simple, h.class, row[0])
		}
		h.fast = h.fast || row[5] == "fast"
		if row[1] == "-" { // a class without fields
			continue
		}
		h.fields = append(h.fields, javaField{row[1], row[2], row[3], simpleName(row[4])})
	}
	return out
}

// TestSpecHeadersMatchJava: every header of the spec is a 4.9.8 class of
// the same package with the same fields, in the same order, with the same
// Java types, annotations, declaring classes and FastCodesHeader-ness. The
// lenient option does not change the annotation recorded in the spec, so it
// needs no exception here.
func TestSpecHeadersMatchJava(t *testing.T) {
	s := loadSpec(t)
	java := readJavaHeaders(t)
	for _, h := range s.Headers {
		j, ok := java[h.Class]
		if !ok {
			t.Errorf("spec.txt:%d: header %s is not a 4.9.8 CommandCustomHeader", h.Line, h.Class)
			continue
		}
		if j.class != h.QualifiedName() {
			t.Errorf("spec.txt:%d: header %s: Java class is %s, spec says %s", h.Line, h.Class, j.class, h.QualifiedName())
		}
		if j.fast != h.Fast {
			t.Errorf("spec.txt:%d: header %s: Java FastCodesHeader %v, spec fast %v", h.Line, h.Class, j.fast, h.Fast)
		}
		compareFields(t, h, j.fields)
	}
	for name, j := range java {
		if s.Header(name) == nil {
			t.Logf("Java header class %s is not in spec.txt", j.class)
		}
	}
}

func compareFields(t *testing.T, h *spec.Header, java []javaField) {
	t.Helper()
	for i := 0; i < len(h.Fields) || i < len(java); i++ {
		switch {
		case i >= len(java):
			t.Errorf("spec.txt:%d: %s.%s is not a Java field", h.Fields[i].Line, h.Class, h.Fields[i].Java)
		case i >= len(h.Fields):
			t.Errorf("spec.txt:%d: %s: Java field %s (#%d) is missing", h.Line, h.Class, java[i].name, i+1)
		default:
			f, j := h.Fields[i], java[i]
			got := javaField{f.Java, f.Type, f.Annotation, f.Declaring}
			if got != j {
				t.Errorf("spec.txt:%d: %s field #%d: spec %+v, Java %+v", f.Line, h.Class, i+1, got, j)
			}
		}
	}
}

// TestSpecLenientFields lists the leniency exceptions, so that adding one
// is a visible decision.
func TestSpecLenientFields(t *testing.T) {
	want := map[string]bool{
		"UpdateGlobalWhiteAddrsConfigRequestHeader.aclFileFullPath": true, // mqadmin updateGlobalWhiteAddr without -p
		// Java serves the request without them (broker/errors/bad-requests).
		"SendMessageRequestHeader.producerGroup":         true,
		"SendMessageRequestHeader.defaultTopic":          true,
		"SendMessageRequestHeader.defaultTopicQueueNums": true,
		"SendMessageRequestHeaderV2.a":                   true,
		"SendMessageRequestHeaderV2.c":                   true,
		"SendMessageRequestHeaderV2.d":                   true,
		"PullMessageRequestHeader.commitOffset":          true,
		"PullMessageRequestHeader.suspendTimeoutMillis":  true,
		"PullMessageRequestHeader.subVersion":            true,
		"CreateTopicRequestHeader.defaultTopic":          true,
		// The name server serves these requests without them, as for a name
		// nobody registered (namesrv/errors/bad-requests).
		"GetKVConfigRequestHeader.namespace":            true,
		"GetKVConfigRequestHeader.key":                  true,
		"DeleteKVConfigRequestHeader.namespace":         true,
		"DeleteKVConfigRequestHeader.key":               true,
		"GetKVListByNamespaceRequestHeader.namespace":   true,
		"GetRouteInfoRequestHeader.topic":               true,
		"WipeWritePermOfBrokerRequestHeader.brokerName": true,
		"AddWritePermOfBrokerRequestHeader.brokerName":  true,
		"DeleteTopicFromNamesrvRequestHeader.topic":     true,
		"GetTopicsByClusterRequestHeader.cluster":       true,
		"UnRegisterBrokerRequestHeader.brokerName":      true,
		"UnRegisterBrokerRequestHeader.brokerAddr":      true,
		"UnRegisterBrokerRequestHeader.clusterName":     true,
		"QueryDataVersionRequestHeader.brokerName":      true,
		"QueryDataVersionRequestHeader.brokerAddr":      true,
		"QueryDataVersionRequestHeader.clusterName":     true,
		"QueryDataVersionRequestHeader.brokerId":        true,
	}
	checkFieldOption(t, "lenient", want, func(f *spec.Field) bool { return f.Lenient })
}

// checkFieldOption fails for every spec field whose option (on reports it)
// is set and not in want, or in want and not set.
func checkFieldOption(t *testing.T, name string, want map[string]bool, on func(*spec.Field) bool) {
	t.Helper()
	for _, h := range loadSpec(t).Headers {
		for i := range h.Fields {
			f := &h.Fields[i]
			if key := h.Class + "." + f.Java; on(f) != want[key] {
				t.Errorf("%s: %s = %v, want %v", key, name, on(f), want[key])
			}
		}
	}
}

// TestSpecBlankFields lists the topics Java's processors validate before
// anything reads them, so that a missing one is answered as blank in the
// request's serialize type (conformance broker/raw/rocketmq-serialize).
func TestSpecBlankFields(t *testing.T) {
	want := map[string]bool{
		"SendMessageRequestHeader.topic": true,
		"SendMessageRequestHeaderV2.b":   true,
		"CreateTopicRequestHeader.topic": true,
		"DeleteTopicRequestHeader.topic": true,
	}
	checkFieldOption(t, "blank", want, func(f *spec.Field) bool { return f.Blank })
}

// TestHeaderPutOrderMatchesJava: the order in which the generated EncodeTo
// methods tell the wire encoder Java puts a header's fields into extFields
// (spec.PutOrder, computed from the class and field names) is the order of
// the real RemotingCommand.getClazzFields for every header of the spec.
func TestHeaderPutOrderMatchesJava(t *testing.T) {
	java := map[string]string{}
	for _, row := range readTSV(t, "header_put_order.tsv", 2) {
		java[row[0]] = row[1]
	}
	s := loadSpec(t)
	for _, h := range s.Headers {
		want, ok := java[h.QualifiedName()]
		if !ok {
			t.Errorf("%s: not among Java's headers", h.QualifiedName())
			continue
		}
		got := strings.Join(s.PutOrder(h), ",")
		if got == "" {
			got = "-"
		}
		if got != want {
			t.Errorf("%s: put order %s, Java %s", h.Class, got, want)
		}
	}
}
