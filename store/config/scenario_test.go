package config

import (
	"strconv"
	"time"
)

// The scenarios of compat/java/.../ConfigFiles.java (gen), built through the
// Go API with the same operations in the same order. Keep them in step.

type scenario struct {
	topics  *Topics
	groups  *SubscriptionGroups
	offsets *ConsumerOffsets
	delay   *DelayOffsets
	filters *ConsumerFilters
}

func (s scenario) files() map[string][]byte {
	return map[string][]byte{
		topicsFile:            s.topics.Encode(),
		subscriptionGroupFile: s.groups.Encode(),
		consumerOffsetFile:    s.offsets.Encode(),
		delayOffsetFile:       s.delay.Encode(),
		consumerFilterFile:    s.filters.Encode(),
	}
}

var scenarios = map[string]func() scenario{
	"empty": emptyScenario,
	"basic": basicScenario,
	"many":  manyScenario,
}

func emptyScenario() scenario {
	return scenario{
		topics:  NewTopics(1),
		groups:  NewSubscriptionGroups(0),
		offsets: NewConsumerOffsets(),
		delay:   NewDelayOffsets(),
		filters: NewConsumerFilters(),
	}
}

func topicOf(name string, r, w, perm int32, order bool, sysFlag int32, ft TopicFilterType) TopicConfig {
	return TopicConfig{TopicName: name, ReadQueueNums: r, WriteQueueNums: w, Perm: perm, Order: order,
		TopicSysFlag: sysFlag, TopicFilterType: ft}
}

func basicScenario() scenario {
	t := NewTopics(0)
	for _, tc := range []TopicConfig{
		topicOf("TopicTest", 4, 4, 6, false, 0, SingleTag),
		topicOf("TBW102", 8, 8, 7, false, 0, SingleTag),
		topicOf("SCHEDULE_TOPIC_XXXX", 18, 18, 6, false, 0, SingleTag),
		topicOf("OrderTopic", 8, 4, 4, true, 0, MultiTag),
		topicOf("%RETRY%G1", 1, 1, 6, false, 1, SingleTag),
		topicOf("%DLQ%G1", 1, 1, 6, false, 1, SingleTag),
		topicOf("DefaultCluster", 16, 16, 7, false, 0, SingleTag),
		topicOf("主题-ü😀\"\\/\t", 2, 3, 2, false, 0, SingleTag),
		topicOf("Aa", 1, 1, 6, false, 0, SingleTag),
		topicOf("BB", 1, 1, 6, false, 0, SingleTag),
		topicOf("NoFilterType", 0, 0, 0, false, 0, FilterTypeNull),
	} {
		t.Put(tc.TopicName, tc)
	}
	t.Remove("TopicTest")
	t.Put("TopicTest", topicOf("TopicTest", 4, 4, 6, false, 0, SingleTag))
	t.DataVersion = DataVersion{Timestamp: 1690000000000, Counter: 12}

	g := NewSubscriptionGroups(0)
	g.Put("G1", NewSubscriptionGroupConfig("G1"))
	g2 := NewSubscriptionGroupConfig("G2")
	g2.ConsumeEnable, g2.ConsumeFromMinEnable, g2.ConsumeBroadcastEnable = false, false, false
	g2.RetryQueueNums, g2.RetryMaxTimes, g2.BrokerID = 3, -1, 1
	g2.WhichBrokerWhenConsumeSlowly, g2.NotifyConsumerIdsChangedEnable = 1<<63-1, false
	g.Put("G2", g2)
	g.Put("消费组-😀", NewSubscriptionGroupConfig("消费组-😀"))
	noName := NewSubscriptionGroupConfig("")
	noName.GroupNameNull = true
	g.Put("NoName", noName)
	g.Put("TOOLS_CONSUMER", NewSubscriptionGroupConfig("TOOLS_CONSUMER"))
	g.DataVersion = DataVersion{Timestamp: 1690000000001, Counter: 3}

	o := NewConsumerOffsets()
	o.Commit(OffsetKey("TopicTest", "G1"), 0, 120)
	o.Commit(OffsetKey("TopicTest", "G1"), 1, 118)
	o.Commit(OffsetKey("TopicTest", "G1"), 3, 127)
	o.Commit(OffsetKey("TopicTest", "G1"), 2, 131)
	o.Commit(OffsetKey("%RETRY%G1", "G1"), 0, 0)
	for _, q := range []int32{1000, 0, 33, 64, 97, 31, 32, 2047} {
		o.Commit(OffsetKey("OrderTopic", "G2"), q, int64(q)*1_000_000_007)
	}
	o.Commit(OffsetKey("主题-😀", "消费组"), 0, 1<<63-1)
	o.Commit(OffsetKey("Neg", "G1"), 5, -1)

	d := NewDelayOffsets()
	d.Put(3, 7)
	d.Put(1, 0)
	d.Put(2, 15)
	d.Put(18, 123456789012)

	f := NewConsumerFilters()
	f.Put(filterOf("T1", "G1", "a > 5 AND b = 'x'", "SQL92", 1690000000000, 0, &BloomFilterData{BitNum: 216, BitPos: []int32{3, 17, 200}}, 409))
	f.Put(filterOf("T1", "G2", "TagA || TagB", "TAG", 1690000000000, 1690000000500, nil, 0))
	f.Put(filterOf("T2", "G1", "c IS NOT NULL", "SQL92", 1690000000000, 4102444800000, &BloomFilterData{BitNum: 216, BitPos: []int32{0, 1, 215}}, -3))
	nulls := filterOf("主题", "组", "", "", 5, 5, &BloomFilterData{BitNum: 1, BitPos: []int32{0}}, 1)
	nulls.ExpressionNull, nulls.ExpressionTypeNull = true, true
	f.Put(nulls)
	f.Clean(time.Now().UnixMilli(), FilterCleanSpan) // Java's encode cleans first
	return scenario{topics: t, groups: g, offsets: o, delay: d, filters: f}
}

