package javalang

import "testing"

// The header decoders parse short decimal fields (queueId, sysFlag,
// bornTimestamp, ...) on every request.
func BenchmarkParseInt(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParseInt("-12345")
		_, _ = ParseInt("0")
	}
}

func BenchmarkParseLong(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParseLong("1700000000000")
	}
}

func BenchmarkParseDouble(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParseDouble("0.75")
	}
}

func BenchmarkAppendDouble(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 32)
	for b.Loop() {
		buf = AppendDouble(buf[:0], 0.75)
		buf = AppendDouble(buf[:0], 1e10)
	}
}
