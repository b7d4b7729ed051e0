package message

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: MessageDecoder.string2messageProperties / messageProperties2String.
func TestParseProperties(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Properties
	}{
		{"empty", "", nil},
		{"one", "a\x01b", Properties{{"a", "b"}}},
		{"trailing sep", "a\x01b\x02", Properties{{"a", "b"}}},
		{"empty value dropped", "a\x01\x02b\x01c", Properties{{"b", "c"}}},
		{"empty key dropped", "\x01v\x02b\x01c", Properties{{"b", "c"}}},
		{"short segments", "ab\x02\x02x\x02k\x01vv", Properties{{"k", "vv"}}},
		{"no name sep", "abc\x02d\x01e", Properties{{"d", "e"}}},
		{"value keeps 0x01", "k\x01v\x01w", Properties{{"k", "v\x01w"}}},
		{"duplicate keeps place", "a\x011\x02b\x012\x02a\x013", Properties{{"a", "3"}, {"b", "2"}}},
		{"invalid utf8", "k\x01\xff", Properties{{"k", "\uFFFD"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, ParseProperties([]byte(c.in)))
			for _, kv := range c.want {
				if kv.Value == "\uFFFD" {
					continue // LookupProperty returns raw bytes
				}
				v, ok := LookupProperty([]byte(c.in), kv.Key)
				require.True(t, ok)
				require.Equal(t, kv.Value, string(v))
			}
			_, ok := LookupProperty([]byte(c.in), "missing")
			require.False(t, ok)
		})
	}
}

func TestPropertiesEdit(t *testing.T) {
	var p Properties
	p.Set(PropTags, "a")
	p.Set(PropKeys, "k")
	p.Set(PropTags, "b")
	v, ok := p.Get(PropTags)
	require.True(t, ok)
	require.Equal(t, "b", v)
	require.Equal(t, "TAGS\x01b\x02KEYS\x01k", string(AppendProperties(nil, p)))
	require.True(t, p.Delete(PropTags))
	require.False(t, p.Delete(PropTags))
	require.Equal(t, "KEYS\x01k", string(AppendProperties(nil, p)))
	p.Set("e", "")
	require.Equal(t, "KEYS\x01k\x02e\x01", string(AppendProperties(nil, p)), "Java writes empty (non-null) values")
}

// The order of a HashMap<String,String> of these keys in JDK 17 (bucket =
// hash ^ hash>>>16 & 15, insertion order within a bucket).
func TestHashMapOrder(t *testing.T) {
	p := Properties{{"WAIT", "true"}, {"TAGS", "a"}, {"KEYS", "k"}, {"UNIQ_KEY", "u"}, {"CLUSTER", "c"}}
	var keys []string
	for _, kv := range p.HashMapOrder() {
		keys = append(keys, kv.Key)
	}
	require.Equal(t, []string{"KEYS", "UNIQ_KEY", "CLUSTER", "WAIT", "TAGS"}, keys)
}

// Java 4.9.8: IndexService.buildIndex splits KEYS on " " and skips empties.
func TestSplitKeys(t *testing.T) {
	require.Nil(t, SplitKeys(""))
	require.Nil(t, SplitKeys("   "))
	require.Equal(t, []string{"a", "b", "a"}, SplitKeys(" a  b a "))
}

func TestTagsCode(t *testing.T) {
	require.Equal(t, int64(0), TagsCode(""))
	require.Equal(t, int64(2598919), TagsCode("TagA"))
	// "polygenelubricants".hashCode() == Integer.MIN_VALUE: sign-extended.
	require.Equal(t, int64(-2147483648), TagsCode("polygenelubricants"))
	require.Equal(t, int64(55357*31+56832), TagsCode("\U0001F600"), "UTF-16 surrogates")
}

func TestSysFlag(t *testing.T) {
	require.Equal(t, TransactionCommit, TransactionType(TransactionCommit|FlagBornHostV6|FlagCompressed))
	require.Equal(t, TransactionRollback|FlagCompressed, SetTransactionType(TransactionPrepare|FlagCompressed, TransactionRollback))
	require.True(t, Consumable(TransactionCommit))
	require.True(t, Consumable(0))
	require.False(t, Consumable(TransactionPrepare))
	require.False(t, Consumable(TransactionRollback))
	require.Equal(t, int32(2), CompressionType(CompressionZSTD|FlagCompressed))
}
