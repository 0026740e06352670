#!/usr/bin/env bash
# The streaming benchmarks of BENCHMARKS.md against their peers, served by bench/StreamPeers on 127.0.0.1 and read by
# bench/StreamLoad (raw HttpClient with SseParser, SignalR's HubConnection, the generated gRPC client):
#   W4 push: one client receives --count five-string notifications over one stream, per format and peer;
#   client: the typed client's server-streaming read rate against Grpc.Net.Client's, same server;
#   W5 fan-out: 1,000 and 10,000 subscribers of one ticker, a fresh server per measurement (its memory is measured).
#
#   bench/stream-load.sh [--quick] [--out DIR] [--runs N] [--only w4|client|w5] [--sizes "1000 10000"]
#                        [--targets "sse-h1 ..."] [--first-run K] [--no-build]
#
# The server is pinned to core 0 and the load tool to core 1 (taskset). Every configuration runs --runs times
# (default 5), alternating with the others so drift hits all alike; each measurement is one JSON line in
# DIR/stream.jsonl. --quick: one run with tiny counts (2,000 messages, 200 subscribers, 2 s windows); it checks that
# every path delivers with no error, not how fast. A measurement with an error fails the script: a broken path must
# never look fast. A typed client that cannot stream yet is reported as not available and is no failure.
# --sizes, --targets and --first-run split W5 into parts that fit a benchmark slot: --first-run K numbers the runs from K
# (and rotates the order as run K would), so the parts' lines can be put together as one run. raw-sse-h1 and
# raw-sse-h2c are the floor: the same events from a plain Kestrel endpoint. --no-build uses the Release binaries as
# they are (built earlier, outside a quiet window).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results/stream"
RUNS=5
QUICK=0
ONLY=""
PUSH_COUNT=200000
W5_SIZES=(1000 10000)
W5_SECONDS=10
W5_TARGETS=(sse-h1 sse-h2c raw-sse-h1 raw-sse-h2c grpc-h2c signalr-json)
FIRST_RUN=1
BUILD=1
BASE_PORT=${STREAM_PORT:-5211}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; RUNS=1; PUSH_COUNT=2000; W5_SIZES=(200); W5_SECONDS=2
             W5_TARGETS=(sse-h1 sse-h2c raw-sse-h1 raw-sse-h2c envelopes-h1 grpc-h2c signalr-json signalr-msgpack) ;;
    --out) OUT=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --sizes) read -ra W5_SIZES <<<"$2"; shift ;;
    --targets) read -ra W5_TARGETS <<<"$2"; shift ;;
    --first-run) FIRST_RUN=$2; shift ;;
    --no-build) BUILD=0 ;;
    *) echo "stream-load.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[stream %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
SCRIPT="stream-load.sh (set STREAM_PORT for other ports)"
# shellcheck source=bench/stream-peers.sh
source "$ROOT/bench/stream-peers.sh"
# 10,000 subscribers are 10,000 sockets in each process.
if [[ $(ulimit -n) != unlimited && $(ulimit -n) -lt 10500 ]]; then
  log "the file limit is $(ulimit -n): W5 runs only up to $(( $(ulimit -n) - 500 )) subscribers"
fi

# load LIMIT_SECONDS ARGS...: one StreamLoad command on the load core, bounded in time.
load() {
  local limit=$1
  shift
  timeout "$limit" taskset -c "$LOAD_CPU" dotnet "$LOAD_DLL" "$@" --http "http://127.0.0.1:$HTTP_PORT" --h2c "http://127.0.0.1:$H2C_PORT"
}

RESULTS="$OUT/stream.jsonl"
: >"$RESULTS"
: >"$OUT/server.log"
FAILED=0
START=$(date +%s)

if [[ -z "$ONLY" || $ONLY == w4 ]]; then
  log "W4 push: $PUSH_COUNT messages per stream, $RUNS runs of every target"
  start_server 0 0
  load $((120 + RUNS * 300)) push --count "$PUSH_COUNT" --runs "$RUNS" >>"$RESULTS" 2>>"$OUT/load.log" || FAILED=$((FAILED + 1))
  stop_server
fi

if [[ -z "$ONLY" || $ONLY == client ]]; then
  log "typed client vs Grpc.Net.Client: $PUSH_COUNT messages per stream, $RUNS runs"
  start_server 1 0
  load $((120 + RUNS * 120)) client-read --count "$PUSH_COUNT" --runs "$RUNS" >>"$RESULTS" 2>>"$OUT/load.log" || FAILED=$((FAILED + 1))
  stop_server
fi

if [[ -z "$ONLY" || $ONLY == w5 ]]; then
  slot=0
  for run in $(seq "$FIRST_RUN" $((FIRST_RUN + RUNS - 1))); do
    for size in "${W5_SIZES[@]}"; do
      # 1,000 subscribers get a tick every 100 ms (10,000 messages/s), 10,000 one every 2 s (5,000 messages/s: the
      # server has one shared core, and a burst of 10,000 writes must end well before the next); the quick run ticks
      # every 100 ms.
      tick=$(( size >= 10000 ? 2000 : 100 ))
      # Rotate the order each run.
      n=${#W5_TARGETS[@]}
      for i in $(seq 0 $((n - 1))); do
        target=${W5_TARGETS[$(( (i + run - 1) % n ))]}
        log "W5 run $run (runs $FIRST_RUN-$((FIRST_RUN + RUNS - 1))): $target, $size subscribers, a tick every $tick ms"
        start_server $((slot % 4 + 2)) 500
        slot=$((slot + 1))
        # A stream's response starts with its first tick, so a batch of stream subscribers connects in one connect tick
        # (500 ms): they connect 1,000 at a time (100 at a time took 50 s at 10,000). SignalR's handshake answers at
        # once; 100 at a time keeps every handshake inside its server's 15 s.
        parallel=1000
        if [[ $target == signalr-* ]]; then parallel=100; fi
        line=$(load 420 fanout --target "$target" --subscribers "$size" --seconds "$W5_SECONDS" --tick-ms "$tick" --connect-parallel "$parallel" 2>>"$OUT/load.log") || { FAILED=$((FAILED + 1)); log "FAILED $target $size: ${line:-no result}"; }
        # The load average at the end of the measurement goes with it: p99 depends on what else the machine ran.
        if [[ -n "$line" ]]; then printf '%s\n' "$line" | sed "s/}\$/,\"run\":$run,\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}/" >>"$RESULTS"; fi
        stop_server
      done
    done
  done
fi

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"runs\":$RUNS,\"quick\":$QUICK,\"push_count\":$PUSH_COUNT,\"w5_seconds\":$W5_SECONDS,"
  echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //;s/"//g')\",\"cores\":$(nproc),"
  echo "\"dotnet\":\"$(dotnet --version)\",\"seconds_taken\":$(( $(date +%s) - START ))}"
} >"$OUT/stream-env.json"

# Every measurement line with an error fails the run, wherever it came from.
ERRORS=$(grep -c '"error":"' "$RESULTS" || true)
W5_ERRORS=$(grep '"bench":"w5"' "$RESULTS" | grep -vc '"errors":0,' || true)
NOT_AVAILABLE=$(grep -c '"available":false' "$RESULTS" || true)
echo "stream: $(wc -l <"$RESULTS") measurements, $ERRORS with an error, $W5_ERRORS fan-outs with subscriber errors, $NOT_AVAILABLE not available, $FAILED failed steps"
[[ $FAILED -eq 0 && $ERRORS -eq 0 && $W5_ERRORS -eq 0 ]]
