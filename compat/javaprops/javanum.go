package javaprops

import "github.com/sputnikmq/sputnik/compat/javalang"

// ParseJavaInt parses s like Integer.parseInt (bits 32) or Long.parseLong
// (bits 64): javalang.ParseInt or javalang.ParseLong, failing with a
// *javalang.NumberFormatError. New code should call javalang directly.
func ParseJavaInt(s string, bits int) (int64, error) {
	if bits == 32 {
		n, err := javalang.ParseInt(s)
		return int64(n), err
	}
	return javalang.ParseLong(s)
}
