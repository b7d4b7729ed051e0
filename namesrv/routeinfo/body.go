package routeinfo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/remoting/protocol/registerbody"
)

// Decoders of the REGISTER_BROKER body in its three forms.
// Java 4.9.8 mirror: RegisterBrokerBody.decode (JSON, or compressed when
// the header says compressed=true), TopicConfigSerializeWrapper.decode
// (brokers older than V3_0_11), TopicConfig.decode, DataVersion.
//
// The compressed form's layout is remoting/protocol/registerbody's; its
// topic text carries no topicSysFlag and no order flag: Java leaves them
// 0/false, and so do we.

// ErrBadBody is wrapped by every body decoding error.
var ErrBadBody = errors.New("routeinfo: bad register body")

// maxInflated bounds a decompressed body (Java has no bound); 100,000
// topics take about 5 MiB.
const maxInflated = 512 << 20

// RegisterBody is a decoded RegisterBrokerBody.
type RegisterBody struct {
	Topics TopicConfigWrapper
	// FilterServers is nil when the body says null.
	FilterServers []string
}

// DecodeRegisterBody decodes a RegisterBrokerBody. now is the clock's
// reading in ms, which Java's DataVersion takes as its timestamp when the
// body leaves it out.
func DecodeRegisterBody(body []byte, compressed bool, now int64) (*RegisterBody, error) {
	if compressed {
		return decodeCompressed(body, now)
	}
	v, err := fastjson.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	var d fastjson.Decoder
	o := d.Object(v)
	rb := &RegisterBody{Topics: decodeWrapper(&d, o.Get("topicConfigSerializeWrapper"), now), FilterServers: []string{}}
	if fs := o.Get("filterServerList"); fs.Kind() != fastjson.Absent {
		rb.FilterServers = decodeStrings(&d, fs)
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	return rb, nil
}

// DecodeTopicConfigWrapper decodes the legacy body, a
// TopicConfigSerializeWrapper.
func DecodeTopicConfigWrapper(body []byte, now int64) (TopicConfigWrapper, error) {
	v, err := fastjson.Parse(body)
	if err != nil {
		return TopicConfigWrapper{}, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	var d fastjson.Decoder
	w := decodeWrapper(&d, v, now)
	if err := d.Err(); err != nil {
		return TopicConfigWrapper{}, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	return w, nil
}

// DecodeDataVersion decodes a DataVersion JSON object.
func DecodeDataVersion(body []byte, now int64) (DataVersion, error) {
	v, err := fastjson.Parse(body)
	if err != nil {
		return DataVersion{}, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	var d fastjson.Decoder
	dv := decodeDataVersion(&d, v, now)
	if err := d.Err(); err != nil {
		return DataVersion{}, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	return dv, nil
}

// decodeWrapper fills a TopicConfigSerializeWrapper; a missing wrapper or
// version gets Java's defaults (a DataVersion stamped now).
func decodeWrapper(d *fastjson.Decoder, v fastjson.Value, now int64) TopicConfigWrapper {
	o := d.Object(v)
	return TopicConfigWrapper{
		DataVersion: decodeDataVersion(d, o.Get("dataVersion"), now),
		Topics:      decodeTopicTable(d, o.Get("topicConfigTable")),
	}
}

func decodeDataVersion(d *fastjson.Decoder, v fastjson.Value, now int64) DataVersion {
	o := d.Object(v)
	return DataVersion{
		Timestamp: d.Int64(o.Get("timestamp"), now),
		Counter:   d.Int64(o.Get("counter"), 0),
	}
}

// decodeTopicTable reads the topicConfigTable map into a ConcurrentHashMap
// model: keys deduplicated (the last value wins, the first position stays),
// then put in the map's iteration order.
func decodeTopicTable(d *fastjson.Decoder, v fastjson.Value) []TopicConfig {
	var t chmBuilder
	for k, tv := range d.Object(v).Members() {
		if tv.IsNull() {
			continue // fastjson skips null values of a map
		}
		t.put(d.String(k, ""), decodeTopicConfig(d, tv))
	}
	return t.ordered()
}

func decodeTopicConfig(d *fastjson.Decoder, v fastjson.Value) TopicConfig {
	o := d.Object(v)
	return TopicConfig{
		TopicName:       d.String(o.Get("topicName"), ""),
		ReadQueueNums:   d.Int(o.Get("readQueueNums"), DefaultQueueNums),
		WriteQueueNums:  d.Int(o.Get("writeQueueNums"), DefaultQueueNums),
		Perm:            d.Int(o.Get("perm"), DefaultPerm),
		TopicFilterType: d.String(o.Get("topicFilterType"), DefaultTopicFilterType),
		TopicSysFlag:    d.Int(o.Get("topicSysFlag"), 0),
		Order:           d.Bool(o.Get("order"), false),
	}
}

// decodeStrings reads a List<String>; null gives nil.
func decodeStrings(d *fastjson.Decoder, v fastjson.Value) []string {
	if v.IsNull() {
		return nil
	}
	out := []string{}
	for _, e := range d.Array(v).Elems() {
		out = append(out, d.String(e, ""))
	}
	return out
}

// chmBuilder collects a ConcurrentHashMap<String, TopicConfig>'s puts.
type chmBuilder struct {
	keys  []string
	vals  []TopicConfig
	index map[string]int
}

func (b *chmBuilder) put(k string, tc TopicConfig) {
	if b.index == nil {
		b.index = make(map[string]int)
	}
	if i, ok := b.index[k]; ok {
		b.vals[i] = tc
		return
	}
	b.index[k] = len(b.keys)
	b.keys = append(b.keys, k)
	b.vals = append(b.vals, tc)
}

func (b *chmBuilder) ordered() []TopicConfig {
	hashes := make([]int32, len(b.keys))
	for i, k := range b.keys {
		hashes[i] = jhash.String(k)
	}
	out := make([]TopicConfig, 0, len(b.keys))
	for _, i := range jhash.CHMOrder(hashes) {
		out = append(out, b.vals[i])
	}
	return out
}

// AppendCompressed writes b as RegisterBrokerBody.encode(true) does, at
// the given zlib level (Java uses BEST_COMPRESSION): a deflated stream of
// int32-length-prefixed parts — the data version JSON, the topic count,
// each TopicConfig.encode() text ("<name> <read> <write> <perm> <filter>"),
// the filter server list JSON. decodeCompressed reads the same layout.
func (b *RegisterBody) AppendCompressed(dst []byte, level int) ([]byte, error) {
	p := registerbody.Parts{DataVersion: b.Topics.DataVersion.AppendJSON(nil)}
	for _, tc := range b.Topics.Topics {
		p.Topics = append(p.Topics, registerbody.AppendTopicText(nil, tc.TopicName, tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm, tc.TopicFilterType))
	}
	tl := TopicList{Topics: b.FilterServers}
	fs := tl.AppendJSON(nil)
	p.FilterServers = fs[len(`{"topicList":`) : len(fs)-1]
	return p.Append(dst, level)
}

// appendTopicConfigText is TopicConfig.encode(), the inverse of
// decodeTopicConfigText.

// decodeCompressed decodes RegisterBrokerBody's compressed form.
func decodeCompressed(body []byte, now int64) (*RegisterBody, error) {
	parts, err := registerbody.Decode(body, maxInflated)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	var t chmBuilder
	for _, text := range parts.Topics {
		tc, err := decodeTopicConfigText(string(text))
		if err != nil {
			return nil, fmt.Errorf("%w: compressed: %w", ErrBadBody, err)
		}
		t.put(tc.TopicName, tc)
	}
	dv, err := DecodeDataVersion(parts.DataVersion, now)
	if err != nil {
		return nil, err
	}
	rb := &RegisterBody{Topics: TopicConfigWrapper{DataVersion: dv, Topics: t.ordered()}}
	// Java logs a bad filter server list and keeps an empty one.
	rb.FilterServers = []string{}
	if v, err := fastjson.Parse(parts.FilterServers); err == nil {
		var d fastjson.Decoder
		if fs := decodeStrings(&d, v); d.Err() == nil {
			rb.FilterServers = fs
		}
	}
	return rb, nil
}

// chunkReader reads the compressed form's length-prefixed chunks with a
// sticky error.

// decodeTopicConfigText parses TopicConfig.encode's text. Java's decode
// leaves a malformed line's topic name null, which then fails the whole
// body; so does this.
func decodeTopicConfigText(s string) (TopicConfig, error) {
	parts := javaSplitSpace(s)
	if len(parts) != 5 {
		return TopicConfig{}, fmt.Errorf("topic config %q: want 5 fields", s)
	}
	tc := TopicConfig{TopicName: parts[0]}
	for i, dst := range []*int32{&tc.ReadQueueNums, &tc.WriteQueueNums, &tc.Perm} {
		v, err := javaprops.ParseJavaInt(parts[i+1], 32)
		if err != nil {
			return TopicConfig{}, fmt.Errorf("topic config %q: %w", s, err)
		}
		*dst = int32(v)
	}
	switch parts[4] {
	case "SINGLE_TAG", "MULTI_TAG":
		tc.TopicFilterType = parts[4]
	default:
		return TopicConfig{}, fmt.Errorf("topic config %q: no enum constant TopicFilterType.%s", s, parts[4])
	}
	return tc, nil
}

// javaSplitSpace is String.split(" "): trailing empty strings dropped.
func javaSplitSpace(s string) []string {
	parts := strings.Split(s, " ")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
