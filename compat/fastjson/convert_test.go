package fastjson

import (
	"errors"
	"math"
	"strconv"
	"testing"
)

// Each row was checked with fastjson 1.2.69 JSON.parseObject("{\"f\":" + in
// + "}", Bean.class) for an int, a long, a boolean and a String field: the
// value the field got, or "null" where it kept its default, or "ERR" where
// fastjson threw.
func TestConversions(t *testing.T) {
	tests := []struct {
		in                 string
		asInt, asLong, asB string
		asS                string
	}{
		{`12`, "12", "12", "false", "12"},
		{`"12"`, "12", "12", "ERR", "12"},
		{`12.7`, "12", "12", "false", "12.7"},
		{`-12.7`, "-12", "-12", "false", "-12.7"},
		{`"12.7"`, "ERR", "ERR", "ERR", "12.7"},
		{`"12.00"`, "12", "12", "ERR", "12.00"},
		{`true`, "1", "ERR", "true", "true"},
		{`false`, "0", "ERR", "false", "false"},
		{`"true"`, "ERR", "ERR", "true", "true"},
		{`""`, "null", "null", "null", ""},
		{`null`, "null", "null", "null", "null"},
		{`"null"`, "null", "null", "null", "null"},
		{`"abc"`, "ERR", "ERR", "ERR", "abc"},
		{`1e2`, "100", "100", "false", "1e2"}, // fastjson's String is "1E+2"
		{`"1,000"`, "1000", "1000", "ERR", "1,000"},
		{`" 12"`, "ERR", "ERR", "ERR", " 12"},
		{`2147483648`, "ERR", "2147483648", "ERR", "2147483648"},
		{`9223372036854775808`, "ERR", "ERR", "ERR", "9223372036854775808"},
		{`1`, "1", "1", "true", "1"},
		{`0`, "0", "0", "false", "0"},
		{`"1"`, "1", "1", "true", "1"},
		{`"Y"`, "ERR", "ERR", "true", "Y"},
		{`{}`, "ERR", "ERR", "ERR", "{}"},
		{`[1]`, "ERR", "ERR", "ERR", "[1]"},
		{`"0x10"`, "ERR", "ERR", "ERR", "0x10"},
		{`'12'`, "12", "12", "ERR", "12"},
		{`12L`, "12", "12", "false", "12"},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		n, err := v.AsInt()
		check(t, tt.in, "int", strconv.Itoa(int(n)), err, tt.asInt)
		l, err := v.AsInt64()
		check(t, tt.in, "long", strconv.FormatInt(l, 10), err, tt.asLong)
		b, err := v.AsBool()
		check(t, tt.in, "boolean", strconv.FormatBool(b), err, tt.asB)
		s, err := v.AsString()
		check(t, tt.in, "String", s, err, tt.asS)
	}
}

func check(t *testing.T, in, typ, got string, err error, want string) {
	t.Helper()
	switch {
	case errors.Is(err, ErrNull):
		got = "null"
	case errors.Is(err, ErrType):
		got = "ERR"
	case err != nil:
		t.Fatalf("%s as %s: unexpected error %v", in, typ, err)
	}
	if got != want {
		t.Errorf("%s as %s: got %s, want %s", in, typ, got, want)
	}
}

// Checked with fastjson 1.2.69 for a double field.
func TestFloatConversions(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{`12`, "12"}, {`"12"`, "12"}, {`12.7`, "12.7"}, {`"12.7"`, "12.7"}, {`true`, "ERR"},
		{`""`, "null"}, {`null`, "null"}, {`"abc"`, "ERR"}, {`1e2`, "100"}, {`"1,000"`, "1000"},
		{`" 12"`, "12"}, {`9223372036854775808`, "9.223372036854776e+18"}, {`{}`, "ERR"}, {`"0x10"`, "ERR"},
		{`1e999`, "+Inf"}, {`1.`, "1"},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		f, err := v.AsFloat64()
		check(t, tt.in, "double", strconv.FormatFloat(f, 'g', -1, 64), err, tt.want)
	}
}

