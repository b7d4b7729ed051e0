package broker

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// The address server poll of BrokerController.initialize: with no
// namesrvAddr and fetchNamesrvAddrByAddressServer, the name server list is
// fetched from MixAll.getWSAddr() 10 s after start and every 2 minutes.
const (
	addrServerDelay   = 10 * time.Second
	addrServerPeriod  = 2 * time.Minute
	addrServerTimeout = 3 * time.Second // TopAddressing.fetchNSAddr's
	// addrServerMaxBody bounds what is read of an answer (a name server
	// list is a line).
	addrServerMaxBody = 64 << 10
)

// addrServer is TopAddressing plus BrokerOuterAPI.fetchNameServerAddr: the
// last list fetched, kept until an answer differs.
type addrServer struct {
	url    string
	client *http.Client
	log    *logrus.Entry

	mu   sync.Mutex
	addr string // the last list, ";"-separated; mu held
}

func newAddrServer(url string, log *logrus.Entry) *addrServer {
	return &addrServer{url: url, client: &http.Client{Timeout: addrServerTimeout}, log: log}
}

// namesrv is the name server list as the registrar wants it.
func (a *addrServer) namesrv() []string {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return splitNamesrv(a.addr)
}

// refresh fetches the list once; a changed one replaces the last.
func (a *addrServer) refresh(ctx context.Context) {
	addr, err := a.fetch(ctx)
	if err != nil {
		a.log.WithError(err).Warnf("connect to %s failed, maybe the domain name not bind in /etc/hosts", a.url)
		return
	}
	a.mu.Lock()
	old := a.addr
	a.addr = addr
	a.mu.Unlock()
	if addr != old {
		a.log.Infof("name server address changed, old: %s new: %s", old, addr)
	}
}

// fetch is TopAddressing.fetchNSAddr: a GET of the address server, whose
// 200 answer is the list (trimmed, up to the first line break).
func (a *addrServer) fetch(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url, nil)
	if err != nil {
		return "", fmt.Errorf("address server %s: %w", a.url, err)
	}
	req.Header.Set("Client-Version", wire.CurrentVersionDesc)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
	req.Header.Set("Metaq-Client-RequestTS", strconv.FormatInt(time.Now().UnixMilli(), 10))
	resp, err := a.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("fetch name server address: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, addrServerMaxBody))
	if err != nil {
		return "", fmt.Errorf("fetch name server address: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("fetch name server address failed. statusCode=%d", resp.StatusCode)
	}
	return firstLine(string(body)), nil
}

// firstLine is TopAddressing.clearNewLine: trimmed, then cut at the first
// CR, else at the first LF.
func firstLine(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' }) // String.trim
	if i := strings.IndexByte(s, '\r'); i >= 0 {
		return s[:i]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
