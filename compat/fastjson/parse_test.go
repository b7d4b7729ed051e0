package fastjson

import (
	"errors"
	"strings"
	"testing"
)

// Inputs marked "fastjson" were checked with fastjson 1.2.69 JSON.parse
// (accepted, or rejected with a JSONException / NumberFormatException).
func TestParseAccepts(t *testing.T) {
	tests := []struct {
		in, want string // want: the tree rendered Compact
	}{
		{`{"a":1}`, `{"a":1}`},
		{` { "a" : [ 1 , 2.5e-3 , -0 ] , "b" : { } } `, `{"a":[1,2.5e-3,-0],"b":{}}`},
		{`{"m":{0:1,"1":"2",'3':4}}`, `{"m":{0:1,"1":"2","3":4}}`}, // fastjson
		{`{"m":{0:1,}}`, `{"m":{0:1}}`},                            // fastjson
		{`{,"m":{0:1},}`, `{"m":{0:1}}`},                           // fastjson
		{`{m:{0:1}}`, `{"m":{0:1}}`},                               // fastjson
		{`[1,,2]`, `[1,2]`},                                        // fastjson
		{`[1,2,]`, `[1,2]`},                                        // fastjson
		{`[,]`, `[]`},                                              //
		{`{"m":{0:1}} // c`, `{"m":{0:1}}`},                        // fastjson
		{"/*c*/{\"m\":{0:1}}", `{"m":{0:1}}`},                      // fastjson
		{`{"m":{1.5:1,-1:2,01:3}}`, `{"m":{1.5:1,-1:2,01:3}}`},     // fastjson
		{`{"s":"\x41\v\0\F\'"}`, `{"s":"A\u000B\u0000\f'"}`},       // fastjson
		{"{\"s\":\"\x01raw\"}", `{"s":"\u0001raw"}`},               // fastjson
		{`{"s":"\uD83D"}`, `{"s":"` + "\uFFFD" + `"}`},             // fastjson: '?'
		{`{"s":"\ud83d\ude00 \u00e9\/"}`, `{"s":"😀 é/"}`},          //
		{`{$s:1, _a:2}`, `{"$s":1,"_a":2}`},                        // fastjson
		{`{null:1, true:2}`, `{null:1,"true":2}`},                  //
		{`{"l":12S,"m":12L,"d":1.}`, `{"l":12,"m":12,"d":1}`},      // fastjson
		{`{"d":NaN,"u":undefined}`, `{"d":null,"u":null}`},         // fastjson drops them
		{`{{"brokerName":"b","queueId":0,"topic":"t"}:11}`, `{{"brokerName":"b","queueId":0,"topic":"t"}:11}`},
		{`{[1,2]:3}`, `{[1,2]:3}`},
		{`{"a":1,"a":2}`, `{"a":1,"a":2}`},
		{"{\"\xff\":\"a\xc3\"}", "{\"\uFFFD\":\"a\uFFFD\"}"},
		{`{中文:1}`, `{"中文":1}`},
		{"\t\n\r\f\b[]", `[]`},
		{`"x"`, `"x"`},
		{`-12`, `-12`},
		{`'it\'s'`, `"it's"`},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		in     string
		offset int
	}{
		{`{"m":{0:1}}x`, 11}, // fastjson: illegal state
		{`{"s":"a\qb"}`, 7},  // fastjson: unclosed string : q
		{`{"s":'it''s'}`, 9}, // fastjson: syntax error
		{`{"m":{+1:1}}`, 6},  // fastjson: illegal identifier : +
		{`{"l":-}`, 6},       // fastjson: NumberFormatException
		{`{"d":.5}`, 5},      // fastjson: syntax error
		{``, 0},
		{`   `, 3},
		{`{`, 1},
		{`{"a"`, 4},
		{`{"a" 1}`, 5},
		{`{"a":}`, 5},
		{`[1 2]`, 3},
		{`tru`, 0},
		{`trueish`, 0},
		{`"abc`, 4},
		{`"\u12"`, 3},
		{`"\x4"`, 3},
		{`"\`, 1},
		{`/* open`, 0},
		{`{à:1}`, 1}, // U+00E0: fastjson identifiers need a char >= U+0100
		{`1e`, 2},
		{`{a$b:1}`, 2},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err = %v", tt.in, err)
			continue
		}
		if se.Offset != tt.offset {
			t.Errorf("%q: offset %d, want %d (%v)", tt.in, se.Offset, tt.offset, err)
		}
	}
}

func TestParseDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	for _, in := range []string{
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		strings.Repeat(`{"a":`, MaxDepth) + "{}" + strings.Repeat("}", MaxDepth),
		strings.Repeat("{", 1_000_000), // object keys nest too
		strings.Repeat("[", 1_000_000),
	} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrDepth) {
			t.Errorf("len %d: err = %v", len(in), err)
		}
	}
}

func TestValueAccess(t *testing.T) {
	v, err := Parse([]byte(`{"a":[1,"x",null],"b":{0:true},"a2":1,"a2":2,7:"seven"}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind() != Object || v.Len() != 5 {
		t.Fatalf("kind %v len %d", v.Kind(), v.Len())
	}
	a := v.Get("a")
	if a.Kind() != Array || a.Len() != 3 || a.Index(1).Text() != "x" || !a.Index(2).IsNull() || a.Index(2).Kind() != Null {
		t.Errorf("a = %v", a)
	}
	if a.Index(3).Kind() != Absent || a.Index(-1).Kind() != Absent || v.Index(0).Kind() != Absent {
		t.Error("out of range index not Absent")
	}
	if got := v.Get("a2").Text(); got != "2" {
		t.Errorf("duplicate key: %s, want the last", got)
	}
	if got := v.Get("7").Text(); got != "seven" {
		t.Errorf("number key: %q", got)
	}
	if v.Get("zz").Kind() != Absent || a.Get("x").Kind() != Absent {
		t.Error("missing member not Absent")
	}
	k, b := v.Member(1)
	if k.Text() != "b" || b.Get("0").Text() != "true" || b.Get("0").Kind() != Bool {
		t.Errorf("member 1 = %v %v", k, b)
	}
	if k, _ := v.Member(9); k.Kind() != Absent {
		t.Error("member out of range")
	}
	var keys []string
	for k := range v.Members() {
		keys = append(keys, k.Kind().String()+":"+k.Text())
		if len(keys) == 2 {
			break
		}
	}
	if strings.Join(keys, ",") != "string:a,string:b" {
		t.Errorf("members %v", keys)
	}
	n := 0
	for i, e := range a.Elems() {
		if i == 0 && e.Text() != "1" {
			t.Error("elems order")
		}
		n++
		if n == 2 {
			break
		}
	}
	for range v.Elems() {
		t.Error("Elems of an object")
	}
	for range a.Members() {
		t.Error("Members of an array")
	}
	if Kind(99).String() != "invalid" {
		t.Error("kind name")
	}
}

func TestMakeValues(t *testing.T) {
	v := MakeObject(MakeString("s"), MakeArray(MakeBool(true), MakeBool(false), MakeNull(), MakeNumber("1.5")),
		MakeNumber("0"), MakeString("zero"), MakeString("dangling"))
	if got := v.String(); got != `{"s":[true,false,null,1.5],0:"zero"}` {
		t.Errorf("got %s", got)
	}
}

func TestCompareJavaStrings(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "b", -1}, {"b", "a", 1}, {"a", "ab", -1}, {"ab", "a", 1},
		{"T1", "T10", -1}, {"broker-b", "broker-a", 1},
		// U+FF21 (FULLWIDTH A) sorts after U+1F600 in UTF-8 but before it in
		// UTF-16 (0xFF21 > 0xD83D).
		{"\uFF21", "\U0001F600", 1},
		{"\U0001F600", "\U0001F601", -1},
		{"\U0001F600", "\U0001F600", 0},
	}
	for _, tt := range tests {
		if got := CompareJavaStrings(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
