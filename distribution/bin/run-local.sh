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
ROCKETMQ_HOME="$home" bin/mqnamesrv >"$home/namesrv.out" 2>&1 &
pids+=($!)
echo "starting bin/mqbroker (127.0.0.1:10911)"
ROCKETMQ_HOME="$home" NAMESRV_ADDR=127.0.0.1:9876 bin/mqbroker -n 127.0.0.1:9876 >"$home/broker.out" 2>&1 &
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
