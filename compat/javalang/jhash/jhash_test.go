package jhash

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// testdata/java17_order.txt was printed by a throwaway Java program on
// OpenJDK 17.0.15 running exactly the scenarios below (one line per
// scenario: name, tab, keys in iteration order joined by commas).
func javaOrders(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/java17_order.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, keys, _ := strings.Cut(sc.Text(), "\t")
		out[name] = keys
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var small = []string{"TopicTest", "BenchmarkTest", "%RETRY%please_rename_unique_group_name", "broker-a", "broker-b",
	"DefaultCluster", "SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT", "TBW102", "SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRACE_TOPIC",
	"DefaultCluster_REPLY_TOPIC", "主题", "😀x", "a", "b", "c", "Aa", "BB"}

func join[K any](keys []K, f func(K) string) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = f(k)
	}
	return strings.Join(s, ",")
}

func str(s string) string { return s }

func TestHashMapOrderMatchesJava(t *testing.T) {
	want := javaOrders(t)
	got := map[string]string{}

	m := NewMap[string, string](String, -1)
	for _, k := range small {
		m.Put(k, k)
	}
	got["default_small"] = join(m.Keys(), str)
	m.Remove("broker-a")
	m.Remove("a")
	m.Put("broker-a", "x")
	m.Put("zz", "z")
	m.Put("TopicTest", "again")
	got["default_small_mutated"] = join(m.Keys(), str)

	big := NewMap[string, string](String, 1024)
	for i := 0; i < 3000; i++ {
		big.Put("topic-"+strconv.Itoa(i), "")
	}
	for i := 0; i < 3000; i += 7 {
		big.Remove("topic-" + strconv.Itoa(i))
	}
	for i := 0; i < 50; i++ {
		big.Put("%RETRY%group-"+strconv.Itoa(i), "")
	}
	got["cap1024_3000"] = join(big.Keys(), str)
	set := NewStringSet()
	for _, k := range big.Keys() {
		set.Add(k)
	}
	got["hashset_from_big"] = join(set.Keys(), str)

	addrs := NewMap[int64, string](Long, -1)
	for _, id := range []int64{17, 2, 0, 1, 33, 16, -1, 1 << 40} {
		addrs.Put(id, "")
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	got["long_keys"] = join(addrs.Keys(), i64)
	got["long_keys_clone"] = join(addrs.Clone().Keys(), i64)

	src := NewMap[string, string](String, -1)
	for _, k := range small {
		src.Put(k, k)
	}
	pa := NewMap[string, string](String, -1)
	pa.PutAll(src)
	got["putall_presized"] = join(pa.Keys(), str)

	src1 := NewMap[string, string](String, -1)
	src1.Put("ORDER_TOPIC_CONFIG", "x")
	one := NewMap[string, string](String, -1)
	one.PutAll(src1)
	one.Put("NS2", "y")
	one.Put("another", "z")
	one.Put("abc", "w")
	got["putall_one_then_more"] = join(one.Keys(), str)

	var chmKeys []string
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		chmKeys = append(chmKeys, "t"+strconv.Itoa(i))
	}
	chmKeys = append(chmKeys, small...)
	got["chm_2019"] = chmJoin(chmKeys, seen)
	got["chm_small"] = chmJoin(small, map[string]bool{})

	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n got %.300s\nwant %.300s", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("scenarios: got %d, Java printed %d", len(got), len(want))
	}
}

func chmJoin(keys []string, seen map[string]bool) string {
	var uniq []string
	var hashes []int32
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, k)
			hashes = append(hashes, String(k))
		}
	}
	order := CHMOrder(hashes)
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = uniq[j]
	}
	return strings.Join(out, ",")
}

func TestStringHash(t *testing.T) {
	// Values of "…".hashCode() in Java.
	for s, want := range map[string]int32{"": 0, "a": 97, "Aa": 2112, "BB": 2112, "TopicTest": -1902610879, "😀x": 54959989} {
		if got := String(s); got != want {
			t.Errorf("String(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestRemoveKeepsOthersInOrder(t *testing.T) {
	m := NewMap[string, int](String, -1)
	for i, k := range []string{"Aa", "BB", "x"} { // "Aa" and "BB" share a bucket
		m.Put(k, i)
	}
	m.Remove("Aa")
	m.Put("Aa", 9)
	if got := join(m.Keys(), str); got != "BB,Aa,x" {
		t.Fatalf("order %s", got)
	}
	if v, ok := m.Get("Aa"); !ok || v != 9 {
		t.Fatalf("Get = %d %v", v, ok)
	}
}

func TestContinue(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"Topic#", "key"}, {"T", "ключ-键😀"}, {"😀", "x"}} {
		if got, want := Continue(String(c[0]), c[1]), String(c[0]+c[1]); got != want {
			t.Errorf("Continue(%q, %q) = %d, want %d", c[0], c[1], got, want)
		}
	}
}

// runeHash is String one code point at a time, the definition the ASCII
// fast path must agree with.
func runeHash(h int32, s string) int32 {
	for _, r := range s {
		h = next(h, r)
	}
	return h
}

func TestASCIIFastPathAgrees(t *testing.T) {
	pieces := []string{"", "a", "Topic", "#", "key-12345678", "ключ", "😀", "\xff", "\x80abc", "TopicTest#KEY_0001", "é"}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				s := a + b + c
				if got, want := String(s), runeHash(0, s); got != want {
					t.Errorf("String(%q) = %d, want %d", s, got, want)
				}
				if got, want := Continue(7, s), runeHash(7, s); got != want {
					t.Errorf("Continue(7, %q) = %d, want %d", s, got, want)
				}
				if utf8.ValidString(s) {
					if got, want := Bytes([]byte(s)), runeHash(0, s); got != want {
						t.Errorf("Bytes(%q) = %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}

func FuzzStringHash(f *testing.F) {
	for _, s := range []string{"TopicTest#key", "ключ-键😀", "\xffab\x80cdef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := String(s), runeHash(0, s); got != want {
			t.Fatalf("String(%q) = %d, want %d", s, got, want)
		}
		if utf8.ValidString(s) {
			if got, want := Bytes([]byte(s)), runeHash(0, s); got != want {
				t.Fatalf("Bytes(%q) = %d, want %d", s, got, want)
			}
		}
	})
}

var benchTopic, benchKey = "BenchmarkTopic#", "7F000001000000000000000000012345"

var benchSink int32

func BenchmarkTopicKeyHash(b *testing.B) {
	for range b.N {
		benchSink += Continue(String(benchTopic), benchKey)
	}
}

// Readers of one map may run at once (the name server ranges its route
// table's maps under a read lock for every client's lookup): the first
// Range of a large map caches its order, which must be safe under -race
// and give every reader the same order.
func TestConcurrentRanges(t *testing.T) {
	m := NewMap[string, int](String, -1)
	for i := range 4 * smallMax {
		m.Put("k"+strconv.Itoa(i), i)
	}
	want := m.Keys()
	for round := range 20 {
		m.Put("extra", round) // clears the cached order
		m.Remove("extra")
		var wg sync.WaitGroup
		got := make([][]string, 4)
		for r := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[r] = m.Keys()
			}()
		}
		wg.Wait()
		for _, keys := range got {
			if !slices.Equal(want, keys) {
				t.Fatalf("round %d: %v, want %v", round, keys, want)
			}
		}
	}
}
