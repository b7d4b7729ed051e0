package scenario

// Replication between the implementations: a Java 4.9.x master with a
// Sputnik slave, and a Sputnik master with a Java slave. Each pair runs the
// master/slave checks of namesrv_master_slave.go: the slave finds its
// master through the name server, copies its topic config
// (SlaveSynchronize) and its commit log over the HA protocol
// (HAService/HAConnection/HAClient) up to the master's max offset, and
// after a kill -9 of the master a Java consumer reads the replicated
// messages from the slave. In the java column both sides are Java.

import (
	"context"
	"fmt"
	"time"
)

var (
	javaMasterSputnikSlave = Needs{Brokers: 1, Slave: true, MasterJava: true}
	sputnikMasterJavaSlave = Needs{Brokers: 1, Slave: true, SlaveJava: true}
)

// syncMasterTimeout bounds the wait for a restarted slave: it reconnects
// to HA within 5 s and a Java slave first reports after its 5 s heartbeat
// interval.
const syncMasterTimeout = 60 * time.Second

func init() {
	for _, pair := range []struct {
		name, doc string
		needs     Needs
	}{
		{"java-master", "a Java master and a slave of the implementation under test", javaMasterSputnikSlave},
		{"java-slave", "a master of the implementation under test and a Java slave", sputnikMasterJavaSlave},
	} {
		Register(
			&Scenario{
				Name:    "broker/ha/" + pair.name + "/replicate",
				Doc:     pair.doc + ": the slave syncs a topic created on the master and replicates the master's commit log up to its max offset",
				Tags:    []string{"quick", "broker", "ha", "javaclient"},
				Needs:   pair.needs,
				Timeout: 2 * time.Minute,
				Run:     masterSlaveDiscovery,
			},
			&Scenario{
				Name:    "broker/ha/" + pair.name + "/slave-read",
				Doc:     pair.doc + ": after a kill -9 of the master a Java push consumer reads every replicated message from the slave; the master comes back",
				Tags:    []string{"broker", "ha", "javaclient", "lifecycle"},
				Needs:   pair.needs,
				Timeout: 3 * time.Minute,
				Run: func(ctx context.Context, env *Env) error {
					return killMasterReadSlave(ctx, env, "ConfHAKill-"+pair.name, "ConfHASlaveCG-"+pair.name)
				},
			},
		)
	}
	Register(&Scenario{
		Name: "broker/ha/slave-migrate",
		Doc: "a slave stopped and replaced by the other implementation on the same config and store starts at the " +
			"commit-log offset the first one reached, resumes replication from there, and serves every message of " +
			"both to a Java consumer once the master is killed",
		Tags:    []string{"broker", "ha", "javaclient", "lifecycle", "migrate"},
		Needs:   Needs{Brokers: 1, Slave: true},
		Timeout: 3 * time.Minute,
		Run:     slaveMigrate,
	})
	for _, pair := range []struct {
		name  string
		tags  []string
		needs Needs
	}{
		{"", []string{"quick"}, Needs{Brokers: 1, Slave: true, SyncMaster: true}},
		{"/java-master", nil, Needs{Brokers: 1, Slave: true, SyncMaster: true, MasterJava: true}},
		{"/java-slave", nil, Needs{Brokers: 1, Slave: true, SyncMaster: true, SlaveJava: true}},
	} {
		Register(&Scenario{
			Name: "broker/ha/sync-master" + pair.name + "/send",
			Doc: "a SYNC_MASTER answers a Java producer's send once the slave has the message (SEND_OK, the slave's max offset " +
				"already past it); without the slave it answers SLAVE_NOT_AVAILABLE; with the slave back, SEND_OK again",
			Tags:    append([]string{"broker", "ha", "javaclient", "lifecycle"}, pair.tags...),
			Needs:   pair.needs,
			Timeout: 3 * time.Minute,
			Run:     syncMasterSend,
		})
	}
}

