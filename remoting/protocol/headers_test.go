package protocol

import (
	"reflect"
	"testing"

	"github.com/sputnikmq/sputnik/remoting/protocol/internal/spec"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// command returns a request whose extFields are kv (key, value, ...).
func command(kv ...string) *wire.Command {
	c := wire.NewRequest(0)
	for i := 0; i+1 < len(kv); i += 2 {
		c.AddExt(kv[i], kv[i+1])
	}
	return c
}

func exts(c *wire.Command) []string {
	var out []string
	for _, f := range c.Ext {
		out = append(out, f.Key, f.Value)
	}
	return out
}

// sendV2 is the header of a Java 4.9.8 producer's SEND_MESSAGE_V2, in the
// order Java's FastCodesHeader.encode writes it.
var sendV2 = []string{
	"a", "PG", "b", "TopicTest", "c", "TBW102", "d", "4", "e", "3", "f", "0",
	"g", "1690000000000", "h", "0", "i", "UNIQ_KEY\x01AC11\x02WAIT\x01true", "j", "0",
	"k", "false", "m", "false", "n", "broker-a",
}

func TestSendMessageRequestHeaderV2(t *testing.T) {
	var h SendMessageRequestHeaderV2
	if err := h.DecodeFrom(command(sendV2...)); err != nil {
		t.Fatal(err)
	}
	want := SendMessageRequestHeaderV2{
		ProducerGroup: Some("PG"), Topic: "TopicTest", DefaultTopic: Some("TBW102"), DefaultTopicQueueNums: Some[int32](4),
		QueueId: 3, BornTimestamp: 1690000000000, Properties: "UNIQ_KEY\x01AC11\x02WAIT\x01true",
		ReconsumeTimes: Some[int32](0), BrokerName: "broker-a",
	}
	if h != want {
		t.Fatalf("decoded %+v\nwant    %+v", h, want)
	}
	c := wire.NewRequest(int32(ReqSendMessageV2))
	h.EncodeTo(c)
	if got := exts(c); !reflect.DeepEqual(got, sendV2) {
		t.Errorf("encoded %q\nwant    %q", got, sendV2)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		header Header
		ext    []string
		remark string // "" = no error
	}{
		{"required string missing", &GetMaxOffsetRequestHeader{}, []string{"queueId", "0"},
			"the custom field <topic> is null"},
		{"blank topic absent", &SendMessageRequestHeader{}, []string{"producerGroup", "PG", "queueId", "0", "sysFlag", "0",
			"bornTimestamp", "1", "flag", "0"}, ""},
		{"first failure wins", &GetMaxOffsetRequestHeader{}, []string{"queueId", "x"},
			"the custom field <topic> is null"},
		{"required int malformed", &GetMaxOffsetRequestHeader{}, []string{"topic", "T", "queueId", "x"},
			`the custom field <queueId> is invalid: For input string: "x"`},
		{"required int overflows", &GetMaxOffsetRequestHeader{}, []string{"topic", "T", "queueId", "2147483648"},
			`the custom field <queueId> is invalid: For input string: "2147483648"`},
		{"required long empty", &ViewMessageRequestHeader{}, []string{"offset", ""},
			`the custom field <offset> is invalid: For input string: ""`},
		{"required long with space", &ViewMessageRequestHeader{}, []string{"offset", " 1"},
			`the custom field <offset> is invalid: For input string: " 1"`},
		{"required primitive missing", &ResetOffsetRequestHeader{}, []string{"topic", "T", "group", "G", "isForce", "true"},
			"the custom field <timestamp> is null"},
		{"required Boolean never malformed", &QueryDataVersionResponseHeader{}, []string{"changed", "yes"}, ""},
		{"required empty string is present", &GetTopicStatsInfoRequestHeader{}, []string{"topic", ""}, ""},
		// Java's reflective decoder logs a malformed optional number and leaves it null.
		{"optional Integer malformed", &ConsumerSendMsgBackRequestHeader{},
			[]string{"offset", "1", "group", "G", "delayLevel", "0", "maxReconsumeTimes", "many"}, ""},
		{"optional primitive malformed", &QueryConsumeQueueRequestHeader{}, []string{"queueId", "q", "count", "1e3"}, ""},
		// FastCodesHeader.decode lets Integer.parseInt throw for any field.
		{"fast header optional malformed", &SendMessageRequestHeaderV2{}, append(append([]string(nil), sendV2...), "j", "x"),
			`the custom field <j> is invalid: For input string: "x"`},
		{"fast header missing required", &PullMessageRequestHeader{}, []string{"consumerGroup", "G"},
			"the custom field <topic> is null"},
		{"lenient field absent", &UpdateGlobalWhiteAddrsConfigRequestHeader{}, []string{"globalWhiteAddrs", "10.*"}, ""},
		{"lenient sibling still required", &UpdateGlobalWhiteAddrsConfigRequestHeader{}, []string{"aclFileFullPath", "/p"},
			"the custom field <globalWhiteAddrs> is null"},
		{"empty header", &GetAllTopicConfigResponseHeader{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.header.DecodeFrom(command(tt.ext...))
			if tt.remark == "" {
				if err != nil {
					t.Fatalf("DecodeFrom: %v", err)
				}
				return
			}
			pe, ok := AsError(err)
			if !ok {
				t.Fatalf("DecodeFrom error %v, want a *protocol.Error", err)
			}
			if pe.Code != RespSystemError || pe.Remark != tt.remark || !pe.Thrown {
				t.Errorf("DecodeFrom error %v %q thrown %v, want SYSTEM_ERROR %q thrown", pe.Code, pe.Remark, pe.Thrown, tt.remark)
			}
		})
	}
}

func TestDecodeValues(t *testing.T) {
	t.Run("optional absent and present", func(t *testing.T) {
		var h SendMessageRequestHeader
		ext := []string{"producerGroup", "P", "topic", "T", "defaultTopic", "TBW102", "defaultTopicQueueNums", "4",
			"queueId", "1", "sysFlag", "0", "bornTimestamp", "-1", "flag", "0", "maxReconsumeTimes", "+16"}
		if err := h.DecodeFrom(command(ext...)); err != nil {
			t.Fatal(err)
		}
		if h.ReconsumeTimes.Valid || h.MaxReconsumeTimes != Some[int32](16) || h.BornTimestamp != -1 || h.Properties != "" {
			t.Errorf("decoded %+v", h)
		}
		if h.ReconsumeTimes.Or(-1) != -1 || h.MaxReconsumeTimes.Or(-1) != 16 {
			t.Errorf("Or: %d %d", h.ReconsumeTimes.Or(-1), h.MaxReconsumeTimes.Or(-1))
		}
	})
	t.Run("malformed optional is null", func(t *testing.T) {
		var h ConsumerSendMsgBackRequestHeader
		err := h.DecodeFrom(command("offset", "1", "group", "G", "delayLevel", "\u0663", "maxReconsumeTimes", "many"))
		if err != nil || h.MaxReconsumeTimes.Valid || h.DelayLevel != 3 {
			t.Errorf("decoded %+v, %v", h, err)
		}
	})
	t.Run("booleans as Boolean.parseBoolean", func(t *testing.T) {
		var h GetRouteInfoRequestHeader
		for in, want := range map[string]bool{"TRUE": true, "True": true, "yes": false, "1": false} {
			if err := h.DecodeFrom(command("topic", "T", "acceptStandardJsonOnly", in)); err != nil {
				t.Fatal(err)
			}
			if h.AcceptStandardJsonOnly != Some(want) {
				t.Errorf("%q: %+v", in, h.AcceptStandardJsonOnly)
			}
		}
		if err := h.DecodeFrom(command("topic", "T")); err != nil || h.AcceptStandardJsonOnly.Valid {
			t.Errorf("absent: %+v %v", h, err)
		}
	})
	t.Run("initialized boxed fields", func(t *testing.T) {
		var h RegisterBrokerRequestHeader
		err := h.DecodeFrom(command("brokerName", "b", "brokerAddr", "a:1", "clusterName", "c", "haServerAddr", "a:2", "brokerId", "0"))
		if err != nil || h.BodyCrc32 != 0 || h.Compressed {
			t.Errorf("decoded %+v, %v", h, err)
		}
	})
	t.Run("last duplicate wins", func(t *testing.T) {
		var h GetTopicStatsInfoRequestHeader
		if err := h.DecodeFrom(command("topic", "a", "topic", "b")); err != nil || h.Topic != "b" {
			t.Errorf("decoded %+v, %v", h, err)
		}
	})
	t.Run("reused header is overwritten", func(t *testing.T) {
		h := UnregisterClientRequestHeader{ClientID: "x", ProducerGroup: "old"}
		if err := h.DecodeFrom(command("clientID", "c")); err != nil || h != (UnregisterClientRequestHeader{ClientID: "c"}) {
			t.Errorf("decoded %+v, %v", h, err)
		}
	})
}

func TestEncode(t *testing.T) {
	tests := []struct {
		name   string
		header Header
		want   []string
	}{
		{"required fields always, optional only when set", &SendMessageRequestHeader{Topic: "T", QueueId: -1, BornTimestamp: 1 << 40},
			[]string{"topic", "T", "queueId", "-1",
				"sysFlag", "0", "bornTimestamp", "1099511627776", "flag", "0", "unitMode", "false", "batch", "false"}},
		{"lenient fields when set", &SendMessageRequestHeader{ProducerGroup: Some("P"), Topic: "T", DefaultTopic: Some("D"), DefaultTopicQueueNums: Some[int32](4)},
			[]string{"producerGroup", "P", "topic", "T", "defaultTopic", "D", "defaultTopicQueueNums", "4", "queueId", "0",
				"sysFlag", "0", "bornTimestamp", "0", "flag", "0", "unitMode", "false", "batch", "false"}},
		{"Opt present", &GetRouteInfoRequestHeader{Topic: Some("T"), AcceptStandardJsonOnly: Some(true)},
			[]string{"topic", "T", "acceptStandardJsonOnly", "true"}},
		{"initialized Boolean always sent", &EndTransactionRequestHeader{ProducerGroup: "P", CommitOrRollback: 8, MsgId: "M"},
			[]string{"producerGroup", "P", "tranStateTableOffset", "0", "commitLogOffset", "0", "commitOrRollback", "8",
				"fromTransactionCheck", "false", "msgId", "M"}},
		{"initialized Integer always sent", &RegisterBrokerRequestHeader{BrokerName: "b", BrokerAddr: "a", ClusterName: "c", HaServerAddr: "h", BrokerId: 1},
			[]string{"brokerName", "b", "brokerAddr", "a", "clusterName", "c", "haServerAddr", "h", "brokerId", "1",
				"compressed", "false", "bodyCrc32", "0"}},
		{"lenient string omitted when empty", &UpdateGlobalWhiteAddrsConfigRequestHeader{GlobalWhiteAddrs: "10.*"},
			[]string{"globalWhiteAddrs", "10.*"}},
		{"extremes", &PullMessageResponseHeader{SuggestWhichBrokerId: -9223372036854775808, MaxOffset: 9223372036854775807},
			[]string{"suggestWhichBrokerId", "-9223372036854775808", "nextBeginOffset", "0", "minOffset", "0", "maxOffset", "9223372036854775807"}},
		{"empty header", &UnregisterClientResponseHeader{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := wire.NewRequest(0)
			tt.header.EncodeTo(c)
			if got := exts(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("encoded %q\nwant    %q", got, tt.want)
			}
		})
	}
}

// TestAllHeadersRoundTrip fills every field of every header, encodes,
// checks the keys come out in spec (Java declaration) order, and decodes
// the result back to an equal header.
func TestAllHeadersRoundTrip(t *testing.T) {
	s := loadSpec(t)
	for _, sh := range s.Headers {
		h := NewHeader(sh.Class)
		if h == nil {
			t.Fatalf("NewHeader(%q) = nil", sh.Class)
		}
		if got := reflect.TypeOf(h).Elem().Name(); got != sh.Class {
			t.Fatalf("NewHeader(%q) is a %s", sh.Class, got)
		}
		fill(reflect.ValueOf(h).Elem())
		c := wire.NewRequest(0)
		h.EncodeTo(c)
		if len(c.Ext) != len(sh.Fields) {
			t.Errorf("%s: encoded %d fields, spec has %d", sh.Class, len(c.Ext), len(sh.Fields))
		}
		for i, f := range c.Ext {
			if i < len(sh.Fields) && f.Key != sh.Fields[i].Java {
				t.Errorf("%s: field #%d encoded as %q, want %q", sh.Class, i+1, f.Key, sh.Fields[i].Java)
			}
		}
		back := NewHeader(sh.Class)
		if err := back.DecodeFrom(c); err != nil {
			t.Errorf("%s: %v", sh.Class, err)
		}
		if !reflect.DeepEqual(back, h) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", sh.Class, back, h)
		}
		// With no fields at all only the required ones fail.
		err := NewHeader(sh.Class).DecodeFrom(wire.NewRequest(0))
		if required := firstRequired(sh); (required == "") != (err == nil) {
			t.Errorf("%s: decoding nothing: %v (first required field %q)", sh.Class, err, required)
		} else if err != nil && err.(*Error).Remark != "the custom field <"+required+"> is null" {
			t.Errorf("%s: decoding nothing: %v", sh.Class, err)
		}
	}
}

