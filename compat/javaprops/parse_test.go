package javaprops

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

func toMap(p *Properties) map[string]string {
	m := make(map[string]string, p.Len())
	for _, k := range p.Keys() {
		m[k], _ = p.Get(k)
	}
	return m
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Every row was verified with Java 17 Properties.load(InputStream) (the
// input bytes fed through a ByteArrayInputStream, the resulting table
// compared entry by entry). Parse is also compared with Java on 100,000
// random inputs built from the same special chars, with no difference.
var loadTests = []struct {
	name    string
	in      string
	want    map[string]string
	wantErr bool
}{
	{"plain", "key=value", map[string]string{"key": "value"}, false},
	{"blanks around '='", "key = value", map[string]string{"key": "value"}, false},
	{"colon separator", "key:value", map[string]string{"key": "value"}, false},
	{"blank separator", "key value", map[string]string{"key": "value"}, false},
	{"tab and form feed separate", "key\t\f value", map[string]string{"key": "value"}, false},
	{"trailing blanks kept in value", "key   =   value  ", map[string]string{"key": "value  "}, false},
	{"only one '=' after blanks is a separator", "key = = value", map[string]string{"key": "= value"}, false},
	{"second separator char belongs to value", "key:=value", map[string]string{"key": "=value"}, false},
	{"key without value", "key", map[string]string{"key": ""}, false},
	{"empty value", "key=", map[string]string{"key": ""}, false},
	{"empty key", "=value", map[string]string{"": "value"}, false},
	{"leading blanks dropped", "   key=value", map[string]string{"key": "value"}, false},
	{"comments", "# comment\n! comment\n  # indented comment\nk=v", map[string]string{"k": "v"}, false},
	{"'#' inside a value", "k=v # not a comment", map[string]string{"k": "v # not a comment"}, false},
	{"comment lines never continue", "#comment \\\nk=v", map[string]string{"k": "v"}, false},
	{"blank lines", "\n\n  \n\t\nk=v\n\n", map[string]string{"k": "v"}, false},
	{"CR, CRLF and LF line ends", "a=1\rb=2\r\nc=3\nd=4", map[string]string{"a": "1", "b": "2", "c": "3", "d": "4"}, false},
	{"duplicate key: last wins", "k=v1\nk=v2", map[string]string{"k": "v2"}, false},
	{"continuation drops leading blanks", "k=first \\\n    second", map[string]string{"k": "first second"}, false},
	{"even backslashes do not continue", "k=a\\\\\nx=b", map[string]string{"k": "a\\", "x": "b"}, false},
	{"odd backslashes continue", "k=a\\\\\\\n  b", map[string]string{"k": "a\\b"}, false},
	{"continuation over CRLF", "k=a\\\r\n  b", map[string]string{"k": "ab"}, false},
	{"continuation into a blank line ends the line", "k=a\\\n\nx=y", map[string]string{"k": "a", "x": "y"}, false},
	{"'#' on a continuation line is content", "k=a\\\n# not comment", map[string]string{"k": "a# not comment"}, false},
	{"'#' after continuing an empty line is a comment (Java 9+)", "\\\n# comment\nk=v", map[string]string{"k": "v"}, false},
	{"trailing backslash at EOF dropped", "k=v\\", map[string]string{"k": "v"}, false},
	{"lone backslash before final newline yields empty key", "k=v\n\\\n", map[string]string{"": "", "k": "v"}, false},
	{"lone backslash before final CRLF yields nothing", "\\\r\n", map[string]string{}, false},
	{"escapes t n r f", "k=\\t\\n\\r\\f", map[string]string{"k": "\t\n\r\f"}, false},
	{"backslash before other chars", "k=\\a\\b\\\\\\x", map[string]string{"k": "ab\\x"}, false},
	{"escaped separators in key", "k\\=1\\:2\\ 3=v", map[string]string{"k=1:2 3": "v"}, false},
	{"unicode escapes", "k=\\u0041\\u00e9\\u20AC", map[string]string{"k": "A\u00e9\u20ac"}, false},
	{"surrogate pair escape", "k=\\uD83D\\uDE00", map[string]string{"k": "\U0001f600"}, false},
	{"short unicode escape", "k=\\u00", nil, true},
	{"bad hex digit", "k=\\u00G1", nil, true},
	{"unicode escape cut by separator", "k\\u00=v", nil, true},
	{"capital U is not an escape", "k=\\U0041", map[string]string{"k": "U0041"}, false},
	{"UTF-8 bytes read as ISO-8859-1", "k=\xc3\xa9", map[string]string{"k": "\u00c3\u00a9"}, false},
	{"high bytes", "k=\xff\x80", map[string]string{"k": "\u00ff\u0080"}, false},
	{"4.9.8 conf/broker.conf", "brokerClusterName = DefaultCluster\nbrokerName = broker-a\nbrokerId = 0\ndeleteWhen = 04\nfileReservedTime = 48\nbrokerRole = ASYNC_MASTER\nflushDiskType = ASYNC_FLUSH\n", map[string]string{"brokerClusterName": "DefaultCluster", "brokerId": "0", "brokerName": "broker-a", "brokerRole": "ASYNC_MASTER", "deleteWhen": "04", "fileReservedTime": "48", "flushDiskType": "ASYNC_FLUSH"}, false},
	{"NUL is an ordinary char", "k=v\x00x", map[string]string{"k": "v\u0000x"}, false},
	{"leading form feed", "\f\t k \t= \tv", map[string]string{"k": "v"}, false},
}

func TestParse(t *testing.T) {
	for _, tt := range loadTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(tt.in))
			if tt.wantErr {
				if !errors.Is(err, ErrMalformedEscape) {
					t.Fatalf("err = %v, want ErrMalformedEscape", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := toMap(p); !equalMaps(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
			// ParseString is the same path over a string's bytes.
			p2, err := ParseString(tt.in)
			if err != nil || !equalMaps(toMap(p2), tt.want) {
				t.Errorf("ParseString = %q, %v", toMap(p2), err)
			}
		})
	}
}

func TestParseKeepsFirstAppearanceOrder(t *testing.T) {
	p, err := ParseString("b=1\na=2\nc=3\nb=4\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Keys(), ","); got != "b,a,c" {
		t.Errorf("keys %s, want b,a,c", got)
	}
	if v, _ := p.Get("b"); v != "4" {
		t.Errorf("b = %q, want 4", v)
	}
}

func TestParseErrorNamesLine(t *testing.T) {
	_, err := ParseString("a=1\n\n# c\nb=x\\\n  \\u12\nc=3")
	if err == nil || err.Error() != `javaprops: line 4: Malformed \uxxxx encoding.` {
		t.Errorf("err = %v", err)
	}
}

func TestParseReaderError(t *testing.T) {
	boom := errors.New("boom")
	if _, err := Parse(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	if _, err := ParseUTF8(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func TestParseByteAtATime(t *testing.T) {
	in := "a=1\\\r\n  2\r\nb c\n"
	p, err := Parse(iotest.OneByteReader(strings.NewReader(in)))
	if err != nil {
		t.Fatal(err)
	}
	if got := toMap(p); !equalMaps(got, map[string]string{"a": "12", "b": "c"}) {
		t.Errorf("got %q", got)
	}
}

// The charset paths, each checked against Java 17: string2Properties("k=é")
// yields the chars U+00C3 U+00A9; load(Reader) keeps é.
func TestCharsetPaths(t *testing.T) {
	tests := []struct {
		name  string
		parse func(string) (*Properties, error)
		in    string
		want  string
	}{
		{"Parse: UTF-8 file read as Latin-1", func(s string) (*Properties, error) { return Parse(strings.NewReader(s)) }, "k=é", "Ã©"},
		{"ParseString: string2Properties", ParseString, "k=é", "Ã©"},
		{"ParseBody: valid UTF-8", func(s string) (*Properties, error) { return ParseBody([]byte(s)) }, "k=é", "Ã©"},
		// new String(body, UTF-8) turns the stray byte into U+FFFD, whose
		// three UTF-8 bytes are then read as three Latin-1 chars.
		{"ParseBody: invalid UTF-8", func(s string) (*Properties, error) { return ParseBody([]byte(s)) }, "k=\xff", "ï¿½"},
		{"ParseUTF8: load(Reader)", func(s string) (*Properties, error) { return ParseUTF8(strings.NewReader(s)) }, "k=é", "é"},
		{"ParseUTF8: invalid byte", func(s string) (*Properties, error) { return ParseUTF8(strings.NewReader(s)) }, "k=\xff", "\uFFFD"},
		{"escapes survive every path", ParseString, `k=\u00e9\u4e2d`, "é中"},
		{"unpaired surrogate becomes U+FFFD", ParseString, `k=\uD83D!`, "\uFFFD!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := p.Get("k"); got != tt.want {
				t.Errorf("k = %q, want %q", got, tt.want)
			}
		})
	}
}
