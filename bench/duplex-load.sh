#!/usr/bin/env bash
# W7 of BENCHMARKS.md (duplex over WebSocket): a bidirectional echo of W3's messages, served by bench/StreamPeers on
# 127.0.0.1 and driven by bench/StreamLoad's `duplex` command, against its peers in the same run:
#   protohttp-ws      ProtoHttp's calls over WebSocket (docs/protocol.md section 13), a bare ClientWebSocket speaking
#                     protohttp+proto envelopes by hand, HTTP/1.1, a connection per call;
#   protohttp-ws-h2c  the same over h2c (RFC 8441), the calls as streams on shared connections as gRPC's are;
#   typed-ws          the same calls through the generated client on ProtoHttp's typed client (its WebSocket transport);
#   grpc-h2c          Grpc.AspNetCore bidirectional streaming over h2c, through Grpc.Net.Client;
#   signalr-json      a SignalR hub method streaming both ways, WebSockets, JSON;
#   signalr-msgpack   the same hub with the MessagePack protocol.
# Each measurement: one call (round trips/s with one message in flight, after a warm-up), then --sockets calls at once
# (round trips/s over all of them, p99 round trip, and the server's working set and GC heap per open call, read after
# a full collection before the calls and with all of them open and idle).
#
#   bench/duplex-load.sh [--quick] [--out DIR] [--runs N] [--sockets N] [--seconds S] [--targets "protohttp-ws ..."] [--no-build]
#
# A fresh server per target and run (its memory is measured), pinned to core 0; the load tool on core 1 (taskset). The
# order of the targets rotates from run to run. Each measurement is a JSON line in DIR/duplex.jsonl with the load
# average at its end. --quick: one run, 50 sockets, 1 s windows: it checks that every peer answers, not how fast. A
# measurement with an error fails the script: a broken path must never look fast.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results/duplex"
RUNS=5
SOCKETS=1000
SECONDS_WINDOW=3
WARMUP=1
TARGETS=(protohttp-ws protohttp-ws-h2c typed-ws grpc-h2c signalr-json signalr-msgpack)
BUILD=1
QUICK=0
BASE_PORT=${DUPLEX_PORT:-5241}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; RUNS=1; SOCKETS=50; SECONDS_WINDOW=1; WARMUP=1 ;;
    --out) OUT=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --sockets) SOCKETS=$2; shift ;;
    --seconds) SECONDS_WINDOW=$2; shift ;;
    --targets) read -ra TARGETS <<<"$2"; shift ;;
    --no-build) BUILD=0 ;;
    *) echo "duplex-load.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[duplex %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

SCRIPT="duplex-load.sh (set DUPLEX_PORT for other ports)"
# shellcheck source=bench/stream-peers.sh
source "$ROOT/bench/stream-peers.sh"

RESULTS="$OUT/duplex.jsonl"
: >"$RESULTS"
: >"$OUT/server.log"
: >"$OUT/load.log"
FAILED=0
START=$(date +%s)
slot=0
n=${#TARGETS[@]}
for run in $(seq 1 "$RUNS"); do
  for i in $(seq 0 $((n - 1))); do
    target=${TARGETS[$(( (i + run - 1) % n ))]}
    log "run $run of $RUNS: $target, 1 socket then $SOCKETS, ${SECONDS_WINDOW} s windows"
    start_server $((slot % 4)) 0
    slot=$((slot + 1))
    lines=$(timeout 300 taskset -c "$LOAD_CPU" dotnet "$LOAD_DLL" duplex --target "$target" --sockets "$SOCKETS" \
      --seconds "$SECONDS_WINDOW" --warmup-seconds "$WARMUP" \
      --http "http://127.0.0.1:$HTTP_PORT" --h2c "http://127.0.0.1:$H2C_PORT" 2>>"$OUT/load.log") \
      || { FAILED=$((FAILED + 1)); log "FAILED $target: ${lines:-no result}"; }
    # The load average at the end of the measurement goes with it: the figures depend on what else the machine ran.
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    if [[ -n "$lines" ]]; then printf '%s\n' "$lines" | sed "s/}\$/,\"run\":$run,\"load\":\"$load\"}/" >>"$RESULTS"; fi
    stop_server
  done
done

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"runs\":$RUNS,\"quick\":$QUICK,\"sockets\":$SOCKETS,\"seconds\":$SECONDS_WINDOW,"
  echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //;s/"//g')\",\"cores\":$(nproc),"
  echo "\"dotnet\":\"$(dotnet --version)\",\"seconds_taken\":$(( $(date +%s) - START ))}"
} >"$OUT/duplex-env.json"

ERRORS=$(grep -vc '"errors":0,' "$RESULTS" || true)
echo "duplex: $(wc -l <"$RESULTS") measurements, $ERRORS with errors, $FAILED failed steps (took $(( $(date +%s) - START )) s)"
[[ $FAILED -eq 0 && $ERRORS -eq 0 && $(wc -l <"$RESULTS") -gt 0 ]]