func firstRequired(h *spec.Header) string {
	for _, f := range h.Fields {
		if f.Required() {
			return f.Java
		}
	}
	return ""
}

// fill sets every field of a header struct to a distinctive non-zero value.
func fill(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("v-" + v.Type().Field(i).Name + "-\u4e2d")
		case reflect.Int32:
			f.SetInt(-7 - int64(i))
		case reflect.Int64:
			f.SetInt(1<<40 + int64(i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Float64:
			f.SetFloat(0.5)
		case reflect.Struct: // Opt[T]
			fill(f)
		}
	}
}

func TestHeaderFactories(t *testing.T) {
	for _, r := range Requests {
		for _, c := range []struct {
			what string
			h    Header
			want string
		}{{"NewRequestHeader", NewRequestHeader(r.Code), r.RequestHeader}, {"NewResponseHeader", NewResponseHeader(r.Code), r.ResponseHeader}} {
			got := ""
			if c.h != nil {
				got = reflect.TypeOf(c.h).Elem().Name()
			}
			if got != c.want {
				t.Errorf("%s(%s) = %s, want %s", c.what, r.Name, got, c.want)
			}
		}
	}
	if NewRequestHeader(9999) != nil || NewResponseHeader(9999) != nil || NewHeader("Nope") != nil {
		t.Error("unknown codes or classes must give nil")
	}
}