func TestLiteralToIntEdges(t *testing.T) {
	tests := []struct {
		lit  string
		bits int
		want int64
		ok   bool
	}{
		{"12.99999999999999999999999", 64, 12, true},
		{"-9223372036854775808", 64, math.MinInt64, true},
		{"-9223372036854775808.9", 64, math.MinInt64, true},
		{"9223372036854775807.5", 64, math.MaxInt64, true},
		{"9223372036854775808.0", 64, 0, false},
		{"2147483647.9", 32, math.MaxInt32, true},
		{"2147483648.0", 32, 0, false},
		{"1e-999999", 64, 0, true},
		{"1e999999", 64, 0, false},
		{"0.5e1", 32, 5, true},
		{"0.000123e4", 64, 1, true},
		{"-0.5", 64, 0, true},
		{"00012.5", 64, 12, true},
		{"123e-1", 64, 12, true},
		{"1e18", 64, 1e18, true},
		{"1e19", 64, 0, false},
		{"-9.223372036854775808e18", 64, math.MinInt64, true},
		{"0e999999999999999999999", 64, 0, true},
		{"1e99999999999999999999", 64, 0, false},
		{"1e-99999999999999999999", 64, 0, true},
		{"abc", 64, 0, false},
		{"1e", 64, 0, false},
		{"1.2.3", 64, 0, false},
	}
	for _, tt := range tests {
		n, ok := literalToInt(tt.lit, tt.bits)
		if n != tt.want || ok != tt.ok {
			t.Errorf("%s/%d: got %d %v", tt.lit, tt.bits, n, ok)
		}
	}
}

func TestDecoder(t *testing.T) {
	v, err := Parse([]byte(`{"perm":6,"name":"T","order":"false","rq":null,"tbl":{0:12,"1":"13"},"bad":"x","list":[1,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	var d Decoder
	if got := d.Int(v.Get("perm"), 0); got != 6 {
		t.Errorf("perm %d", got)
	}
	if got := d.Int(v.Get("readQueueNums"), 16); got != 16 {
		t.Errorf("absent field: %d, want the default", got)
	}
	if got := d.Int(v.Get("rq"), 16); got != 16 {
		t.Errorf("null field: %d, want the default", got)
	}
	if got := d.String(v.Get("name"), ""); got != "T" {
		t.Errorf("name %q", got)
	}
	if got := d.Bool(v.Get("order"), true); got {
		t.Error("order")
	}
	if got := d.Float64(v.Get("perm"), 0); got != 6 {
		t.Errorf("float %v", got)
	}
	sum := int64(0)
	for k, off := range d.Object(v.Get("tbl")).Members() {
		sum += int64(d.Int(k, -1))*100 + d.Int64(off, 0)
	}
	if sum != 125 {
		t.Errorf("table sum %d", sum)
	}
	if d.Array(v.Get("list")).Len() != 2 || d.Array(v.Get("nope")).Kind() != Absent {
		t.Error("Array")
	}
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	if got := d.Int64(v.Get("bad"), 7); got != 7 || !errors.Is(d.Err(), ErrType) {
		t.Errorf("bad: %d %v", got, d.Err())
	}
	first := d.Err()
	// Sticky: later calls return defaults and keep the first error.
	if got := d.Int(v.Get("perm"), 1); got != 1 {
		t.Errorf("after failure: %d", got)
	}
	if d.Object(v.Get("tbl")).Kind() != Absent {
		t.Error("Object after failure")
	}
	d.Fail(errors.New("later"))
	if d.Err() != first {
		t.Errorf("err replaced: %v", d.Err())
	}
	var d2 Decoder
	if d2.Object(v.Get("list")).Kind() != Absent || !errors.Is(d2.Err(), ErrType) {
		t.Errorf("Object of an array: %v", d2.Err())
	}
	var d3 Decoder
	if d3.Bool(MakeString("maybe"), true) != true || d3.String(v.Get("absent"), "def") != "def" || d3.Float64(MakeBool(true), 2) != 2 {
		t.Error("defaults on failure")
	}
}
