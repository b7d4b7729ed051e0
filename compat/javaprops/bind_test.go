package javaprops

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// role is an enum-like config type: Java's setBrokerRole(String) calls
// BrokerRole.valueOf, which rejects anything but an exact constant name.
type role string

func (r *role) UnmarshalText(b []byte) error {
	switch s := string(b); s {
	case "ASYNC_MASTER", "SYNC_MASTER", "SLAVE":
		*r = role(s)
		return nil
	default:
		return fmt.Errorf("No enum constant BrokerRole.%s", s)
	}
}

type port int32

// Shapes of 4.9.8 BrokerConfig / NettyServerConfig / MessageStoreConfig.
type brokerCfg struct {
	BrokerName       string  `prop:"brokerName,important"`
	BrokerID         int64   `prop:"brokerId,important"`
	BrokerPermission int     `prop:"brokerPermission"`
	DefaultQueueNums int     `prop:"defaultTopicQueueNums"`
	RegisterTimeout  int     `prop:"registerBrokerTimeoutMills"`
	AutoCreateTopic  bool    `prop:"autoCreateTopicEnable,important"`
	ClusterTopic     bool    `prop:"clusterTopicEnable"`
	BrokerIP1        string  `prop:"brokerIP1,important"`
	NamesrvAddr      *string `prop:"namesrvAddr,important"`
	FallBehind       int64   `prop:"consumerFallbehindThreshold"`
	ShortPolling     int64   `prop:"shortPollingTimeMills"`
	internal         int     // untagged: ignored
	Skipped          string  `prop:"-"`
}

type nettyCfg struct {
	ListenPort    port    `prop:"listenPort"`
	WorkerThreads int32   `prop:"serverWorkerThreads"`
	Ratio         float64 `prop:"someRatio"`
	Load          float32 `prop:"someLoad"`
	Boxed         *int64  `prop:"boxed"`
}

type storeCfg struct {
	BrokerRole role    `prop:"brokerRole,important"`
	BatchPush  bool    `prop:"enableBatchPush,field=isEnableBatchPush"`
	HAMaster   *string `prop:"haMasterAddress,important"`
	RoleBoxed  *role   `prop:"roleBoxed"`
}

func defaults() (*brokerCfg, *nettyCfg, *storeCfg) {
	return &brokerCfg{BrokerPermission: 6, DefaultQueueNums: 8, RegisterTimeout: 6000, AutoCreateTopic: true, ClusterTopic: true, FallBehind: 16 << 30, ShortPolling: 1000},
		&nettyCfg{ListenPort: 8888, WorkerThreads: 8},
		&storeCfg{BrokerRole: "ASYNC_MASTER"}
}

