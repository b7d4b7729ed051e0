#!/usr/bin/env bash
# Starts a one-node Sputnik name server and broker on loopback from the
# embedded default configuration (what `make run` does). Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/../.."

home="${SPUTNIK_RUN_DIR:-$PWD/.run}"
mkdir -p "$home"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

echo "starting bin/mqnamesrv (127.0.0.1:9876), logs in $home"
HOME="$home" ROCKETMQ_HOME="$home" bin/mqnamesrv >"$home/namesrv.out" 2>&1 &
pids+=($!)
# The embedded default: a loopback broker with its store under $home.
cat >"$home/broker.conf" <<CONF
brokerClusterName=DefaultCluster
brokerName=broker-a
brokerId=0
brokerIP1=127.0.0.1
brokerIP2=127.0.0.1
listenPort=10911
namesrvAddr=127.0.0.1:9876
storePathRootDir=$home/store
deleteWhen=04
fileReservedTime=48
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
CONF
echo "starting bin/mqbroker (127.0.0.1:10911), store in $home/store"
HOME="$home" ROCKETMQ_HOME="$home" bin/mqbroker -c "$home/broker.conf" >"$home/broker.out" 2>&1 &
pids+=($!)

# Fail loudly if either process exits (e.g. not built yet in this version).
while true; do
	for p in "${pids[@]}"; do
		if ! kill -0 "$p" 2>/dev/null; then
			echo "a process exited; its output:" >&2
			tail -n 20 "$home"/*.out >&2
			exit 1
		fi
	done
	sleep 1
done
