#!/usr/bin/env bash
# End-to-end load of BENCHMARKS.md figure 4: W3 (Search) in every format and W2 (Echo of 0/10/100/1,000 records)
# against every peer, all served by bench/PeerServer in one process on 127.0.0.1.
#
#   bench/load.sh [--quick] [--out DIR] [--runs N] [--seconds S] [--warmup S] [--connections C] [--only REGEX]
#
# The server is pinned to core 0 and the load generator to core 1 (taskset). HTTP/1.1 keep-alive load comes from
# wrk, h2c load (gRPC and ProtoHttp over HTTP/2) from h2load. Every configuration runs --runs times (default 5),
# alternating with the others so drift hits all alike; each result is one JSON line in DIR/load.jsonl.
# --quick: one 2 s run per configuration, no warm-up; it checks that every peer answers 200, not how fast (and W8's
#   REST rows the right body too).
# --warmup S: seconds of load per configuration before the measured runs (default 2). On the server's one pinned core
#   the runtime stretches tiered compilation's delay tenfold (it sees one processor), so a fresh server reaches its
#   steady rate only after 20-30 s of load; the goal rows are measured with --warmup 40 (docs/benchmarks.md, "W3 at
#   steady state").
# --only: just the configurations whose id matches the extended regular expression (e.g. 'protohttp$|connect').
# --first-run N: number the runs from N (when one comparison's runs are split over invocations: even runs go backwards).
# --server NAME=DLL (repeatable): measure these PeerServer builds instead of this tree's, all in one run: each is
#   started once on its own ports (all on the server core), and every configuration is measured against each build in
#   turn (the builds' order alternating by run), so a before/after comparison sees the same machine moments. Each
#   result line carries "build":"NAME". Implies --no-build for PeerServer.
# --no-build: use the Release binaries already built (in a quiet window, where nobody builds).
# Needs wrk and h2load (Debian: wrk, nghttp2-client), installed here when missing and running as root.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results"
RUNS=5
SECONDS_PER_RUN=5
WARMUP_SECONDS=2
CONNECTIONS=16
QUICK=0
ONLY=""
FIRST_RUN=1
BUILD=1
SERVERS=()
HTTP_PORT=${PEER_HTTP_PORT:-5191}
H2C_PORT=${PEER_H2C_PORT:-5192}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; RUNS=1; SECONDS_PER_RUN=2; WARMUP_SECONDS=0 ;;
    --out) OUT=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --seconds) SECONDS_PER_RUN=$2; shift ;;
    --warmup) WARMUP_SECONDS=$2; shift ;;
    --connections) CONNECTIONS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --first-run) FIRST_RUN=$2; shift ;;
    --server) SERVERS+=("$2"); shift ;;
    --no-build) BUILD=0 ;;
    *) echo "load.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[load %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# --- tools ---------------------------------------------------------------------------------------------------------
if ! command -v wrk >/dev/null || ! command -v h2load >/dev/null; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing wrk and nghttp2-client from Debian"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nghttp2-client >/dev/null
  else
    echo "load.sh needs wrk and h2load: apt-get install wrk nghttp2-client" >&2
    exit 1
  fi
fi
for tool in curl taskset timeout; do
  command -v "$tool" >/dev/null || { echo "load.sh needs $tool" >&2; exit 1; }
done

# Two cores are the design: the server gets one, the load generator the other.
SERVER_CPU=0
LOAD_CPU=1
if [[ $(nproc) -lt 2 ]]; then LOAD_CPU=0; log "only one core: server and load share it"; fi

