package scenario

// mqadmin sendMsgStatus (SendMsgStatusCommand): a producer sends one 16-byte
// warm-up message and then count messages to the topic named after the
// broker, which the broker creates at start (1 queue, brokerTopicEnable),
// and prints each SendResult with its round trip.

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

func init() {
	Register(&Scenario{
		Name: "broker/mqadmin/sendMsgStatus",
		Doc: "mqadmin sendMsgStatus -b <brokerName> sends to the broker-name topic the broker made at start: every " +
			"SendResult is SEND_OK on its one queue at consecutive offsets, as on Java",
		Tags:    tags("mqadmin"),
		Timeout: brokerScenarioLimit,
		Run:     mqadminSendMsgStatus,
	})
}

// sendMsgStatusLine is one printed send: "rt=3ms, SendResult=SendResult
// [sendStatus=SEND_OK, msgId=…, offsetMsgId=…, messageQueue=MessageQueue
// [topic=broker-a, brokerName=broker-a, queueId=0], queueOffset=5]".
var sendMsgStatusLine = regexp.MustCompile(`^rt=\d+ms, SendResult=SendResult \[sendStatus=(\w+), msgId=\w+, ` +
	`offsetMsgId=\w+, messageQueue=MessageQueue \[topic=([^,]+), brokerName=([^,]+), queueId=(\d+)\], queueOffset=(\d+)\]$`)

func mqadminSendMsgStatus(ctx context.Context, env *Env) error {
	const count = 3
	broker := env.Brokers[0].Name
	out, err := mqadminOK(ctx, env, "sendMsgStatus", "-n", env.Namesrv, "-b", broker, "-s", "64", "-c", strconv.Itoa(count))
	if err != nil {
		return err
	}
	var lines []string
	last := int64(-1)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		m := sendMsgStatusLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			return fmt.Errorf("sendMsgStatus: unexpected line %q", l)
		}
		off, _ := strconv.ParseInt(m[5], 10, 64)
		if last >= 0 && off != last+1 {
			return fmt.Errorf("sendMsgStatus: queue offset %d after %d", off, last)
		}
		last = off
		lines = append(lines, fmt.Sprintf("%s topic=%s broker=%s queue=%s", m[1], m[2], m[3], m[4]))
	}
	if len(lines) != count {
		return fmt.Errorf("sendMsgStatus printed %d sends, want %d", len(lines), count)
	}
	env.Observe("sends", strings.Join(lines, "\n"))
	return observeQueueData(ctx, env, "broker-name topic route", broker)
}
