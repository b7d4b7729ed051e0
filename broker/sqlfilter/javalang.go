package sqlfilter

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The parts of java.lang the selector's behaviour depends on: the
// Integer/Long/Double parsers a String property goes through when it meets a
// number (with their NumberFormatException texts), Double.compare,
// Double.toString, String.compareTo and hashCode, HashSet iteration order, and
// the escaping JavaCC applies in its messages.

// nfe says why a Java number parser threw NumberFormatException.
type nfe uint8

const (
	nfeNone          nfe = iota
	nfeInput             // For input string: "<s>"
	nfeEmpty             // empty String (Double.valueOf of a blank string)
	nfeMultiplePoint     // multiple points (Double.valueOf of "1.2.3")
)

// nfeText is NumberFormatException.toString() for a failure on s (for
// Double.valueOf, s is the trimmed input, as FloatingDecimal reports it).
func nfeText(why nfe, s string) string {
	switch why {
	case nfeEmpty:
		return "java.lang.NumberFormatException: empty String"
	case nfeMultiplePoint:
		return "java.lang.NumberFormatException: multiple points"
	default:
		return `java.lang.NumberFormatException: For input string: "` + s + `"`
	}
}

// parseJavaInt is Integer.parseInt (bits 32) or Long.parseLong (bits 64) in
// radix 10: an optional '+' or '-', then at least one digit, where a digit
// is anything Character.digit(char, 10) accepts — every BMP character of
// category Nd, not only ASCII. No spaces, no underscores.
func parseJavaInt(s string, bits uint) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	i := 0
	if s[0] < '0' {
		if s[0] != '-' && s[0] != '+' || len(s) == 1 {
			return 0, false
		}
		neg = s[0] == '-'
		i = 1
	}
	limit := uint64(1)<<(bits-1) - 1
	if neg {
		limit++
	}
	var mag uint64
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		d := javaDigit(r)
		if d < 0 || mag > (limit-uint64(d))/10 {
			return 0, false
		}
		mag = mag*10 + uint64(d)
	}
	if neg {
		return int64(-mag), true // -(1<<63) wraps to itself, as it must
	}
	return int64(mag), true
}

// javaDigit is Character.digit(ch, 10) for one UTF-16 char: a supplementary
// character is two surrogate chars, neither a digit.
func javaDigit(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r < 0x80 || r > 0xffff || !unicode.Is(unicode.Nd, r):
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if uint16(r) >= rg.Lo && uint16(r) <= rg.Hi {
			return int(uint16(r)-rg.Lo) % 10 // each range is whole runs of 0..9
		}
	}
	return -1
}

// parseJavaDouble is Double.valueOf(String) (FloatingDecimal): the input is
// trimmed of every char <= ' '; then an optional sign and "NaN", "Infinity",
// a hexadecimal "0x…p…" or a decimal with optional '.', exponent and one
// trailing f/F/d/D. It returns the trimmed string for the exception text.
func parseJavaDouble(s string) (float64, nfe, string) {
	t := strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if t == "" {
		return 0, nfeEmpty, t
	}
	i := 0
	if t[0] == '+' || t[0] == '-' {
		i++
	}
	neg := t[0] == '-'
	rest := t[i:]
	switch {
	case strings.HasPrefix(rest, "N"):
		if rest == "NaN" {
			return math.NaN(), nfeNone, t
		}
		return 0, nfeInput, t
	case strings.HasPrefix(rest, "I"):
		if rest == "Infinity" {
			if neg {
				return math.Inf(-1), nfeNone, t
			}
			return math.Inf(1), nfeNone, t
		}
		return 0, nfeInput, t
	case len(rest) > 1 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'):
		return parseJavaHexDouble(t, i+2)
	}
	end, why := scanJavaDecimal(t, i)
	if why != nfeNone {
		return 0, why, t
	}
	f, err := strconv.ParseFloat(t[:end], 64)
	if err != nil && !isRangeErr(err) {
		return 0, nfeInput, t
	}
	return f, nfeNone, t
}

// scanJavaDecimal checks the decimal form from i and returns where the
// number ends (before an f/F/d/D suffix).
func scanJavaDecimal(t string, i int) (int, nfe) {
	digits, point := 0, false
	for ; i < len(t); i++ {
		c := t[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' {
			if point {
				return 0, nfeMultiplePoint
			}
			point = true
		} else {
			break
		}
	}
	if digits == 0 {
		return 0, nfeInput
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		expAt := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == expAt {
			return 0, nfeInput
		}
	}
	end := i
	if i < len(t) {
		if i != len(t)-1 || !strings.ContainsRune("fFdD", rune(t[i])) {
			return 0, nfeInput
		}
	}
	return end, nfeNone
}

