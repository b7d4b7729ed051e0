package config

import (
	"fmt"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// SubscriptionGroupConfig is
// org.apache.rocketmq.common.subscription.SubscriptionGroupConfig (4.9.8).
type SubscriptionGroupConfig struct {
	GroupName                      string
	GroupNameNull                  bool // Java null: groupName left out
	ConsumeEnable                  bool
	ConsumeFromMinEnable           bool
	ConsumeBroadcastEnable         bool
	RetryQueueNums                 int32
	RetryMaxTimes                  int32
	BrokerID                       int64
	WhichBrokerWhenConsumeSlowly   int64
	NotifyConsumerIdsChangedEnable bool
}

// NewSubscriptionGroupConfig is a `new SubscriptionGroupConfig()` named
// group: every switch on, 1 retry queue, 16 retries, broker 0 (MASTER_ID),
// slow consumers to broker 1.
func NewSubscriptionGroupConfig(group string) SubscriptionGroupConfig {
	return SubscriptionGroupConfig{GroupName: group, ConsumeEnable: true, ConsumeFromMinEnable: true,
		ConsumeBroadcastEnable: true, RetryQueueNums: 1, RetryMaxTimes: 16, BrokerID: 0,
		WhichBrokerWhenConsumeSlowly: 1, NotifyConsumerIdsChangedEnable: true}
}

var groupConfigFields = fields("brokerId", "consumeBroadcastEnable?", "consumeEnable?",
	"consumeFromMinEnable?", "groupName", "notifyConsumerIdsChangedEnable?", "retryMaxTimes",
	"retryQueueNums", "whichBrokerWhenConsumeSlowly")

func (g SubscriptionGroupConfig) write(w *fastjson.Writer) {
	w.BeginObject()
	w.Key("brokerId")
	w.Int64(g.BrokerID)
	w.Key("consumeBroadcastEnable")
	w.Bool(g.ConsumeBroadcastEnable)
	w.Key("consumeEnable")
	w.Bool(g.ConsumeEnable)
	w.Key("consumeFromMinEnable")
	w.Bool(g.ConsumeFromMinEnable)
	writeString(w, "groupName", g.GroupName, g.GroupNameNull)
	w.Key("notifyConsumerIdsChangedEnable")
	w.Bool(g.NotifyConsumerIdsChangedEnable)
	w.Key("retryMaxTimes")
	w.Int(int(g.RetryMaxTimes))
	w.Key("retryQueueNums")
	w.Int(int(g.RetryQueueNums))
	w.Key("whichBrokerWhenConsumeSlowly")
	w.Int64(g.WhichBrokerWhenConsumeSlowly)
	w.EndObject()
}

func decodeGroupConfig(d *fastjson.Decoder, v fastjson.Value) SubscriptionGroupConfig {
	g := NewSubscriptionGroupConfig("")
	g.GroupNameNull = true
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, groupConfigFields) {
		case "brokerId":
			g.BrokerID = d.Int64(fv, g.BrokerID)
		case "consumeBroadcastEnable":
			g.ConsumeBroadcastEnable = d.Bool(fv, g.ConsumeBroadcastEnable)
		case "consumeEnable":
			g.ConsumeEnable = d.Bool(fv, g.ConsumeEnable)
		case "consumeFromMinEnable":
			g.ConsumeFromMinEnable = d.Bool(fv, g.ConsumeFromMinEnable)
		case "groupName":
			g.GroupName, g.GroupNameNull = nullableString(d, fv)
		case "notifyConsumerIdsChangedEnable":
			g.NotifyConsumerIdsChangedEnable = d.Bool(fv, g.NotifyConsumerIdsChangedEnable)
		case "retryMaxTimes":
			g.RetryMaxTimes = d.Int(fv, g.RetryMaxTimes)
		case "retryQueueNums":
			g.RetryQueueNums = d.Int(fv, g.RetryQueueNums)
		case "whichBrokerWhenConsumeSlowly":
			g.WhichBrokerWhenConsumeSlowly = d.Int64(fv, g.WhichBrokerWhenConsumeSlowly)
		}
	}
	return g
}

// SubscriptionGroups is the content of subscriptionGroup.json:
// SubscriptionGroupManager's subscriptionGroupTable and dataVersion.
type SubscriptionGroups struct {
	DataVersion DataVersion
	table       *chm[string, SubscriptionGroupConfig]
}