// The file and the outcome per field were verified with Java 17 running
// 4.9.8 MixAll.properties2Object on BrokerConfig and NettyServerConfig.
func TestBindLikeProperties2Object(t *testing.T) {
	const file = "listenPort = 10915 \n" + // trailing blank: parseInt fails, 8888 kept
		"brokerId=+3\n" +
		"autoCreateTopicEnable=TRUE\n" +
		"brokerName =  b  \n" + // leading blanks dropped by load, trailing kept
		"brokerPermission=x\n" + // invalid: default 6 kept
		"defaultTopicQueueNums=\\u0661\\u0662\n" + // Arabic-Indic digits: 12
		"registerBrokerTimeoutMills=1_000\n" + // invalid: 6000 kept
		"clusterTopicEnable=yes\n" + // anything but "true" is false
		"noSuchKey=1\n" +
		"brokerIP1=\n" +
		"namesrvAddr\n" + // key alone: empty string
		"consumerFallbehindThreshold=17179869185\n" +
		"shortPollingTimeMills=2147483648\n" + // long: fine
		"serverWorkerThreads=2147483648\n" + // int overflow: 8 kept
		"brokerRole=SLAVE\n" +
		"enableBatchPush=true\n" +
		"isEnableBatchPush=false\n" + // field name, not the setter's key: unknown
		"someRatio= 2.5 \n" + // Double.parseDouble trims
		"someLoad=1.5f\n" +
		"boxed=7\n" +
		"roleBoxed=bogus\n"
	p, err := ParseString(file)
	if err != nil {
		t.Fatal(err)
	}
	b, n, s := defaults()
	unknown, err := Bind(p, b, n, s)
	if got := strings.Join(unknown, ","); got != "noSuchKey,isEnableBatchPush" {
		t.Errorf("unknown = %s", got)
	}
	var bad []string
	for _, e := range unwrapJoined(err) {
		var ve *ValueError
		if !errors.As(e, &ve) || !errors.Is(e, ve.Err) {
			t.Fatalf("not a ValueError: %v", e)
		}
		bad = append(bad, ve.Key+":"+ve.JavaType)
	}
	if got := strings.Join(bad, ","); got != "listenPort:int,brokerPermission:int,registerBrokerTimeoutMills:int,serverWorkerThreads:int,roleBoxed:javaprops.role" {
		t.Errorf("rejected = %s", got)
	}
	ns := "x"
	wantB := &brokerCfg{BrokerName: "b  ", BrokerID: 3, BrokerPermission: 6, DefaultQueueNums: 12, RegisterTimeout: 6000,
		AutoCreateTopic: true, ClusterTopic: false, BrokerIP1: "", FallBehind: 17179869185, ShortPolling: 2147483648}
	wantB.NamesrvAddr = &ns
	if b.NamesrvAddr == nil || *b.NamesrvAddr != "" {
		t.Errorf("namesrvAddr = %v", b.NamesrvAddr)
	}
	b.NamesrvAddr = wantB.NamesrvAddr
	if *b != *wantB {
		t.Errorf("broker:\n got %+v\nwant %+v", *b, *wantB)
	}
	if n.ListenPort != 8888 || n.WorkerThreads != 8 || n.Ratio != 2.5 || n.Load != 1.5 || n.Boxed == nil || *n.Boxed != 7 {
		t.Errorf("netty: %+v", *n)
	}
	if s.BrokerRole != "SLAVE" || !s.BatchPush || s.RoleBoxed != nil {
		t.Errorf("store: %+v", *s)
	}
}