func filterOf(topic, group, expr, typ string, born, dead int64, bloom *BloomFilterData, version int64) *ConsumerFilterData {
	return &ConsumerFilterData{Topic: topic, ConsumerGroup: group, Expression: expr, ExpressionType: typ,
		BornTime: born, DeadTime: dead, BloomFilterData: bloom, ClientVersion: version}
}

func manyTopicName(i int) string {
	return "T" + strconv.Itoa(i) + "_" + strconv.Itoa(i*7919%1000)
}

func manyScenario() scenario {
	t := NewTopics(0)
	perms := []int32{2, 4, 6, 7}
	for i := 0; i < 1800; i++ {
		ft := SingleTag
		if i%7 == 0 {
			ft = MultiTag
		}
		n := manyTopicName(i)
		t.Put(n, topicOf(n, int32(1+i%16), int32(1+(i*3)%16), perms[i%4], i%5 == 0, int32(i%3), ft))
	}
	for i := 0; i < 1800; i++ {
		if i%9 == 4 {
			t.Remove(manyTopicName(i))
		}
	}
	for i := 0; i < 1800; i++ {
		if i%18 == 4 {
			n := manyTopicName(i)
			t.Put(n, topicOf(n, 8, 8, 6, false, 0, SingleTag))
		}
	}
	t.DataVersion = DataVersion{Timestamp: 1700000000123, Counter: 1800}

	g := NewSubscriptionGroups(0)
	for i := 0; i < 600; i++ {
		c := NewSubscriptionGroupConfig("GID_" + strconv.Itoa(i))
		c.RetryMaxTimes, c.ConsumeBroadcastEnable, c.BrokerID = int32(i%20), i%2 == 0, int64(i%3)
		g.Put(c.GroupName, c)
	}
	for i := 0; i < 600; i++ {
		if i%11 == 3 {
			g.Remove("GID_" + strconv.Itoa(i))
		}
	}
	g.DataVersion = DataVersion{Timestamp: 1700000000456, Counter: 600}

	o := NewConsumerOffsets()
	for i := 0; i < 1000; i++ {
		key := OffsetKey("T"+strconv.Itoa(i%300), "G"+strconv.Itoa(i))
		for q := i % 8; q >= 0; q-- {
			o.Commit(key, int32(q), int64(i)*1000+int64(q))
		}
		if i%50 == 0 {
			for _, q := range []int32{33, 64, 97, 1024} {
				o.Commit(key, q, int64(q))
			}
		}
	}
	for i := 0; i < 1000; i += 13 {
		o.Remove(OffsetKey("T"+strconv.Itoa(i%300), "G"+strconv.Itoa(i)))
	}

	d := NewDelayOffsets()
	for level := int32(18); level >= 1; level-- {
		d.Put(level, int64(level)*100)
	}
	for level := int32(100); level <= 4000; level += 100 {
		d.Put(level, int64(level))
	}

	f := NewConsumerFilters()
	for i := 0; i < 300; i++ {
		dead := int64(1)
		if i%3 == 0 {
			dead = 4102444800000
		}
		f.Put(filterOf("FT"+strconv.Itoa(i%40), "FG"+strconv.Itoa(i), "a > "+strconv.Itoa(i), "SQL92",
			1690000000000+int64(i), dead, &BloomFilterData{BitNum: 216, BitPos: []int32{int32(i % 216), int32((i * 7) % 216), 5}}, int64(i)))
	}
	return scenario{topics: t, groups: g, offsets: o, delay: d, filters: f}
}