// NewSubscriptionGroups returns an empty table as SubscriptionGroupManager
// creates it, without the built-in groups its init() adds (the broker owns
// those).
func NewSubscriptionGroups(nowMillis int64) *SubscriptionGroups {
	return &SubscriptionGroups{DataVersion: NewDataVersion(nowMillis),
		table: newCHM[string, SubscriptionGroupConfig](stringHash, capGroups)}
}

// Get returns the config of group.
func (s *SubscriptionGroups) Get(group string) (SubscriptionGroupConfig, bool) {
	return s.table.Get(group)
}

// Put stores g under group.
func (s *SubscriptionGroups) Put(group string, g SubscriptionGroupConfig) { s.table.Put(group, g) }

// Remove deletes group.
func (s *SubscriptionGroups) Remove(group string) (SubscriptionGroupConfig, bool) {
	return s.table.Remove(group)
}

// Len returns the number of groups.
func (s *SubscriptionGroups) Len() int { return s.table.Len() }

// PutAll is subscriptionGroupTable.putAll(m) for a map m holding from's
// groups and others s holds already, size entries in all: the table first
// grows for size (ConcurrentHashMap.tryPresize), then takes from's groups
// in from's order. SlaveSynchronize passes the master's table (size is
// from.Len()); SubscriptionGroupManager.decode a decoded manager's, which
// also holds the built-in groups.
func (s *SubscriptionGroups) PutAll(from *SubscriptionGroups, size int) {
	s.table.putAllSized(from.table, size)
}

// Clear is subscriptionGroupTable.clear(): no group is left, and the table
// keeps the size it has grown to.
func (s *SubscriptionGroups) Clear() { s.table.Clear() }

// Range calls f in the file's order until f returns false.
func (s *SubscriptionGroups) Range(f func(group string, g SubscriptionGroupConfig) bool) {
	s.table.Range(f)
}

// Encode is SubscriptionGroupManager.encode(true).
func (s *SubscriptionGroups) Encode() []byte {
	return encodePretty(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("dataVersion")
		s.DataVersion.write(w)
		w.Key("subscriptionGroupTable")
		w.BeginObject()
		s.table.Range(func(k string, g SubscriptionGroupConfig) bool {
			w.Key(k)
			g.write(w)
			return true
		})
		w.EndObject()
		w.EndObject()
	})
}

// DecodeSubscriptionGroups reads subscriptionGroup.json as
// SubscriptionGroupManager.decode does: fastjson reads the table into a
// default-capacity map, in file order, and putAll's it into the final
// (getter-only) table of the SubscriptionGroupManager it creates
// (capacity 1024), which is then putAll into the live manager's.
//
// The file's dataVersion is returned as read, but note that 4.9.8 never
// restores it: dataVersion is a final field without a setter, so Java's
// decode copies the new manager's fresh DataVersion (now, counter 0). Java
// also adds its built-in groups (init()) in front of the file's; the broker
// owns those. A missing subscriptionGroupTable is an empty table; a null
// one fastjson cannot set (ErrCorrupt).
func DecodeSubscriptionGroups(data []byte) (*SubscriptionGroups, error) {
	s := NewSubscriptionGroups(nowMillis())
	root, ok, err := parseRoot(data, subscriptionGroupFile)
	if !ok {
		return s, err
	}
	var d fastjson.Decoder
	created := newCHM[string, SubscriptionGroupConfig](stringHash, capGroups)
	for k, v := range root.Members() {
		switch matchField(k, groupWrapperFields) {
		case "dataVersion":
			s.DataVersion = decodeDataVersion(&d, v, s.DataVersion)
		case "subscriptionGroupTable":
			if v.IsNull() {
				d.Fail(fmt.Errorf("subscriptionGroupTable is null"))
			}
			read := newCHM[string, SubscriptionGroupConfig](stringHash, capDefaultCHM)
			decodeStringTable(&d, v, read, decodeGroupConfig)
			created.PutAll(read)
		}
	}
	s.table.PutAll(created)
	return s, finish(&d, subscriptionGroupFile)
}

var groupWrapperFields = fields("dataVersion", "subscriptionGroupTable")