# --- build, request bodies, server ---------------------------------------------------------------------------------
mkdir -p "$OUT"
if [[ ${#SERVERS[@]} -eq 0 ]]; then
  SERVERS=("=$ROOT/bench/PeerServer/bin/Release/net10.0/PeerServer.dll")
  [[ $BUILD -eq 1 ]] && { log "building Release"; dotnet build "$ROOT/bench/PeerServer/PeerServer.csproj" -c Release -nologo -v q >"$OUT/build-peer.log" 2>&1 || { cat "$OUT/build-peer.log"; exit 1; }; }
fi
if [[ $BUILD -eq 1 ]]; then
  dotnet build "$ROOT/bench/ProtoHttp.Benchmarks/ProtoHttp.Benchmarks.csproj" -c Release -nologo -v q >"$OUT/build-bench.log" 2>&1 || { cat "$OUT/build-bench.log"; exit 1; }
fi
BODIES="$OUT/bodies"
rm -rf "$BODIES"
dotnet "$ROOT/bench/ProtoHttp.Benchmarks/bin/Release/net10.0/ProtoHttp.Benchmarks.dll" --bodies "$BODIES" >/dev/null

# Server i answers on HTTP_PORT + 2i (HTTP/1.1) and H2C_PORT + 2i (h2c).
NAMES=()
DLLS=()
for server in "${SERVERS[@]}"; do NAMES+=("${server%%=*}"); DLLS+=("${server#*=}"); done
for i in "${!DLLS[@]}"; do
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$((HTTP_PORT + 2 * i))/health"; then
    echo "load.sh: something already answers on port $((HTTP_PORT + 2 * i)); set PEER_HTTP_PORT/PEER_H2C_PORT" >&2
    exit 1
  fi
done

SERVER_PIDS=()
cleanup() {
  for pid in "${SERVER_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT

for i in "${!DLLS[@]}"; do
  h1="http://127.0.0.1:$((HTTP_PORT + 2 * i))"
  log "starting PeerServer ${NAMES[i]:-(this tree)} on core $SERVER_CPU (ports $((HTTP_PORT + 2 * i)), $((H2C_PORT + 2 * i)))"
  taskset -c "$SERVER_CPU" dotnet "${DLLS[i]}" \
    --http-port "$((HTTP_PORT + 2 * i))" --h2c-port "$((H2C_PORT + 2 * i))" >"$OUT/server$i.log" 2>&1 &
  pid=$!
  SERVER_PIDS+=("$pid")
  for _ in $(seq 1 120); do
    curl -s -o /dev/null --max-time 1 "$h1/health" && break
    kill -0 "$pid" 2>/dev/null || { cat "$OUT/server$i.log"; echo "PeerServer exited" >&2; exit 1; }
    sleep 0.5
  done
  curl -s -o /dev/null --max-time 1 "$h1/health" || { echo "PeerServer did not start in 60 s" >&2; exit 1; }
done

# --- configurations ------------------------------------------------------------------------------------------------
# id|workload|records|format|peer|protocol|method|path|content type|body file
CONFIGS=()
add() { [[ -z "$ONLY" || "${1%%|*}" =~ $ONLY ]] && CONFIGS+=("$1") || true; }
# A ratio's two sides run back to back (ProtoHttp beside its peers), so load that comes and goes on a shared machine
# hits both alike; even runs go through the list backwards, so neither side always runs first.
add "w3-protobuf-protohttp|w3|1|protobuf|protohttp|h1|POST|/ProtoService.proto/Search|application/x-protobuf|search.pb"
add "w3-protobuf-raw|w3|1|protobuf|raw|h1|POST|/raw/search.pb|application/x-protobuf|search.pb"
add "w3-protobuf-raw-routed|w3|1|protobuf|raw-routed|h1|POST|/raw-routed/search.pb|application/x-protobuf|search.pb"
add "w3-protobuf-protohttp-h2c|w3|1|protobuf|protohttp-h2c|h2c|POST|/ProtoService.proto/Search|application/x-protobuf|search.pb"
add "w3-protobuf-grpc|w3|1|protobuf|grpc|h2c|POST|/ProtoService.SearchService/Search|application/grpc|search.grpc"
# Connect on the same services, at the paths gRPC uses too (PeerServer maps both).
add "w3-protobuf-connect|w3|1|protobuf|connect|h1|POST|/ProtoService.SearchService/Search|application/proto|search.pb"
add "w3-json-protohttp|w3|1|json|protohttp|h1|POST|/ProtoService.proto/Search|application/json|search.json"
add "w3-json-raw|w3|1|json|raw|h1|POST|/raw/search.json|application/json|search.json"
add "w3-json-raw-routed|w3|1|json|raw-routed|h1|POST|/raw-routed/search.json|application/json|search.json"
add "w3-json-minimal|w3|1|json|minimal|h1|POST|/minimal/search|application/json|search.stj.json"
add "w3-json-transcoding|w3|1|json|transcoding|h1|POST|/transcoded/search|application/json|search.json"
add "w3-json-connect|w3|1|json|connect|h1|POST|/ProtoService.SearchService/Search|application/json|search.json"
add "w3-get-protohttp|w3|1|get|protohttp|h1|GET|/ProtoService.proto/Search?query=Chai&result_per_page=1||"
add "w3-get-minimal|w3|1|get|minimal|h1|GET|/minimal/search?query=Chai&result_per_page=1||"
add "w3-get-transcoding|w3|1|get|transcoding|h1|GET|/transcoded/search?query=Chai&result_per_page=1||"
add "w3-xml-protohttp|w3|1|xml|protohttp|h1|POST|/ProtoService.proto/Search|application/xml|search.xml"
add "w3-form-protohttp|w3|1|form|protohttp|h1|POST|/ProtoService.proto/Search|application/x-www-form-urlencoded|search.form"
for n in 0 10 100 1000; do
  add "w2-$n-protobuf-protohttp|w2|$n|protobuf|protohttp|h1|POST|/Records.proto/Echo|application/x-protobuf|echo-$n.pb"
  add "w2-$n-protobuf-raw|w2|$n|protobuf|raw|h1|POST|/raw/echo-$n.pb|application/x-protobuf|echo-$n.pb"
  add "w2-$n-protobuf-protohttp-h2c|w2|$n|protobuf|protohttp-h2c|h2c|POST|/Records.proto/Echo|application/x-protobuf|echo-$n.pb"
  add "w2-$n-protobuf-grpc|w2|$n|protobuf|grpc|h2c|POST|/Records.RecordService/Echo|application/grpc|echo-$n.grpc"
  add "w2-$n-protobuf-connect|w2|$n|protobuf|connect|h1|POST|/Records.RecordService/Echo|application/proto|echo-$n.pb"
  add "w2-$n-json-protohttp|w2|$n|json|protohttp|h1|POST|/Records.proto/Echo|application/json|echo-$n.json"
  add "w2-$n-json-minimal|w2|$n|json|minimal|h1|POST|/minimal/echo|application/json|echo-$n.stj.json"
  add "w2-$n-json-transcoding|w2|$n|json|transcoding|h1|POST|/transcoded/echo|application/json|echo-$n.json"
  add "w2-$n-json-connect|w2|$n|json|connect|h1|POST|/Records.RecordService/Echo|application/json|echo-$n.json"
  add "w2-$n-xml-protohttp|w2|$n|xml|protohttp|h1|POST|/Records.proto/Echo|application/xml|echo-$n.xml"
done

# W8 (REST routes from google.api.http rules, ProtoHttp's beside transcoding's on the same rules): the search rows
# answer W3's one result; the GetOrders rows W1's 830 orders, the first and the last among them.
for side in protohttp transcoding; do
  add "w8-search-get-$side|w8|1|get|$side|h1|GET|/w8/$side/search?query=Chai&result_per_page=1||"
  add "w8-search-post-$side|w8|1|post|$side|h1|POST|/w8/$side/search|application/json|search.json"
  add "w8-orders-get-$side|w8|830|get|$side|h1|GET|/w8/$side/orders||"
done
# expected_body ID BODY_FILE: the reason a configuration's answer is wrong, or nothing when it is right (or unchecked).
expected_body() {
  local id=$1 file=$2
  case $id in
    w8-search-*)
      grep -Eq '"title": ?"Chai"' "$file" && [[ $(grep -o '"url":' "$file" | wc -l) -eq 1 ]] || echo "not W3's one result for Chai" ;;
    w8-orders-*)
      [[ $(grep -o '"orderId":' "$file" | wc -l) -eq 830 ]] && grep -Eq '"orderId": ?10248,' "$file" && grep -Eq '"orderId": ?11077,' "$file" \
        || echo "not W1's 830 orders" ;;
  esac
}

# One request through curl: the peer must answer 200 (and gRPC status 0, and the expected body where one is known)
# before it is measured.
probe() {
  local id=$1 protocol=$2 method=$3 url=$4 type=$5 body=$6
  local args=(-s -o "$OUT/probe.body" -D "$OUT/probe.headers" -w '%{http_code}' --max-time 10 -X "$method")
  [[ -n "$type" ]] && args+=(-H "content-type: $type")
  [[ -n "$body" ]] && args+=(--data-binary "@$body")
  if [[ $protocol == h2c ]]; then
    args+=(--http2-prior-knowledge)
    [[ $type == application/grpc ]] && args+=(-H "te: trailers")
  fi
  local status
  status=$(curl "${args[@]}" "$url" || echo 000)
  if [[ $status != 200 ]]; then echo "HTTP $status"; return 1; fi
  if [[ $type == application/grpc ]] && ! grep -qi '^grpc-status: 0' "$OUT/probe.headers"; then echo "grpc-status not 0"; return 1; fi
  local wrong
  wrong=$(expected_body "$id" "$OUT/probe.body")
  if [[ -n "$wrong" ]]; then echo "200 with a wrong body: $wrong"; return 1; fi
  return 0
}

# One timed run; prints a JSON object with calls/s, p99 and the failures seen.
measure() {
  local protocol=$1 method=$2 url=$3 type=$4 body=$5 seconds=$6
  local limit=$((seconds + 30))
  if [[ $protocol == h1 ]]; then
    local line
    line=$(METHOD=$method BODY_FILE=$body CONTENT_TYPE=$type timeout "$limit" taskset -c "$LOAD_CPU" \
      wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s -s "$ROOT/bench/load/request.lua" "$url" | grep '^WRK_RESULT ' || true)
    [[ -n "$line" ]] || { echo '{"error":"wrk printed no result"}'; return; }
    echo "${line#WRK_RESULT }"
  else
    local args=(-c "$CONNECTIONS" -m 1 -t 1 -D "$seconds" --log-file="$OUT/h2load.log")
    [[ -n "$type" ]] && args+=(-H "content-type: $type")
    [[ $type == application/grpc ]] && args+=(-H "te: trailers")
    if [[ -s "$body" ]]; then
      args+=(-d "$body")
    elif [[ $method == POST ]]; then
      args+=(-H ":method: POST") # h2load cannot map an empty data file; a POST with no body is the empty message
    fi
    local text
    text=$(timeout "$limit" taskset -c "$LOAD_CPU" h2load "${args[@]}" "$url" 2>&1 || true)
    # Latencies (µs) are the third column of h2load's per-request log; p50 and p99 are taken from them.
    cut -f3 "$OUT/h2load.log" | sort -n >"$OUT/h2load.sorted"
    awk -v text="$text" '
      { d[NR] = $1 }
      END {
        # "requests: T total, S started, D done, OK succeeded, F failed, E errored, TO timeout"
        # "status codes: A 2xx, B 3xx, C 4xx, D 5xx" (counted as headers arrive, so 2xx may exceed done)
        n = split(text, lines, "\n"); ok = 0; bad = 0; errored = 0; timeouts = 0; secs = 0
        for (i = 1; i <= n; i++) {
          if (lines[i] ~ /^finished in/) { split(lines[i], f, /[ ,]+/); secs = f[3]; sub(/s$/, "", secs) }
          if (lines[i] ~ /^requests:/) { split(lines[i], f, /[ ,]+/); ok = f[8]; errored = f[12]; timeouts = f[14] }
          if (lines[i] ~ /^status codes:/) { split(lines[i], f, /[ ,]+/); bad = f[5] + f[7] + f[9] }
        }
        i50 = int(NR * 0.50); if (i50 < 1) i50 = 1
        i99 = int(NR * 0.99); if (i99 < 1) i99 = 1
        printf "{\"requests\":%d,\"duration_us\":%d,\"non_2xx\":%d,\"socket_errors\":%d,\"timeouts\":%d,\"p50_us\":%d,\"p99_us\":%d}\n", ok, secs * 1000000, bad, errored, timeouts, d[i50], d[i99]
      }' "$OUT/h2load.sorted"
  fi
}

# url_of PROTOCOL PATH SERVER_INDEX
url_of() { [[ $1 == h2c ]] && echo "http://127.0.0.1:$((H2C_PORT + 2 * $3))$2" || echo "http://127.0.0.1:$((HTTP_PORT + 2 * $3))$2"; }
body_of() { [[ -n "$1" ]] && echo "$BODIES/$1" || echo ""; }

RESULTS="$OUT/load.jsonl"
PROBES_FAILED=0
: >"$RESULTS"
: >"$OUT/load-skipped.txt"
ACTIVE=()
for config in "${CONFIGS[@]}"; do
  IFS='|' read -r id workload records format peer protocol method path type bodyname <<<"$config"
  body=$(body_of "$bodyname")
  if [[ -n "$bodyname" && ! -f "$body" ]]; then
    echo "$id|no request body ($bodyname): the format's codec is not in this build" >>"$OUT/load-skipped.txt"
    log "skip $id: no $bodyname (codec not in this build)"
    continue
  fi
  # Measured only where every build answers, so that each build's ratios are of the same configurations.
  answers=1
  for i in "${!DLLS[@]}"; do
    if ! reason=$(probe "$id" "$protocol" "$method" "$(url_of "$protocol" "$path" "$i")" "$type" "$body"); then
      echo "$id|${NAMES[i]:+${NAMES[i]} }answers $reason" >>"$OUT/load-skipped.txt"
      log "skip $id: ${NAMES[i]:+${NAMES[i]} }answers $reason"
      # W8's rows are this tree's own: one that does not answer right here (or with a wrong body in any build) is broken.
      if [[ $id == w8-* && ( -z "${NAMES[i]}" || $reason == *"wrong body"* ) ]]; then
        log "FAILED $id: ${NAMES[i]:+${NAMES[i]} }answers $reason"
        PROBES_FAILED=$((PROBES_FAILED + 1))
      fi
      answers=0
      break
    fi
  done
  [[ $answers -eq 1 ]] && ACTIVE+=("$config")
done
log "${#ACTIVE[@]} configurations answer 200; $(wc -l <"$OUT/load-skipped.txt") skipped"

if [[ $WARMUP_SECONDS -gt 0 ]]; then
  log "warm-up: ${WARMUP_SECONDS} s per configuration"
  for i in "${!DLLS[@]}"; do
    for config in "${ACTIVE[@]}"; do
      IFS='|' read -r id workload records format peer protocol method path type bodyname <<<"$config"
      measure "$protocol" "$method" "$(url_of "$protocol" "$path" "$i")" "$type" "$(body_of "$bodyname")" "$WARMUP_SECONDS" >/dev/null
    done
  done
fi

FAILED=0
for run in $(seq "$FIRST_RUN" $((FIRST_RUN + RUNS - 1))); do
  log "run $run: ${#ACTIVE[@]} configurations x ${#DLLS[@]} build(s) x ${SECONDS_PER_RUN} s"
  ORDER=("${ACTIVE[@]}")
  if (( run % 2 == 0 )); then
    ORDER=()
    for ((i = ${#ACTIVE[@]} - 1; i >= 0; i--)); do ORDER+=("${ACTIVE[i]}"); done
  fi
  # Each build measures all its configurations in one block (a ratio's sides stay back to back); the builds take
  # turns going first.
  BUILD_ORDER=("${!DLLS[@]}")
  if (( run % 2 == 0 )); then
    BUILD_ORDER=()
    for ((i = ${#DLLS[@]} - 1; i >= 0; i--)); do BUILD_ORDER+=("$i"); done
  fi
  for server in "${BUILD_ORDER[@]}"; do
    for config in "${ORDER[@]}"; do
      IFS='|' read -r id workload records format peer protocol method path type bodyname <<<"$config"
      load1=$(cut -d' ' -f1 /proc/loadavg)
      result=$(measure "$protocol" "$method" "$(url_of "$protocol" "$path" "$server")" "$type" "$(body_of "$bodyname")" "$SECONDS_PER_RUN")
      printf '{"id":"%s","workload":"%s","records":%s,"format":"%s","peer":"%s","protocol":"%s","run":%d,"connections":%d,"build":"%s","load1":%s,"result":%s}\n' \
        "$id" "$workload" "$records" "$format" "$peer" "$protocol" "$run" "$CONNECTIONS" "${NAMES[server]}" "$load1" "$result" >>"$RESULTS"
      # A run with no calls, or any non-2xx answer or socket error, means a broken path, never a slow one.
      if ! grep -q '"requests":[1-9]' <<<"$result" || ! grep -q '"non_2xx":0,"socket_errors":0,' <<<"$result" || grep -q '"error"' <<<"$result"; then
        log "FAILED ${NAMES[server]:+${NAMES[server]} }$id run $run: $result"
        PROBES_FAILED=$((PROBES_FAILED + 1))
      fi
    done
  done
done

{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"runs\":$RUNS,\"seconds\":$SECONDS_PER_RUN,\"connections\":$CONNECTIONS,\"quick\":$QUICK,"
  echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //;s/"//g')\",\"cores\":$(nproc),"
  echo "\"dotnet\":\"$(dotnet --version)\",\"wrk\":\"$(wrk -v 2>&1 | head -1 | sed 's/"//g')\",\"h2load\":\"$(h2load --version 2>&1 | head -1)\"}"
} >"$OUT/load-env.json"

TOTAL=$(( ${#ACTIVE[@]} * RUNS * ${#DLLS[@]} ))
echo "load: $((TOTAL - FAILED)) passed, $FAILED failed; $PROBES_FAILED W8 configuration(s) not answering right"
[[ $FAILED -eq 0 && $PROBES_FAILED -eq 0 ]]