// awaitSendStatus sends n messages of a fresh prefix with the Java
// producer until every one ends with want.
func awaitSendStatus(ctx context.Context, env *Env, topic, prefix string, n int, want string) error {
	return Eventually(ctx, syncMasterTimeout, 500*time.Millisecond, func() error {
		st, err := javaSendStatuses(ctx, env, topic, runPrefix(prefix), n)
		if err != nil {
			return err
		}
		return allStatus(st, n, want)
	})
}

// javaSendStatuses sends n messages with the Java producer and returns
// their send statuses.
func javaSendStatuses(ctx context.Context, env *Env, topic, prefix string, n int) ([]string, error) {
	sent, err := env.Java.Produce(ctx, env.Namesrv, topic, "ConfJavaPG", prefix, n)
	if err != nil {
		return nil, fmt.Errorf("java send: %w", err)
	}
	var st []string
	for _, s := range sent {
		st = append(st, s.Status)
	}
	return st, nil
}

// allStatus checks that every send ended with want.
func allStatus(got []string, n int, want string) error {
	if len(got) != n {
		return fmt.Errorf("%d send results for %d messages", len(got), n)
	}
	for _, s := range got {
		if s != want {
			return fmt.Errorf("send statuses %v, want %s", got, want)
		}
	}
	return nil
}

func syncMasterSend(ctx context.Context, env *Env) error {
	const topic = "ConfHASync"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	// The slave connects and reports within a heartbeat interval.
	if err := awaitSendStatus(ctx, env, topic, "sync", 4, "SEND_OK"); err != nil {
		return fmt.Errorf("with the slave: %w", err)
	}
	master, err := commitLogMaxOffset(ctx, env, env.Brokers[0].Addr)
	if err != nil {
		return err
	}
	slave, err := commitLogMaxOffset(ctx, env, env.Slaves[0].Addr)
	if err != nil {
		return err
	}
	if slave < master {
		return fmt.Errorf("after SEND_OK the slave's commitLogMaxOffset is %d, the master's %d", slave, master)
	}
	if err := env.Nodes.KillSlave(0); err != nil {
		return err
	}
	if err := awaitSendStatus(ctx, env, topic, "noslave", 1, "SLAVE_NOT_AVAILABLE"); err != nil {
		return fmt.Errorf("without the slave: %w", err)
	}
	if err := env.Nodes.StartSlave(ctx, 0); err != nil {
		return err
	}
	if err := awaitSendStatus(ctx, env, topic, "back", 1, "SEND_OK"); err != nil {
		return fmt.Errorf("with the slave restarted: %w", err)
	}
	return nil
}

func slaveMigrate(ctx context.Context, env *Env) error {
	const topic, n = "ConfHASlaveMigrate", 8
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	if err := waitSlaveTopic(ctx, env, topic); err != nil {
		return err
	}
	prefix := runPrefix("slave-migrate")
	if err := waitReplicated(ctx, env, topic, prefix+"-a", n); err != nil {
		return fmt.Errorf("before the switch: %w", err)
	}
	before, err := commitLogMaxOffset(ctx, env, env.Slaves[0].Addr)
	if err != nil {
		return err
	}
	if err := env.Nodes.StopSlave(0); err != nil {
		return err
	}
	if err := env.Nodes.SwitchSlave(0); err != nil {
		return err
	}
	if err := env.Nodes.StartSlave(ctx, 0); err != nil {
		return fmt.Errorf("start the other slave: %w", err)
	}
	// Nothing is sent in between: what the other slave reports first is
	// what it recovered from the first one's commit log.
	after, err := commitLogMaxOffset(ctx, env, env.Slaves[0].Addr)
	if err != nil {
		return err
	}
	if after != before {
		return fmt.Errorf("the switched slave starts at commit-log offset %d; the first one stopped at %d", after, before)
	}
	env.Observe("switched slave starts where the first stopped", "yes")
	if err := waitReplicated(ctx, env, topic, prefix+"-b", n); err != nil {
		return fmt.Errorf("after the switch: %w", err)
	}
	return readSlaveWithoutMaster(ctx, env, topic, "ConfHASlaveMigrateCG", prefix, 2*n)
}
