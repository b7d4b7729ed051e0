package consumerfilter

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/sputnikmq/sputnik/store/config"
)

// Bloom is the broker's bloom filter shape (Java BloomFilter.createByFn(f,
// n), f = maxErrorRateOfBloomFilter, n = expectConsumerNumUseFilter): k
// hash positions in an m-bit map. Every consumer filter records its
// group#topic positions (consumerFilter.json's bloomFilterData); with
// enableCalcFilterBitMap Java also sets them in the consume-queue
// extension per message.
type Bloom struct {
	F, N, K, M int32
}

// NewBloom sizes the filter for an error rate of f percent and n consumers.
func NewBloom(f, n int32) (Bloom, error) {
	if f < 1 || f >= 100 {
		return Bloom{}, fmt.Errorf("consumerfilter: bloom error rate %d%%: must be in [1, 100)", f)
	}
	if n < 1 {
		return Bloom{}, fmt.Errorf("consumerfilter: bloom for %d consumers: must be > 0", n)
	}
	rate := float64(f) / 100
	k := int32(math.Ceil(logBase(0.5, rate)))
	m := int32(math.Ceil(float64(n) * logBase(2, 1/rate) * logBase(2, math.E)))
	m = int32(8 * math.Ceil(float64(m)/8))
	return Bloom{F: f, N: n, K: k, M: m}, nil
}

// logBase is log_b(x) computed as Java's logMN does.
func logBase(b, x float64) float64 { return math.Log(x) / math.Log(b) }

// Positions are the bit positions of s: double hashing over the first 64
// bits of Guava's murmur3_128 of s's UTF-8 bytes (calcBitPositions).
func (b Bloom) Positions(s string) []int32 {
	h := murmur3x64(s)
	h1, h2 := int32(h), int32(h>>32)
	pos := make([]int32, b.K)
	for i := int32(1); i <= b.K; i++ {
		c := h1 + i*h2
		if c < 0 {
			c = ^c
		}
		pos[i-1] = c % b.M
	}
	return pos
}

// Data is the bloom data of s (generate).
func (b Bloom) Data(s string) *config.BloomFilterData {
	return &config.BloomFilterData{BitPos: b.Positions(s), BitNum: b.M}
}

// Valid reports whether d was made by a filter of this shape (isValid).
func (b Bloom) Valid(d *config.BloomFilterData) bool {
	return d != nil && d.BitNum == b.M && d.BitPos != nil && len(d.BitPos) == int(b.K)
}

// equalBloom is BloomFilterData.equals.
func equalBloom(a, b *config.BloomFilterData) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.BitNum == b.BitNum && slices.Equal(a.BitPos, b.BitPos)
}

// murmur3x64 is the first half (h1) of MurmurHash3 x64 128 with seed 0,
// what Guava's HashCode.asLong returns for murmur3_128.
func murmur3x64(s string) uint64 {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	data := []byte(s)
	var h1, h2 uint64
	n := len(data)
	for len(data) >= 16 {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		h1 ^= mixK1(k1, c1, c2)
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= mixK2(k2, c1, c2)
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
		data = data[16:]
	}
	var k1, k2 uint64
	for i := len(data) - 1; i >= 8; i-- {
		k2 = k2<<8 | uint64(data[i])
	}
	for i := min(len(data), 8) - 1; i >= 0; i-- {
		k1 = k1<<8 | uint64(data[i])
	}
	if len(data) > 8 {
		h2 ^= mixK2(k2, c1, c2)
	}
	if len(data) > 0 {
		h1 ^= mixK1(k1, c1, c2)
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1, h2 = fmix64(h1), fmix64(h2)
	h1 += h2
	return h1
}

func mixK1(k, c1, c2 uint64) uint64 { return bits.RotateLeft64(k*c1, 31) * c2 }
func mixK2(k, c1, c2 uint64) uint64 { return bits.RotateLeft64(k*c2, 33) * c1 }

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
