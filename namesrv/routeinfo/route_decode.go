package routeinfo

import (
	"fmt"
	"strconv"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// DecodeTopicRouteData parses a GET_ROUTEINFO_BY_TOPIC body in either form
// (fastjson's bare Long keys or standard JSON), building its maps in body
// order as fastjson does.
func DecodeTopicRouteData(body []byte) (*TopicRouteData, error) {
	v, err := fastjson.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("routeinfo: bad route body: %w", err)
	}
	var d fastjson.Decoder
	o := d.Object(v)
	rd := &TopicRouteData{FilterServerTable: jhash.NewMap[string, []string](jhash.String, -1)}
	if c := o.Get("orderTopicConf"); !c.IsNull() {
		s := d.String(c, "")
		rd.OrderTopicConf = &s
	}
	for _, q := range d.Array(o.Get("queueDatas")).Elems() {
		rd.QueueDatas = append(rd.QueueDatas, decodeQueueData(&d, q))
	}
	for _, b := range d.Array(o.Get("brokerDatas")).Elems() {
		rd.BrokerDatas = append(rd.BrokerDatas, decodeBrokerData(&d, b))
	}
	for k, fs := range d.Object(o.Get("filterServerTable")).Members() {
		rd.FilterServerTable.Put(d.String(k, ""), decodeStrings(&d, fs))
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("routeinfo: bad route body: %w", err)
	}
	return rd, nil
}

func decodeQueueData(d *fastjson.Decoder, v fastjson.Value) QueueData {
	o := d.Object(v)
	sysFlag := o.Get("topicSysFlag")
	if sysFlag.Kind() == fastjson.Absent {
		sysFlag = o.Get("topicSynFlag") // 4.8 and older
	}
	return QueueData{
		BrokerName:     d.String(o.Get("brokerName"), ""),
		ReadQueueNums:  d.Int(o.Get("readQueueNums"), 0),
		WriteQueueNums: d.Int(o.Get("writeQueueNums"), 0),
		Perm:           d.Int(o.Get("perm"), 0),
		TopicSysFlag:   d.Int(sysFlag, 0),
	}
}

func decodeBrokerData(d *fastjson.Decoder, v fastjson.Value) BrokerData {
	o := d.Object(v)
	b := BrokerData{
		Cluster:    d.String(o.Get("cluster"), ""),
		BrokerName: d.String(o.Get("brokerName"), ""),
		Addrs:      jhash.NewMap[int64, string](jhash.Long, -1),
	}
	for k, a := range d.Object(o.Get("brokerAddrs")).Members() {
		id, err := strconv.ParseInt(k.Text(), 10, 64)
		if err != nil {
			d.Fail(fmt.Errorf("broker id %q: %w", k.Text(), err))
			continue
		}
		b.Addrs.Put(id, d.String(a, ""))
	}
	return b
}
