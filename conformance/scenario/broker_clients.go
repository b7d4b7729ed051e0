package scenario

// Java clients of other versions than 4.9.8. Operators swap the broker
// and keep their clients, which may be years older than 4.9.8 or the
// remoting client of 5.x. Each version's jars come from Maven Central
// (conformance/java/client-classpath.sh) and run conformance/java's
// SoakWorker, the soak's Java cycle: it sends a batch of messages and its
// consumer must receive every one (orderly: each key's messages first
// delivered in order; transactional: the committed ones, including those
// the broker's check-back asked the producer about, and no rolled-back
// one). The 5.x lite-pull consumer is not among them: it
// pulls with LITE_PULL_MESSAGE (361), which a 4.9.8 broker does not know;
// the scenario sends that request itself and records the answer.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func init() {
	Register(&Scenario{
		Name: "broker/clients/java-versions",
		Doc: "the official Java client 4.3.2, 4.5.2, 4.7.1, 5.1.4 and 5.3.1 (Maven Central) each send 40 messages and receive " +
			"them with a concurrent push consumer, by sharding key with an orderly one (per-key order), and in transactions " +
			"(commit, rollback, and UNKNOW committed by the broker's check-back; never a rolled-back one); 4.7.1 also with " +
			"async sends and a lite-pull consumer; LITE_PULL_MESSAGE (361, 5.x lite pull) gets the broker's answer to an unknown code",
		Tags:    tags("javaclient", "raw", "clients"),
		Timeout: 8 * time.Minute,
		Run:     brokerJavaVersions,
	})
}

// otherJavaClients are the client versions the scenario runs; each runs
// the plain, orderly and transactional SoakWorker kinds, and lite pull
// where it works against a 4.9.8 broker (javaclient.LitePullWorks).
var otherJavaClients = []string{"4.3.2", "4.5.2", "4.7.1", "5.1.4", "5.3.1"}

// kindsOf are the SoakWorker kinds version runs.
func kindsOf(version string) []string {
	kinds := []string{javaclient.SoakPlain, javaclient.SoakOrderly, javaclient.SoakTx}
	if javaclient.LitePullWorks(version) {
		kinds = append(kinds, javaclient.SoakLitePull)
	}
	return kinds
}

const (
	javaVersionMsgs    = 40
	javaVersionTimeout = 90 * time.Second // one SoakWorker's consumer, JVM start included
	codeLitePull       = 361              // RequestCode.LITE_PULL_MESSAGE of 5.x
)

func brokerJavaVersions(ctx context.Context, env *Env) error {
	var done []string
	for _, version := range otherJavaClients {
		for _, kind := range kindsOf(version) {
			if err := runOtherClient(ctx, env, version, kind); err != nil {
				return err
			}
			done = append(done, version+" "+kind)
		}
	}
	env.Observe("every message received", strings.Join(done, "\n"))
	resp, err := rawclient.Call(ctx, env.Brokers[0].Addr, litePullRequest(), defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("LITE_PULL_MESSAGE: %w", err)
	}
	env.Observe("LITE_PULL_MESSAGE", fmt.Sprintf("code %d, remark %q", resp.Code, resp.Remark))
	return nil
}

// runOtherClient runs one SoakWorker cycle of kind with client version
// on a topic and groups of its own.
func runOtherClient(ctx context.Context, env *Env, version, kind string) error {
	id := "V" + strings.ReplaceAll(version, ".", "_") + "_" + kind
	topic := "ClientVersions" + id
	if err := createTopic(ctx, env, topic, 8, 6); err != nil {
		return err
	}
	c := javaclient.SoakCycle{Namesrv: env.Namesrv, Topic: topic, Group: "CONF_CLIENTS_CG" + id, ProducerGroup: "CONF_CLIENTS_PG" + id,
		Instance: "cv" + id + "-" + kind, Kind: kind, Msgs: javaVersionMsgs, Timeout: javaVersionTimeout - 15*time.Second, Shutdown: true}
	start := time.Now()
	out, err := env.Java.RunWithClient(ctx, version, javaclient.SoakWorkerClass, c.Args(), javaVersionTimeout)
	if err != nil {
		return fmt.Errorf("client %s, %s: %w", version, kind, err)
	}
	env.Log.Printf("client %s, %s: every message received in %v %s", version, kind, time.Since(start).Round(time.Millisecond), strings.TrimSpace(out))
	return nil
}

// litePullRequest is a 5.x client's LITE_PULL_MESSAGE: the pull header's
// fields under code 361.
func litePullRequest() *wire.Command {
	return rawclient.Request(codeLitePull, "consumerGroup", "CONF_CLIENTS_LITE", "topic", "ClientVersionsV4_7_1_jplain",
		"queueId", "0", "queueOffset", "0", "maxMsgNums", "32", "sysFlag", "2", "commitOffset", "0",
		"suspendTimeoutMillis", "0", "subscription", "*", "subVersion", "0", "expressionType", "TAG")
}
