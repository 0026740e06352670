#!/usr/bin/env bash
# W6 scale-out of BENCHMARKS.md (version 4) against its peer, each run on a fresh redis-server (a free port, its own
# temp dir) and two fresh instances of bench/ScaleOutPeers (A and B), read by bench/StreamLoad's `scaleout`:
#   protohttp-sse  a ProtoHttp topic on AddRedisBackplane (Redis Streams), SSE subscribers that resume with Last-Event-ID
#   signalr-json   a SignalR hub on AddStackExchangeRedis (Redis pub/sub), HubConnection subscribers over WebSockets
# Each run: --subscribers on each instance, one publisher at --rate ticks/s posting to A; a window of --seconds measures
# p99 delay from publish to receipt, memory per subscriber, Redis commands per tick; then B is killed and its
# subscribers come back on A: time until each has caught up, ticks lost or doubled.
#
#   bench/scale-out.sh [--quick] [--out DIR] [--runs N] [--subscribers N] [--seconds S] [--no-build]
#
# Redis and both instances are pinned to core 0, the load tool to core 1 (taskset). Peers alternate run by run; each
# measurement is one JSON line in DIR/scaleout.jsonl. --quick: one run of each with 100 subscribers per instance and a
# 3 s window: it checks that every path delivers and resumes, not how fast. A run with an error fails the script.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results/scaleout"
RUNS=2
QUICK=0
SUBSCRIBERS=2500
SECONDS_WINDOW=20
RATE=10
BUILD=1
TARGETS=(protohttp-sse signalr-json)

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; RUNS=1; SUBSCRIBERS=100; SECONDS_WINDOW=3 ;;
    --out) OUT=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --subscribers) SUBSCRIBERS=$2; shift ;;
    --seconds) SECONDS_WINDOW=$2; shift ;;
    --no-build) BUILD=0 ;;
    *) echo "scale-out.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[scale-out %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
SCRIPT=scale-out.sh
PEER=ScaleOutPeers
TOOLS="redis-server redis-cli python3"
# shellcheck source=bench/peer-setup.sh
source "$ROOT/bench/peer-setup.sh"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

PIDS=()
REDIS_DIR=""
stop_all() {
  for pid in "${PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  PIDS=()
  if [[ -n "$REDIS_DIR" ]]; then rm -rf "$REDIS_DIR"; REDIS_DIR=""; fi
}
trap stop_all EXIT

wait_for() { # URL PID NAME
  for _ in $(seq 1 120); do
    curl -s -o /dev/null --max-time 1 "$1" && return 0
    kill -0 "$2" 2>/dev/null || { tail -20 "$OUT/server.log"; echo "$3 exited" >&2; exit 1; }
    sleep 0.25
  done
  echo "$3 did not start in 30 s" >&2
  exit 1
}

# start_run PEER: a redis-server and instances A and B on free ports; sets REDIS_PORT, A_PORT, B_PORT, B_PID.
start_run() {
  local peer=$1
  REDIS_DIR=$(mktemp -d)
  REDIS_PORT=$(free_port)
  taskset -c "$SERVER_CPU" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --save "" --appendonly no \
    --daemonize no --logfile "$REDIS_DIR/redis.log" &
  PIDS+=($!)
  for _ in $(seq 1 40); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.25; done
  redis-cli -p "$REDIS_PORT" ping >/dev/null || { echo "redis-server did not start" >&2; exit 1; }
  A_PORT=$(free_port)
  taskset -c "$SERVER_CPU" dotnet "$SERVER_DLL" --peer "$peer" --port "$A_PORT" --redis "127.0.0.1:$REDIS_PORT" >>"$OUT/server.log" 2>&1 &
  local a_pid=$!
  PIDS+=("$a_pid")
  B_PORT=$(free_port)
  taskset -c "$SERVER_CPU" dotnet "$SERVER_DLL" --peer "$peer" --port "$B_PORT" --redis "127.0.0.1:$REDIS_PORT" >>"$OUT/server.log" 2>&1 &
  B_PID=$!
  PIDS+=("$B_PID")
  wait_for "http://127.0.0.1:$A_PORT/health" "$a_pid" "instance A"
  wait_for "http://127.0.0.1:$B_PORT/health" "$B_PID" "instance B"
}

RESULTS="$OUT/scaleout.jsonl"
: >"$RESULTS"
: >"$OUT/server.log"
: >"$OUT/load.log"
FAILED=0
START=$(date +%s)
for run in $(seq 1 "$RUNS"); do
  n=${#TARGETS[@]}
  for i in $(seq 0 $((n - 1))); do
    target=${TARGETS[$(( (i + run - 1) % n ))]}
    peer=${target%%-*}
    log "W6 run $run/$RUNS: $target, 2 x $SUBSCRIBERS subscribers, $RATE ticks/s, a $SECONDS_WINDOW s window, then B is killed"
    start_run "$peer"
    # SSE subscribers connect 500 at a time; SignalR's 100 at a time (its handshake, as in W5).
    parallel=500
    if [[ $target == signalr-* ]]; then parallel=100; fi
    line=$(timeout 240 taskset -c "$LOAD_CPU" dotnet "$LOAD_DLL" scaleout --target "$target" --connect-parallel "$parallel" \
      --a "http://127.0.0.1:$A_PORT" --b "http://127.0.0.1:$B_PORT" --subscribers "$SUBSCRIBERS" --seconds "$SECONDS_WINDOW" \
      --rate "$RATE" --redis-port "$REDIS_PORT" --kill-pid "$B_PID" 2>>"$OUT/load.log") || { FAILED=$((FAILED + 1)); log "FAILED $target: ${line:-no result}"; }
    # The load average at the end of the measurement goes with it: delays depend on what else the machine ran.
    if [[ -n "$line" ]]; then printf '%s\n' "$line" | sed "s/}\$/,\"run\":$run,\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}/" >>"$RESULTS"; fi
    stop_all
  done
done

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"runs\":$RUNS,\"quick\":$QUICK,\"subscribers_per_instance\":$SUBSCRIBERS,\"seconds\":$SECONDS_WINDOW,\"rate\":$RATE,"
  echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //;s/"//g')\",\"cores\":$(nproc),"
  echo "\"redis\":\"$(redis-server --version | grep -o 'v=[0-9.]*' | cut -d= -f2)\",\"dotnet\":\"$(dotnet --version)\",\"seconds_taken\":$(( $(date +%s) - START ))}"
} >"$OUT/scaleout-env.json"

ERRORS=$(grep -vc '"errors":0,' "$RESULTS" || true)
echo "scale-out: $(wc -l <"$RESULTS") measurements, $ERRORS with errors, $FAILED failed steps"
[[ $FAILED -eq 0 && $ERRORS -eq 0 && $(wc -l <"$RESULTS") -eq $((RUNS * ${#TARGETS[@]})) ]]