func unwrapJoined(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestBindEnumKeepsDefault(t *testing.T) {
	// Java: setBrokerRole("slave") → valueOf throws → ASYNC_MASTER kept.
	p, _ := ParseString("brokerRole=slave")
	_, _, s := defaults()
	_, err := Bind(p, s)
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "brokerRole" || ve.Value != "slave" {
		t.Fatalf("err = %v", err)
	}
	if s.BrokerRole != "ASYNC_MASTER" {
		t.Errorf("brokerRole = %s", s.BrokerRole)
	}
	if !strings.Contains(err.Error(), `brokerRole="slave"`) {
		t.Errorf("message: %v", err)
	}
}

func TestBindAppliesToEveryTarget(t *testing.T) {
	type a struct {
		Port int `prop:"listenPort"`
	}
	type b struct {
		Port int64 `prop:"listenPort"`
	}
	p, _ := ParseString("listenPort=10911")
	x, y := &a{}, &b{}
	unknown, err := Bind(p, x, y)
	if err != nil || unknown != nil || x.Port != 10911 || y.Port != 10911 {
		t.Errorf("%v %v %+v %+v", unknown, err, x, y)
	}
}

func TestBindBadTargets(t *testing.T) {
	p := New()
	p.Set("k", "v")
	type dup struct {
		A string `prop:"k"`
		B string `prop:"k"`
	}
	type unsupported struct {
		A []string `prop:"k"`
	}
	type unexported struct {
		a string `prop:"k"`
	}
	type badOpt struct {
		A string `prop:"k,weird"`
	}
	type emptyName struct {
		A string `prop:",important"`
	}
	var nilPtr *brokerCfg
	for i, target := range []any{brokerCfg{}, nilPtr, 3, &dup{}, &unsupported{}, &unexported{a: ""}, &badOpt{}, &emptyName{}} {
		before := fmt.Sprintf("%+v", target)
		if _, err := Bind(p, &brokerCfg{}, target); !errors.Is(err, ErrBadTarget) {
			t.Errorf("%d (%T): err = %v", i, target, err)
		}
		if after := fmt.Sprintf("%+v", target); after != before {
			t.Errorf("%d: target changed", i)
		}
	}
}

func TestBindEmbedded(t *testing.T) {
	type Common struct {
		Home string `prop:"rocketmqHome"`
	}
	type cfg struct {
		Common
		Port int `prop:"listenPort"`
	}
	p, _ := ParseString("rocketmqHome=/opt/rmq\nlistenPort=1")
	c := &cfg{}
	if _, err := Bind(p, c); err != nil || c.Home != "/opt/rmq" || c.Port != 1 {
		t.Errorf("%v %+v", err, c)
	}
	lines, err := Lines(c, false)
	if err != nil || strings.Join(lines, "|") != "rocketmqHome=/opt/rmq|listenPort=1" {
		t.Errorf("%v %q", err, lines)
	}
}

// Java 4.9.8 printObjectProperties: one "name=value" per field in
// declaration order, null printed as "" (verified on NamesrvConfig:
// "rocketmqHome=" first, then kvConfigPath=...).
func TestPrint(t *testing.T) {
	b, _, s := defaults()
	b.BrokerName = "broker-a"
	var all, important strings.Builder
	if err := Print(&all, b, false); err != nil {
		t.Fatal(err)
	}
	want := "brokerName=broker-a\nbrokerId=0\nbrokerPermission=6\ndefaultTopicQueueNums=8\nregisterBrokerTimeoutMills=6000\n" +
		"autoCreateTopicEnable=true\nclusterTopicEnable=true\nbrokerIP1=\nnamesrvAddr=\n" +
		"consumerFallbehindThreshold=17179869184\nshortPollingTimeMills=1000\n"
	if all.String() != want {
		t.Errorf("all:\n%s\nwant:\n%s", all.String(), want)
	}
	if err := Print(&important, *b, true); err != nil {
		t.Fatal(err)
	}
	want = "brokerName=broker-a\nbrokerId=0\nautoCreateTopicEnable=true\nbrokerIP1=\nnamesrvAddr=\n"
	if important.String() != want {
		t.Errorf("important:\n%s", important.String())
	}
	lines, _ := Lines(s, false)
	if got := strings.Join(lines, "|"); got != "brokerRole=ASYNC_MASTER|isEnableBatchPush=false|haMasterAddress=|roleBoxed=" {
		t.Errorf("store lines: %s", got)
	}
	if err := Print(&all, 5, false); !errors.Is(err, ErrBadTarget) {
		t.Errorf("Print(5): %v", err)
	}
	if err := Print(failWriter{}, b, false); err == nil {
		t.Error("write error lost")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

// Java 4.9.8 object2Properties: field names, toString values, nulls left
// out (verified on NettyServerConfig).
func TestToProperties(t *testing.T) {
	_, n, s := defaults()
	n.Ratio = 0.5
	n.Load = 1e10
	p, err := ToProperties(n)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Format(); got != "listenPort=8888\nserverWorkerThreads=8\nsomeRatio=0.5\nsomeLoad=1.0E10\n" {
		t.Errorf("netty: %q", got)
	}
	ha := "10.0.0.1:10912"
	s.HAMaster = &ha
	p, _ = ToProperties(s)
	if got := p.Format(); got != "brokerRole=ASYNC_MASTER\nisEnableBatchPush=false\nhaMasterAddress=10.0.0.1:10912\n" {
		t.Errorf("store: %q", got)
	}
	if _, err := ToProperties(nil); !errors.Is(err, ErrBadTarget) {
		t.Errorf("nil: %v", err)
	}
}

// ToProperties then Bind restores the values (the persist/reload cycle of
// Configuration for ASCII values).
func TestToPropertiesBindRoundTrip(t *testing.T) {
	b, n, _ := defaults()
	b.BrokerName, b.BrokerID, b.AutoCreateTopic = "broker-b", -1, false
	n.Ratio, n.Load = 1e-5, 0.25
	p, err := ToProperties(b)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := ToProperties(n)
	p.Merge(q)
	back, err := ParseString(p.Format())
	if err != nil {
		t.Fatal(err)
	}
	b2, n2, _ := defaults()
	unknown, err := Bind(back, b2, n2)
	if err != nil || len(unknown) != 0 {
		t.Fatalf("%v %v", unknown, err)
	}
	if *b2 != *b || *n2 != *n {
		t.Errorf("round trip:\n%+v\n%+v", *b2, *n2)
	}
}
