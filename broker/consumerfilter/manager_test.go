package consumerfilter

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/store/config"
)

// exprMatcher matches when the property named by the expression is set.
type exprMatcher string

func (e exprMatcher) Match(props func(string) (string, bool)) bool {
	_, ok := props(string(e))
	return ok
}

func fakeCompile(typ, expr string) (Matcher, error) {
	if typ != "SQL92" || strings.Contains(expr, "bad") {
		return nil, errors.New("parse error")
	}
	return exprMatcher(expr), nil
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newManager(t *testing.T, c *clock) *Manager {
	t.Helper()
	bloom, err := NewBloom(20, 32)
	require.NoError(t, err)
	return New(Options{Path: filepath.Join(t.TempDir(), "consumerFilter.json"), Bloom: bloom, Compile: fakeCompile,
		CleanSpan: 24 * time.Hour, Now: c.now})
}

func sql(topic, expr string, version int64) body.SubscriptionData {
	return body.SubscriptionData{Topic: body.Str(topic), SubString: body.Str(expr), ExpressionType: body.Str("SQL92"), SubVersion: version}
}

func dataOf(m *Manager, topic, group string) *config.ConsumerFilterData {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, _ := m.data(topic, group)
	return d
}

// Java 4.9.8 ConsumerFilterManager.register / FilterDataMapByTopic.register.
func TestRegisterVersions(t *testing.T) {
	c := &clock{time.UnixMilli(1_700_000_000_000)}
	m := newManager(t, c)
	tag := body.SubscriptionData{Topic: body.Str("T"), SubString: body.Str("*"), ExpressionType: body.Str("TAG"), SubVersion: 1}
	m.Register("G", []body.SubscriptionData{tag, sql("T2", "", 1)})
	_, ok := m.Get("T", "G")
	require.False(t, ok, "TAG and empty expressions have no filter")

	m.Register("G", []body.SubscriptionData{sql("T", "a", 10)})
	f, ok := m.Get("T", "G")
	require.True(t, ok)
	require.Equal(t, int64(10), f.ClientVersion)
	require.True(t, f.Matcher.Match(func(n string) (string, bool) { return "x", n == "a" }))
	d := dataOf(m, "T", "G")
	require.Equal(t, c.t.UnixMilli(), d.BornTime)
	require.Equal(t, m.opt.Bloom.Data("G#T"), d.BloomFilterData)

	m.Register("G", []body.SubscriptionData{sql("T", "b", 9)})
	require.Equal(t, "a", dataOf(m, "T", "G").Expression, "an older version is ignored")
	m.Register("G", []body.SubscriptionData{sql("T", "a", 12)})
	require.Equal(t, int64(12), dataOf(m, "T", "G").ClientVersion, "same expression: the version moves on")
	c.t = c.t.Add(time.Second)
	m.Register("G", []body.SubscriptionData{sql("T", "b", 13)})
	require.Equal(t, "b", dataOf(m, "T", "G").Expression)
	require.Equal(t, c.t.UnixMilli(), dataOf(m, "T", "G").BornTime, "a changed expression is a new filter")
	m.Register("G", []body.SubscriptionData{sql("T", "bad", 14)})
	_, ok = m.Get("T", "G")
	require.False(t, ok, "a change that does not compile removes the filter")

	m.Register("G", []body.SubscriptionData{sql("T", "a", 20), sql("U", "u", 20)})
	m.Register("G", []body.SubscriptionData{sql("T", "a", 20)})
	require.True(t, dataOf(m, "U", "G").Dead(), "U is no longer subscribed")
	m.Register("G", []body.SubscriptionData{sql("U", "u", 20)})
	require.False(t, dataOf(m, "U", "G").Dead(), "the same version brings a dead filter back")
	m.Unregister("G")
	require.True(t, dataOf(m, "T", "G").Dead())
	require.True(t, dataOf(m, "U", "G").Dead())
}

func TestPersistLoadClean(t *testing.T) {
	c := &clock{time.UnixMilli(1_700_000_000_000)}
	m := newManager(t, c)
	m.Register("G", []body.SubscriptionData{sql("T", "a", 10)})
	m.Register("H", []body.SubscriptionData{sql("T", "h", 10)})
	m.Unregister("H")
	require.NoError(t, m.Persist())

	c.t = c.t.Add(time.Minute)
	l := newManager(t, c)
	l.opt.Path = m.opt.Path
	res, err := l.Load()
	require.NoError(t, err)
	require.True(t, res.Found)
	f, ok := l.Get("T", "G")
	require.True(t, ok)
	require.NotNil(t, f.Matcher, "compiled again")
	require.Equal(t, c.t.UnixMilli()-30_000, dataOf(l, "T", "G").DeadTime, "alive when written: dead since 30 s ago until a heartbeat")
	l.Register("G", []body.SubscriptionData{sql("T", "a", 10)})
	require.False(t, dataOf(l, "T", "G").Dead())

	c.t = c.t.Add(25 * time.Hour)
	require.NoError(t, l.Persist())
	_, ok = l.Get("T", "H")
	require.False(t, ok, "dead for more than filterDataCleanTimeSpan")
	_, ok = l.Get("T", "G")
	require.True(t, ok)

	other, err := NewBloom(10, 32)
	require.NoError(t, err)
	o := New(Options{Path: m.opt.Path, Bloom: other, Compile: fakeCompile, Now: c.now})
	_, err = o.Load()
	require.NoError(t, err)
	_, ok = o.Get("T", "G")
	require.False(t, ok, "a file written with another bloom shape is ignored")
}

// CommitLogDispatcherCalcBitMap and the consume-queue check of
// ExpressionMessageFilter. The bit maps are what Java 4.9.x's
// BloomFilter.createByFn(20, 32).hashTo wrote into a BitsArray for G#T,
// then for G#T and H#T.
func TestBitMap(t *testing.T) {
	c := &clock{time.UnixMilli(1_700_000_000_000)}
	m := newManager(t, c)
	props := func(set ...string) func(string) (string, bool) {
		return func(n string) (string, bool) { return "v", slices.Contains(set, n) }
	}
	require.Nil(t, m.BitMap("T", props("a")), "no filters on the topic: no bit map")

	m.Register("G", []body.SubscriptionData{sql("T", "a", 1)})
	m.Register("H", []body.SubscriptionData{sql("T", "b", 1)})
	require.Equal(t, "0000000000000000000000000000", hex.EncodeToString(m.BitMap("T", props())), "filters but no match: zeros")
	gOnly := m.BitMap("T", props("a"))
	require.Equal(t, "0000000500000000000008000000", hex.EncodeToString(gOnly))
	require.Equal(t, "0000000580000000008008000000", hex.EncodeToString(m.BitMap("T", props("a", "b"))))

	g, _ := m.Get("T", "G")
	h, _ := m.Get("T", "H")
	later := c.t.UnixMilli() + 1
	require.True(t, g.MatchBitMap(later, gOnly))
	require.False(t, h.MatchBitMap(later, gOnly), "H's positions are not all set")
	require.True(t, h.MatchBitMap(c.t.UnixMilli(), gOnly), "stored before the filter was born")
	require.True(t, h.MatchBitMap(later, nil), "no bit map")
	require.True(t, h.MatchBitMap(later, gOnly[:8]), "a bit map of another size")
	require.True(t, Filter{}.MatchBitMap(later, gOnly), "no compiled expression or bloom data")

	m.Unregister("H")
	require.Equal(t, "0000000580000000008008000000", hex.EncodeToString(m.BitMap("T", props("a", "b"))),
		"a dead filter counts until it is cleaned out, as in Java")

	_, view := m.QueueView("T", "H")
	require.False(t, view(later, gOnly), "QUERY_CONSUME_QUEUE's check is the same")
}
