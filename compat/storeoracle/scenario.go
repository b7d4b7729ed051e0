package storeoracle

import "fmt"

// Scenario is the write scenario of the interop proofs, deterministic and the same for every
// writer: 3 topics (4, 3 and 2 queues), n puts of 20–1,419-byte bodies and three of
// 17,000–40,000 bytes (n=250 spans five 64 KiB commit-log files and gives TopicA/0 more than
// one 30-unit CQ file), tags "Aa"/"BB" (equal Java hashCodes), keys with spaces and non-ASCII,
// IPv4 and IPv6 born hosts, one IPv6 store host, and at fixed positions a batch of 5, a DELAY=3
// message, two half messages (one committed, one rolled back), a store-level PREPARED record
// (no CQ entry) and two messages whose keys "Aa"/"BB" collide in the index.
func Scenario(n int) []Op {
	type topic struct {
		name   string
		queues int32
	}
	topics := []topic{{"TopicA", 4}, {"TopicB", 3}, {"TopicC", 2}}
	tags := []string{"Aa", "BB", "tagX", ""}
	var ops []Op
	halfCommit, halfRollback := -1, -1
	for i := 0; i < n; i++ {
		switch i {
		case 50:
			ops = append(ops, scenarioBatch(i))
		case 60:
			op := scenarioPut(i, "TopicA", 1, "tagX")
			op.Op, op.Level = "delay", 3
			ops = append(ops, op)
		case 70, 90:
			op := scenarioPut(i, "TopicB", 2, "")
			op.Op = "half"
			op.Properties = append(op.Properties, [2]string{"PGROUP", "pg-scenario"})
			if i == 70 {
				halfCommit = len(ops)
			} else {
				halfRollback = len(ops)
			}
			ops = append(ops, op)
		case 80:
			ops = append(ops, Op{Op: "commit", HalfOp: &halfCommit, BornTimestamp: 1700000000080})
		case 100:
			ops = append(ops, Op{Op: "rollback", HalfOp: &halfRollback, BornTimestamp: 1700000000100})
		case 110:
			op := scenarioPut(i, "TopicC", 0, "raw")
			op.Raw, op.SysFlag = true, tranPrepared
			ops = append(ops, op)
		case 120, 121:
			op := scenarioPut(i, "TopicB", 0, "")
			op.Properties = [][2]string{{"KEYS", map[int]string{120: "Aa", 121: "BB"}[i]}}
			ops = append(ops, op)
		default:
			t := topics[i%3]
			q := int32(i/3) % t.queues
			if i%4 == 0 {
				t, q = topics[0], 0
			}
			ops = append(ops, scenarioPut(i, t.name, q, tags[i%len(tags)]))
		}
	}
	return ops
}

// largeBodies are puts of records tens of KiB long between the small
// ones (a third of a 64 KiB commit-log file and more).
var largeBodies = map[int]int{30: 17_000, 150: 40_000, 200: 24_000}

func scenarioBody(i int) []byte {
	n, ok := largeBodies[i]
	if !ok {
		n = 20 + (i*137)%1400
	}
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(i*31 + j)
	}
	return b
}

func scenarioPut(i int, topic string, queue int32, tag string) Op {
	op := Op{
		Op: "put", Topic: topic, QueueID: queue, Flag: int32(i % 4), Body: scenarioBody(i),
		BornTimestamp: 1700000000000 + int64(i), ReconsumeTimes: int32(i % 3),
		BornHost: fmt.Sprintf("10.0.%d.%d:%d", i/250, i%250, 40000+i),
	}
	if i%5 == 0 {
		op.BornHost = fmt.Sprintf("[2001:db8::%x]:%d", i, 50000+i)
	}
	if i == 13 {
		op.StoreHost = "[::1]:10911"
	}
	if tag != "" {
		op.Properties = append(op.Properties, [2]string{"TAGS", tag})
	}
	keys := fmt.Sprintf("key-%d", i)
	if i%7 == 0 {
		keys += " order 42 ключ-键"
	}
	op.Properties = append(op.Properties, [2]string{"KEYS", keys}, [2]string{"UNIQ_KEY", fmt.Sprintf("%032X", i)})
	if i%2 == 0 {
		op.Properties = append(op.Properties, [2]string{"WAIT", "true"})
	}
	op.Properties = append(op.Properties, [2]string{"CLUSTER", "DefaultCluster"})
	return op
}

func scenarioBatch(i int) Op {
	op := Op{
		Op: "batch", Topic: "TopicC", QueueID: 1, BornTimestamp: 1700000000000 + int64(i),
		BornHost:   "192.168.1.1:7000",
		Properties: [][2]string{{"WAIT", "true"}, {"CLUSTER", "DefaultCluster"}},
	}
	for j := 0; j < 5; j++ {
		op.Entries = append(op.Entries, Entry{
			Flag: int32(j), Body: scenarioBody(i + j),
			Properties: [][2]string{{"TAGS", "batch"}, {"KEYS", fmt.Sprintf("batch-%d", j)}, {"UNIQ_KEY", fmt.Sprintf("B%031X", j)}},
		})
	}
	return op
}
