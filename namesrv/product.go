package namesrv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// productRoutes is clusterTest mode's fallback: ClusterTestRequestProcessor
// starts a DefaultMQAdminExt (unit name = productEnvName) and asks the
// product environment's name servers for routes this one does not know.
// Java's admin client finds those name servers through NAMESRV_ADDR or
// the HTTP address server; Sputnik takes the list from NAMESRV_ADDR only.
type productRoutes struct {
	addrs  []string
	env    string
	log    *logrus.Entry
	client *remoting.Client
	next   atomic.Uint32
}

// productRouteTimeout is the admin client's RPC timeout (3 s).
const productRouteTimeout = 3 * time.Second

var errNoProductNamesrv = errors.New("namesrv: no product name server address (NAMESRV_ADDR)")

func newProductRoutes(addrList, env string, log *logrus.Entry) *productRoutes {
	p := &productRoutes{env: env, log: log}
	for _, a := range strings.Split(addrList, ";") {
		if a = strings.TrimSpace(a); a != "" {
			p.addrs = append(p.addrs, a)
		}
	}
	p.client = remoting.NewClient(remoting.ClientConfig{Log: log})
	return p
}

// fetchRoute asks the product name servers in turn until one answers.
func (p *productRoutes) fetchRoute(ctx context.Context, topic string) (*routeinfo.TopicRouteData, error) {
	if len(p.addrs) == 0 {
		return nil, errNoProductNamesrv
	}
	start := int(p.next.Add(1))
	var errs []error
	for i := range p.addrs {
		addr := p.addrs[(start+i)%len(p.addrs)]
		rd, err := p.fetchFrom(ctx, addr, topic)
		if err == nil {
			return rd, nil
		}
		errs = append(errs, err)
	}
	err := errors.Join(errs...)
	p.log.WithError(err).Infof("get route info by topic from product environment failed. envName=%s,", p.env)
	return nil, err
}

func (p *productRoutes) fetchFrom(ctx context.Context, addr, topic string) (*routeinfo.TopicRouteData, error) {
	ctx, cancel := context.WithTimeout(ctx, productRouteTimeout)
	defer cancel()
	req := wire.NewRequest(int32(protocol.ReqGetRouteinfoByTopic))
	(&protocol.GetRouteInfoRequestHeader{Topic: protocol.Some(topic)}).EncodeTo(req)
	resp, err := p.client.InvokeSync(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	if resp.Code != int32(protocol.RespSuccess) {
		return nil, fmt.Errorf("namesrv: %s answered %d: %s", addr, resp.Code, resp.Remark)
	}
	return routeinfo.DecodeTopicRouteData(resp.Body)
}

func (p *productRoutes) close() { _ = p.client.Close() }
