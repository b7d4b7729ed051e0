package compat_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// teeListener records every byte its connections read.
type teeListener struct {
	net.Listener
	mu   sync.Mutex
	bufs []*bytes.Buffer
}

func (l *teeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	b := &bytes.Buffer{}
	l.mu.Lock()
	l.bufs = append(l.bufs, b)
	l.mu.Unlock()
	return &teeConn{Conn: c, l: l, b: b}, nil
}

type teeConn struct {
	net.Conn
	l *teeListener
	b *bytes.Buffer
}

func (c *teeConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.l.mu.Lock()
	c.b.Write(p[:n])
	c.l.mu.Unlock()
	return n, err
}

// frames splits every connection's bytes into whole frames.
func (l *teeListener) frames() [][]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out [][]byte
	for _, b := range l.bufs {
		data := b.Bytes()
		for len(data) >= 4 {
			n := int(binary.BigEndian.Uint32(data)) + 4
			if n > len(data) {
				break
			}
			out = append(out, append([]byte(nil), data[:n]...))
			data = data[n:]
		}
	}
	return out
}

// TestClientGoRoundTrip drives the stub with rocketmq-client-go v2 (admin
// API and a producer), checks what the stub decoded, and pins the frames
// client-go wrote as golden files (testdata/frames/clientgo, -update).
func TestClientGoRoundTrip(t *testing.T) {
	rlog.SetLogLevel("error")
	tee := &teeListener{}
	s := startStubOn(t, func(ln net.Listener) net.Listener { tee.Listener = ln; return tee })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{s.addr})))
	require.NoError(t, err)
	mqs, err := adm.FetchPublishMessageQueues(ctx, "TopicTest")
	require.NoError(t, err)
	require.Len(t, mqs, 4)
	require.Equal(t, "broker-a", mqs[0].BrokerName)
	list, err := adm.FetchAllTopicList(ctx)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"TopicTest", "TBW102"}, list.TopicList)
	require.NoError(t, adm.CreateTopic(ctx, admin.WithTopicCreate("TopicNew"), admin.WithBrokerAddrCreate(s.addr)))
	require.NoError(t, adm.Close())

	p, err := producer.NewDefaultProducer(producer.WithNameServer([]string{s.addr}), producer.WithGroupName("PG"), producer.WithRetry(0))
	require.NoError(t, err)
	require.NoError(t, p.Start())
	res, err := p.SendSync(ctx, primitive.NewMessage("TopicTest", []byte("hello")).WithTag("TagA").WithKeys([]string{"k1"}))
	require.NoError(t, err)
	require.Equal(t, primitive.SendOK, res.Status)
	require.EqualValues(t, 42, res.QueueOffset)
	require.Equal(t, "7F00000100002A9F0000000000000000", res.OffsetMsgID)
	require.NoError(t, p.Shutdown())

	checkClientGoRequests(t, s)
	checkClientGoFrames(t, tee.frames())
}

func checkClientGoRequests(t *testing.T, s *stub) {
	creates := s.seen(protocol.ReqUpdateAndCreateTopic)
	require.Len(t, creates, 1)
	var ct protocol.CreateTopicRequestHeader
	require.NoError(t, ct.DecodeFrom(creates[0]))
	require.Equal(t, "TopicNew", ct.Topic)

	sends := s.seen(protocol.ReqSendMessage)
	require.Len(t, sends, 1, "client-go sends SEND_MESSAGE with v1 headers")
	var h protocol.SendMessageRequestHeader
	require.NoError(t, h.DecodeFrom(sends[0]))
	require.Equal(t, protocol.Some("PG"), h.ProducerGroup)
	require.Equal(t, "TopicTest", h.Topic)
	require.Equal(t, protocol.Some("TBW102"), h.DefaultTopic)
	require.Equal(t, protocol.Some[int32](4), h.DefaultTopicQueueNums)
	require.Contains(t, h.Properties, "TAGS\x01TagA")
	require.Equal(t, "hello", string(sends[0].Body))
	require.Equal(t, wire.LanguageGo, sends[0].Language)
	require.EqualValues(t, 317, sends[0].Version)
	require.Equal(t, wire.SerializeJSON, sends[0].Serialize)
}

// checkClientGoFrames decodes every captured frame and keeps the first of
// each code as a golden file; the committed goldens must still decode and
// re-encode to the same command.
func checkClientGoFrames(t *testing.T, frames [][]byte) {
	dir := filepath.Join("testdata", "frames", "clientgo")
	first := map[int32][]byte{}
	for _, f := range frames {
		c := decodeFrame(t, f)
		if _, ok := first[c.Code]; !ok {
			first[c.Code] = f
		}
	}
	for _, code := range []protocol.RequestCode{protocol.ReqGetRouteinfoByTopic, protocol.ReqSendMessage,
		protocol.ReqUpdateAndCreateTopic, protocol.ReqGetAllTopicListFromNameserver} {
		_, ok := first[int32(code)]
		require.True(t, ok, "client-go did not send %s", code)
	}
	if *update {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for code, f := range first {
			writeHex(t, filepath.Join(dir, fmt.Sprintf("%03d_%s.hex", code, protocol.RequestCode(code))), f)
		}
	}
	for _, path := range hexFiles(t, dir) {
		g := decodeFrame(t, readHex(t, path))
		require.Equal(t, wire.LanguageGo, g.Language, path)
		again, err := wire.AppendFrame(nil, g)
		require.NoError(t, err)
		require.Equal(t, goView(g), goView(decodeFrame(t, again)), path)
		checkGolden(t, path[:len(path)-4]+".golden", wire.Annotate(readHex(t, path)))
	}
}
