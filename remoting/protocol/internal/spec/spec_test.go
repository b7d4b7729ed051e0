package spec

import (
	"strings"
	"testing"
)

func TestCamelCase(t *testing.T) {
	for in, want := range map[string]string{
		"SEND_MESSAGE_V2":              "SendMessageV2",
		"GET_ROUTEINFO_BY_TOPIC":       "GetRouteinfoByTopic",
		"UPDATE_AND_CREATE_ACL_CONFIG": "UpdateAndCreateAclConfig",
		"GET_KVLIST_BY_NAMESPACE":      "GetKvlistByNamespace",
		"SUCCESS":                      "Success",
	} {
		if got := CamelCase(in); got != want {
			t.Errorf("CamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}

const okSpec = `
request PING 1 broker PingHeader -   # who sends it
response SUCCESS 0 RemotingSysResponseCode

base B common.rpc
    bname String -

# Doc line.
header PingHeader common.protocol.header extends B fast
    a Integer notnull go=Count
    b Boolean - default=false
    c String notnull lenient
    d long -
    e String notnull blank
`

func TestParse(t *testing.T) {
	s, err := Parse(strings.NewReader(okSpec))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Header("PingHeader")
	if h == nil || !h.Fast || h.Extends != "B" || len(h.Fields) != 6 || h.Fields[5].Declaring != "B" {
		t.Fatalf("header %+v", h)
	}
	if len(h.Doc) != 1 || h.Doc[0] != "Doc line." {
		t.Errorf("doc %q", h.Doc)
	}
	if s.Requests[0].Comment != "who sends it" || s.Requests[0].ResponseHeader != "" {
		t.Errorf("request %+v", s.Requests[0])
	}
	types := []string{}
	for _, f := range h.Fields {
		types = append(types, f.GoName+" "+f.GoType())
	}
	// C is lenient: null apart from ""; E is blank: "" when absent.
	want := "Count int32,B bool,C Opt[string],D int64,E string,Bname string"
	if got := strings.Join(types, ","); got != want {
		t.Errorf("fields %s, want %s", got, want)
	}
	if !h.Fields[0].Required() || h.Fields[2].Required() || h.Fields[1].Optional() || h.Fields[4].Required() || h.Fields[4].Optional() {
		t.Error("Required/Optional")
	}
	if _, err := Generate(s); err != nil {
		t.Fatal(err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ spec, err string }{
		{"request A 1 broker - -\nrequest B 1 broker - -", "declared twice"},
		{"request A 1 somebody - -", "unknown SERVED_BY"},
		{"request A 40000 broker - -", "bad code value"},
		{"request a 1 broker - -", "bad constant name"},
		{"request A 1 broker Nope -", "unknown header Nope"},
		{"response A 1 Other", "unknown class"},
		{"header H p\n    a Float -", "unknown Java type"},
		{"header H p\n    a String maybe", "annotation must be"},
		{"header H p\n    a String - lenient", "lenient is for notnull"},
		{"header H p\n    a Long notnull blank", "blank is for notnull String"},
		{"header H p\n    a String notnull lenient blank", "unknown or repeated option"},
		{"header H p\n    a String - default=x", "default= is for boxed"},
		{"header H p\n    a Integer - default=x", "not a int32 literal"},
		{"header H p\n    a String - go=lower", "not an exported identifier"},
		{"header H p\n    a String -\n    a Long -", "declared twice"},
		{"header H p\n    a String - go=X\n    b Long - go=X", "used twice"},
		{"header H p extends Nope", "unknown base"},
		{"header H p\nheader H p", "declared twice"},
		{"    a String -", "outside a header"},
		{"frobnicate", "unknown item"},
	}
	for _, tt := range tests {
		_, err := Parse(strings.NewReader(tt.spec))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Parse(%q) = %v, want %q", tt.spec, err, tt.err)
		}
	}
}