// parseJavaHexDouble checks t (trimmed, sign and 0x before at) against
// Java's hexadecimal floating-point form: hex digits with an optional
// point, a mandatory p exponent of decimal digits, one optional f/F/d/D.
func parseJavaHexDouble(t string, at int) (float64, nfe, string) {
	i, mant, point := at, 0, false
	for ; i < len(t); i++ {
		c := t[i]
		if isHex(c) {
			mant++
		} else if c == '.' && !point {
			point = true
		} else {
			break
		}
	}
	if mant == 0 || i == len(t) || (t[i] != 'p' && t[i] != 'P') {
		return 0, nfeInput, t
	}
	i++
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	expAt := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	end := i
	if i == expAt || i < len(t)-1 || (i == len(t)-1 && !strings.ContainsRune("fFdD", rune(t[i]))) {
		return 0, nfeInput, t
	}
	f, err := strconv.ParseFloat(t[:end], 64)
	if err != nil && !isRangeErr(err) {
		return 0, nfeInput, t
	}
	return f, nfeNone, t
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// javaDoubleCompare is Double.compare: numeric order, except that -0.0 is
// below 0.0 and NaN is above everything and equal to itself.
func javaDoubleCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	ab, bb := javaDoubleBits(a), javaDoubleBits(b)
	switch {
	case ab == bb:
		return 0
	case ab < bb:
		return -1
	}
	return 1
}

// javaDoubleBits is Double.doubleToLongBits (every NaN collapses to one).
func javaDoubleBits(f float64) int64 {
	if f != f {
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

// appendJavaDouble appends Double.toString(f): plain notation with at least
// one fractional digit for 1e-3 <= |f| < 1e7, else d.dddE±n.
//
// The digits are the shortest that round-trip. JDK 19+ prints exactly these;
// JDK 8–18 (FloatingDecimal) print one or two more digits for a small share
// of values (4.2778E21 comes out as 4.2777999999999997E21). The difference
// only shows in String() and in compile-error texts quoting a double literal.
func appendJavaDouble(b []byte, f float64) []byte {
	switch {
	case f != f:
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // d.ddde±xx
	if len(e) == len("de+00") || len(e) == len("de+000") {
		// One digit is shortest, but Java prints two: the two-digit decimal
		// nearest the value (4.9E-324, not 5.0E-324), zeros dropped.
		e = strconv.AppendFloat(buf[:0], f, 'e', 1, 64)
	}
	mant, expText, _ := strings.Cut(string(e), "e")
	exp, _ := strconv.Atoi(expText) // strconv wrote it: always an integer
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	if f >= 1e-3 && f < 1e7 {
		if exp < 0 {
			b = append(b, "0."...)
			b = append(b, strings.Repeat("0", -exp-1)...)
			return append(b, digits...)
		}
		if len(digits) <= exp+1 {
			b = append(b, digits...)
			b = append(b, strings.Repeat("0", exp+1-len(digits))...)
			return append(b, ".0"...)
		}
		b = append(b, digits[:exp+1]...)
		b = append(b, '.')
		return append(b, digits[exp+1:]...)
	}
	b = append(b, digits[0], '.')
	if len(digits) == 1 {
		b = append(b, '0')
	} else {
		b = append(b, digits[1:]...)
	}
	b = append(b, 'E')
	return strconv.AppendInt(b, int64(exp), 10)
}

// javaStringCompare is the sign of String.compareTo: UTF-16 code-unit order.
func javaStringCompare(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua == ub { // both supplementary with the same high surrogate
				ua, ub = secondUnit(ra), secondUnit(rb)
			}
			if ua < ub {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

func secondUnit(r rune) rune {
	_, lo := utf16.EncodeRune(r)
	return lo
}

// javaStringHash is String.hashCode over the UTF-16 code units.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h = 31*h + hi
			h = 31*h + lo
			continue
		}
		h = 31*h + r
	}
	return h
}

// javaHashSetOrder returns items deduplicated in the order a
// java.util.HashSet built by new HashSet<>(list) iterates them: by bucket
// (spread hash & (capacity-1)), then insertion order within a bucket. The
// capacity is what HashSet's collection constructor sizes, doubled whenever
// an insert makes a bucket 9 entries long while the table is below 64
// (HashMap.treeifyBin resizes instead of treeifying). Treeified buckets (64+
// slots, 9+ colliding strings) are not modelled.
func javaHashSetOrder(items []string) []string {
	capacity := 16
	for capacity < int(float32(len(items))/0.75)+1 {
		capacity <<= 1
	}
	spread := func(s string) int {
		h := uint32(javaStringHash(s))
		return int(h ^ h>>16)
	}
	var set []string
	seen := make(map[string]bool, len(items))
	count := make(map[int]int)
	for _, s := range items {
		if seen[s] {
			continue
		}
		seen[s] = true
		set = append(set, s)
		b := spread(s) & (capacity - 1)
		if count[b]++; count[b] >= 9 && capacity < 64 {
			capacity <<= 1
			clear(count)
			for _, t := range set {
				count[spread(t)&(capacity-1)]++
			}
		}
	}
	buckets := make([][]string, capacity)
	for _, s := range set {
		b := spread(s) & (capacity - 1)
		buckets[b] = append(buckets[b], s)
	}
	out := make([]string, 0, len(set))
	for _, bucket := range buckets {
		out = append(out, bucket...)
	}
	return out
}

// javaEscape is JavaCC's add_escapes over UTF-16 units: NUL dropped,
// \b \t \n \f \r \" \' \\ escaped, anything else outside 0x20..0x7e as \uxxxx.
func javaEscape(units []uint16) string {
	var b strings.Builder
	for _, c := range units {
		switch c {
		case 0:
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c > 0x7e {
				const hex = "0123456789abcdef"
				b.WriteString(`\u`)
				b.WriteByte(hex[c>>12])
				b.WriteByte(hex[c>>8&0xf])
				b.WriteByte(hex[c>>4&0xf])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(byte(c))
			}
		}
	}
	return b.String()
}
