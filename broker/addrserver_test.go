package broker

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// TopAddressing.clearNewLine.
func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"a:1;b:2":             "a:1;b:2",
		"  a:1;b:2 \n":        "a:1;b:2",
		"a:1\r\nb:2":          "a:1",
		"a:1\nb:2\rc":         "a:1\nb:2",
		"":                    "",
		"\t\n a:1 \t\x00":     "a:1",
		"a:1 b:2\n":           "a:1 b:2",
		"\r\n\r\n":            "",
		"a:1;\u00a0b:2\r\n\n": "a:1;\u00a0b:2",
	} {
		require.Equal(t, want, firstLine(in), "%q", in)
	}
}

// Java 4.9.8 BrokerController with fetchNamesrvAddrByAddressServer and no
// namesrvAddr: the name server list is the address server's answer at
// http://rmqAddressServerDomain/rocketmq/rmqAddressServerSubGroup, and the
// broker registers with the name servers it names; a failed fetch keeps
// the last list.
func TestAddressServerNamesrv(t *testing.T) {
	ns := namesrvtest.StartTestNamesrv(t)
	answer := make(chan string, 4)
	var headers http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/rocketmq/nsgroup" {
			http.NotFound(w, r)
			return
		}
		headers = r.Header.Clone()
		a := <-answer
		if a == "" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, a)
	}))
	defer srv.Close()
	domain := strings.TrimPrefix(srv.URL, "http://")
	b, _ := startBroker(t, "fetchNamesrvAddrByAddressServer=true", "rmqAddressServerDomain="+domain, "rmqAddressServerSubGroup=nsgroup")
	require.NotNil(t, b.addrServer)
	require.Equal(t, srv.URL+"/rocketmq/nsgroup", b.addrServer.url)
	require.Empty(t, b.reg.namesrv(), "no list before the first fetch")

	answer <- " " + ns.Addr().String() + ";127.0.0.1:1\r\nignored\n"
	b.addrServer.refresh(context.Background())
	require.Equal(t, []string{ns.Addr().String(), "127.0.0.1:1"}, b.reg.namesrv())
	require.Equal(t, "V4_9_8", headers.Get("Client-Version"))
	require.NotEmpty(t, headers.Get("Metaq-Client-RequestTS"))

	answer <- "" // the address server fails: the list stays
	b.addrServer.refresh(context.Background())
	require.Equal(t, []string{ns.Addr().String(), "127.0.0.1:1"}, b.reg.namesrv())

	b.registerAll()
	c := namesrvtest.Dial(t, ns.Addr().String())
	defer c.Close()
	info := c.Call(wire.NewRequest(int32(protocol.ReqGetBrokerClusterInfo)))
	require.EqualValues(t, protocol.RespSuccess, info.Code)
	require.Contains(t, string(info.Body), `"broker-t"`, "the broker registered with the listed name server")
}

// namesrvAddr wins: no address server is polled.
func TestAddressServerUnusedWithNamesrvAddr(t *testing.T) {
	b, _ := startBroker(t, "fetchNamesrvAddrByAddressServer=true", "namesrvAddr=127.0.0.1:1")
	require.Nil(t, b.addrServer)
	require.Equal(t, []string{"127.0.0.1:1"}, b.reg.namesrv())
}

// forceRegister=false: the periodic registration first asks each name
// server (QUERY_DATA_VERSION) whether it has the topic table's version
// (BrokerController.needRegister).
func TestNeedRegister(t *testing.T) {
	ns := namesrvtest.StartTestNamesrv(t)
	b, _ := startBroker(t, "namesrvAddr="+ns.Addr().String(), "forceRegister=false")
	ctx := context.Background()
	require.False(t, b.reg.force())
	require.False(t, b.reg.needRegister(ctx), "Start registered: the name server has this version")
	b.topics.NextDataVersion()
	require.True(t, b.reg.needRegister(ctx), "the topic table moved on")
	b.registerAll()
	require.False(t, b.reg.needRegister(ctx))

	fresh := namesrvtest.StartTestNamesrv(t)
	b2, _ := startBroker(t, "namesrvAddr="+fresh.Addr().String()+";127.0.0.1:1", "forceRegister=false")
	require.True(t, b2.reg.needRegister(ctx), "an unreachable name server needs a registration")
}
