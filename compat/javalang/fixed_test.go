package javalang

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFormatFixed checks String.format("%.2f"/"%.3f"/"%.0f") as OpenJDK 17
// printed them (Fx.java run with `java Fx.java`).
func TestFormatFixed(t *testing.T) {
	for _, c := range []struct {
		f             float64
		two, three, z string
	}{
		{0, "0.00", "0.000", "0"},
		{0.001, "0.00", "0.001", "0"},
		{0.004, "0.00", "0.004", "0"},
		{0.005, "0.01", "0.005", "0"},
		{0.0049, "0.00", "0.005", "0"},
		{0.125, "0.13", "0.125", "0"},
		{0.135, "0.14", "0.135", "0"},
		{1.005, "1.01", "1.005", "1"},
		{2.675, "2.68", "2.675", "3"},
		{1.115, "1.12", "1.115", "1"},
		{9.995, "10.00", "9.995", "10"},
		{99.995, "100.00", "99.995", "100"},
		{0.5, "0.50", "0.500", "1"},
		{1, "1.00", "1.000", "1"},
		{19.8, "19.80", "19.800", "20"},
		{20.000000000000004, "20.00", "20.000", "20"},
		{21.333333333333332, "21.33", "21.333", "21"},
		{1e7, "10000000.00", "10000000.000", "10000000"},
		{1.23456789e12, "1234567890000.00", "1234567890000.000", "1234567890000"},
		{9.2233720368547758e18, "9223372036854776000.00", "9223372036854776000.000", "9223372036854776000"},
		{4.9e-324, "0.00", "0.000", "0"},
		{math.NaN(), "NaN", "NaN", "NaN"},
		{math.Inf(1), "Infinity", "Infinity", "Infinity"},
		{-0.001, "-0.00", "-0.001", "-0"},
		{-1.005, "-1.01", "-1.005", "-1"},
		{0.045, "0.05", "0.045", "0"},
		{1234.5678, "1234.57", "1234.568", "1235"},
		{0.015, "0.02", "0.015", "0"},
		{0.025, "0.03", "0.025", "0"},
		{1e-5, "0.00", "0.000", "0"},
		{0.994999999, "0.99", "0.995", "1"},
		{0.995, "1.00", "0.995", "1"},
		{999999.995, "1000000.00", "999999.995", "1000000"},
		{1e-10, "0.00", "0.000", "0"},
		{3.3333333333333335, "3.33", "3.333", "3"},
	} {
		assert.Equal(t, c.two, FormatFixed(c.f, 2), "%.2f of %v", c.f)
		assert.Equal(t, c.three, FormatFixed(c.f, 3), "%.3f of %v", c.f)
		assert.Equal(t, c.z, FormatFixed(c.f, 0), "%.0f of %v", c.f)
	}
}

// FuzzFormatFixed: FormatFixed never panics and prints a number within half
// a unit of its last place (plus the double's own rounding) of f.
func FuzzFormatFixed(f *testing.F) {
	for _, v := range []float64{0, 0.005, 1.005, 9.995, 1e300, 5e-324, -2.5} {
		f.Add(v, uint8(2))
	}
	f.Fuzz(func(t *testing.T, v float64, prec uint8) {
		p := int(prec % 20)
		s := FormatFixed(v, p)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		got, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("FormatFixed(%v, %d) = %q: %v", v, p, s, err)
		}
		tol := 0.5*math.Pow(10, -float64(p)) + math.Abs(v)*1e-15
		if math.Abs(got-v) > tol*(1+1e-9) {
			t.Fatalf("FormatFixed(%v, %d) = %q, off by %g", v, p, s, math.Abs(got-v))
		}
	})
}
