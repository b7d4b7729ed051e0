package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store/segment"
)

// With -slave the broker has a slave (brokerId 1) of -slave-impl, and
// -restart-which picks what the restarts hit. Once the cycles are done the
// slave must catch up with its master, and the two commit logs must then
// be the same bytes: whatever the restarts did to either, replication may
// neither lose, nor add, nor reorder anything.

// restartTarget is the node restart i hits: the master, the slave, or
// (both) the master on odd restarts and the slave on even ones, so that
// each is both killed and stopped.
func restartTarget(o options, i int) (*cluster.Node, string) {
	switch {
	case o.slaveNode == nil || o.restartWhich == "master":
		return o.brokerNode, "master"
	case o.restartWhich == "slave" || i%2 == 0:
		return o.slaveNode, "slave"
	}
	return o.brokerNode, "master"
}

// checkReplica waits up to a minute for the slave's commit log to reach
// its master's end and then compares the two byte for byte.
func checkReplica(ctx context.Context, o options) error {
	if o.slaveNode == nil {
		return nil
	}
	var master, slave int64
	deadline := time.Now().Add(time.Minute)
	for {
		var err error
		if master, err = commitLogMaxOffset(ctx, o.brokerNode.Addr()); err != nil {
			return fmt.Errorf("master: %w", err)
		}
		if slave, err = commitLogMaxOffset(ctx, o.slaveNode.Addr()); err != nil {
			return fmt.Errorf("slave: %w", err)
		}
		if master == slave {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the slave's commit log ends at %d, its master's at %d, a minute after the last cycle", slave, master)
		}
		time.Sleep(time.Second)
	}
	if err := sameCommitLogs(commitLogDir(o.brokerNode), commitLogDir(o.slaveNode), master); err != nil {
		return err
	}
	fmt.Printf("the slave's commit log is its master's, byte for byte (%d bytes)\n", master)
	return nil
}

func commitLogDir(n *cluster.Node) string { return filepath.Join(n.Dir, "store", "commitlog") }

// commitLogMaxOffset is GET_BROKER_RUNTIME_INFO's commitLogMaxOffset.
// Java 4.9.8 fails the request for a few seconds after a start, so
// failures are retried.
func commitLogMaxOffset(ctx context.Context, addr string) (int64, error) {
	var last error
	for try := 0; try < 30; try++ {
		if try > 0 {
			time.Sleep(500 * time.Millisecond)
		}
		resp, err := rawclient.Call(ctx, addr, rawclient.Request(int32(protocol.ReqGetBrokerRuntimeInfo)), 10*time.Second)
		if err != nil {
			last = err
			continue
		}
		if resp.Code != int32(protocol.RespSuccess) {
			last = fmt.Errorf("GET_BROKER_RUNTIME_INFO: code %d: %s", resp.Code, resp.Remark)
			continue
		}
		var kv struct {
			Table map[string]string `json:"table"`
		}
		if err := rawclient.UnmarshalFastJSON(resp.Body, &kv); err != nil {
			return 0, fmt.Errorf("runtime info of %s: %w", addr, err)
		}
		return strconv.ParseInt(kv.Table["commitLogMaxOffset"], 10, 64)
	}
	return 0, fmt.Errorf("runtime info of %s: %w", addr, last)
}

// sameCommitLogs compares two commit-log directories over [0, end): the
// same file names (20-digit start offsets) and the same bytes.
func sameCommitLogs(a, b string, end int64) error {
	fa, err := segmentStarts(a)
	if err != nil {
		return err
	}
	fb, err := segmentStarts(b)
	if err != nil {
		return err
	}
	for i, start := range fa {
		if start >= end {
			break
		}
		if i >= len(fb) || fb[i] != start {
			return fmt.Errorf("commit logs differ in their files: %s has %s, %s does not", a, segment.FileName(start), b)
		}
		limit := end - start
		if i+1 < len(fa) && fa[i+1] <= end {
			limit = fa[i+1] - start
		}
		name := segment.FileName(start)
		if err := sameBytes(filepath.Join(a, name), filepath.Join(b, name), limit); err != nil {
			return err
		}
	}
	return nil
}

// segmentStarts lists a commit-log directory's files by start offset
// (their names, store/segment's).
func segmentStarts(dir string) ([]int64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var starts []int64
	for _, e := range entries {
		if n, err := segment.ParseName(e.Name()); err == nil {
			starts = append(starts, n)
		}
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	return starts, nil
}

// sameBytes compares the first n bytes of two files.
func sameBytes(a, b string, n int64) error {
	fa, err := os.Open(a)
	if err != nil {
		return err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return err
	}
	defer fb.Close()
	const chunk = 1 << 20
	ba, bb := make([]byte, chunk), make([]byte, chunk)
	for off := int64(0); off < n; off += chunk {
		size := min(chunk, n-off)
		if _, err := fa.ReadAt(ba[:size], off); err != nil {
			return fmt.Errorf("%s at %d: %w", a, off, err)
		}
		if _, err := fb.ReadAt(bb[:size], off); err != nil {
			return fmt.Errorf("%s at %d: %w", b, off, err)
		}
		if !bytes.Equal(ba[:size], bb[:size]) {
			at := off
			for k := range size {
				if ba[k] != bb[k] {
					at = off + k
					break
				}
			}
			return fmt.Errorf("commit logs differ at byte %d of %s", at, filepath.Base(a))
		}
	}
	return nil
}
