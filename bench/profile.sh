#!/usr/bin/env bash
# Where one load configuration's time goes on the server: bench/PeerServer under wrk (as bench/load.sh runs it, server
# on core 0, wrk on core 1), with dotnet-trace sampling the server's threads for --seconds once the JIT has settled.
#
#   bench/profile.sh [--path /ProtoService.proto/Search] [--body search.pb] [--type application/x-protobuf]
#                    [--seconds 20] [--match 'ProtoHttp|Routing|Hosting'] [--out DIR]
#
# Prints bench/report/trace_profile.py's table of inclusive shares of Kestrel's request loop. Needs dotnet-trace
# (installed as a global tool when missing) and wrk; run it on a quiet machine for the shares to mean anything.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results/profile"
REQUEST_PATH=/ProtoService.proto/Search
BODY=search.pb
TYPE=application/x-protobuf
SECONDS_TRACED=20
MATCH=""
PORT=${PROFILE_PORT:-5291}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --path) REQUEST_PATH=$2; shift ;;
    --body) BODY=$2; shift ;;
    --type) TYPE=$2; shift ;;
    --seconds) SECONDS_TRACED=$2; shift ;;
    --match) MATCH=$2; shift ;;
    --out) OUT=$2; shift ;;
    *) echo "profile.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

export PATH="$PATH:$HOME/.dotnet/tools"
command -v dotnet-trace >/dev/null || dotnet tool install -g dotnet-trace >/dev/null
mkdir -p "$OUT"
dotnet build "$ROOT/bench/PeerServer/PeerServer.csproj" -c Release -nologo -v q >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
dotnet build "$ROOT/bench/ProtoHttp.Benchmarks/ProtoHttp.Benchmarks.csproj" -c Release -nologo -v q >>"$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
dotnet "$ROOT/bench/ProtoHttp.Benchmarks/bin/Release/net10.0/ProtoHttp.Benchmarks.dll" --bodies "$OUT/bodies" >/dev/null

taskset -c 0 dotnet "$ROOT/bench/PeerServer/bin/Release/net10.0/PeerServer.dll" --http-port "$PORT" --h2c-port "$((PORT + 1))" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/health" && break; sleep 0.5; done

# The JIT's tiering settles in about 10 s of load; the trace starts after it and ends before wrk does.
METHOD=POST BODY_FILE="$OUT/bodies/$BODY" CONTENT_TYPE="$TYPE" taskset -c 1 \
  wrk -t1 -c16 -d"$((SECONDS_TRACED + 15))s" -s "$ROOT/bench/load/request.lua" "http://127.0.0.1:$PORT$REQUEST_PATH" >"$OUT/wrk.log" 2>&1 &
LOAD=$!
sleep 10
dotnet-trace collect -p "$SERVER" --profile dotnet-sampled-thread-time --duration "00:00:00:$SECONDS_TRACED" \
  -o "$OUT/trace.nettrace" >"$OUT/trace.log" 2>&1
wait "$LOAD"
dotnet-trace convert "$OUT/trace.nettrace" --format speedscope -o "$OUT/trace" >>"$OUT/trace.log" 2>&1
python3 "$ROOT/bench/report/trace_profile.py" "$OUT/trace.speedscope.json" --match "$MATCH"