func TestCodeNames(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{ReqSendMessageV2.String(), "SEND_MESSAGE_V2"},
		{ReqGetRouteinfoByTopic.String(), "GET_ROUTEINFO_BY_TOPIC"},
		{ReqUpdateAndCreateAclConfig.String(), "UPDATE_AND_CREATE_ACL_CONFIG"},
		{ReqGetKvlistByNamespace.String(), "GET_KVLIST_BY_NAMESPACE"},
		{RequestCode(9999).String(), "RequestCode(9999)"},
		{RespSuccess.String(), "SUCCESS"},
		{RespSystemBusy.String(), "SYSTEM_BUSY"},
		{RespTopicNotExist.String(), "TOPIC_NOT_EXIST"},
		{RespTransactionStateUnknow.String(), "TRANSACTION_STATE_UNKNOW"},
		{ResponseCode(-1).String(), "ResponseCode(-1)"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
	// The five names other packages relied on before the generator.
	for code, v := range map[ResponseCode]int32{RespSuccess: 0, RespSystemError: 1, RespSystemBusy: 2,
		RespRequestCodeNotSupported: 3, RespTransactionFailed: 4} {
		if int32(code) != v {
			t.Errorf("%v = %d, want %d", code, code, v)
		}
	}
	if info, ok := LookupRequest(ReqPullMessage); !ok || info.ServedBy != "broker" ||
		info.RequestHeader != "PullMessageRequestHeader" || info.ResponseHeader != "PullMessageResponseHeader" {
		t.Errorf("LookupRequest(PULL_MESSAGE) = %+v, %v", info, ok)
	}
	if _, ok := LookupRequest(16); ok {
		t.Error("LookupRequest(16) found a code that does not exist")
	}
	if info, ok := LookupResponse(RespFlowControl); !ok || info.Name != "FLOW_CONTROL" || info.Class != "ResponseCode" {
		t.Errorf("LookupResponse(FLOW_CONTROL) = %+v, %v", info, ok)
	}
}
