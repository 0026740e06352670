#!/usr/bin/env bash
# The Native AOT figures of BENCHMARKS.md: W3's search served three ways, each published native, plus ProtoHttp under
# the JIT, measured side by side in one run (bench/AotSearch):
#   protohttp-aot   ProtoHttpSearch published with PublishAot (protobuf over HTTP/1.1, and over h2c)
#   protohttp-aot-no-xml  the same with the ProtoHttp.Xml.IsSupported feature switch off: what an app that serves
#                   no XML trims (README, "Native AOT")
#   protohttp-jit   the same project published framework-dependent (the JIT, tiered compilation and PGO on)
#   grpc-aot        GrpcSearch, Grpc.AspNetCore published with PublishAot (gRPC over h2c)
#   minimal-aot     MinimalSearch, a Minimal API with System.Text.Json source generation published with PublishAot (JSON)
#
#   bench/aot.sh [--out DIR] [--runs N] [--seconds S] [--connections C] [--no-publish] [--allow-warnings]
#
# Per run and server, in an order that rotates from run to run: a fresh process pinned to core 0; the time from its
# start to the first answered W3 call (a loop that tries a TCP connect every millisecond, then one curl call, retried
# until it answers 200); its RSS after 1 s idle, and of it the anonymous (private) part; a warm-up; then W3 load from core 1 (wrk over HTTP/1.1, h2load over h2c;
# 16 connections) with the RSS sampled every 100 ms (its peak is reported). Sizes: the native binary, and the whole
# publish folder without the catalogue's data, symbols and XML docs. Results are JSON lines in DIR/aot.jsonl and a summary in DIR/aot.md.
# --allow-warnings publishes with warnings not treated as errors (for developing this script against code that does
# not publish cleanly yet; figures from such a build are not the goal's). Native publishes take minutes: this script
# is not part of bench/run-all.sh --quick (run-all.sh --aot runs it).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/bench/results/aot"
RUNS=5
SECONDS_PER_RUN=5
WARMUP_SECONDS=3
CONNECTIONS=16
PUBLISH=1
ALLOW_WARNINGS=0
BASE_PORT=${AOT_PORT:-5301}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    --seconds) SECONDS_PER_RUN=$2; shift ;;
    --connections) CONNECTIONS=$2; shift ;;
    --no-publish) PUBLISH=0 ;;
    --allow-warnings) ALLOW_WARNINGS=1 ;;
    *) echo "aot.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[aot %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
for tool in curl taskset timeout python3 wrk h2load clang; do
  command -v "$tool" >/dev/null || { echo "aot.sh needs $tool (Debian: curl util-linux coreutils python3 wrk nghttp2-client clang zlib1g-dev)" >&2; exit 1; }
done
SERVER_CPU=0
LOAD_CPU=1
if [[ $(nproc) -lt 2 ]]; then LOAD_CPU=0; log "only one core: server and load share it"; fi

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PUB="$OUT/publish"
RID=linux-x64

# --- publish -------------------------------------------------------------------------------------------------------
publish() {
  local name=$1 project=$2; shift 2
  local args=(-c Release -r "$RID" -nologo -o "$PUB/$name" "$@")
  [[ $ALLOW_WARNINGS -eq 1 ]] && args+=(-p:TreatWarningsAsErrors=false)
  log "publishing $name"
  rm -rf "${PUB:?}/$name"
  if ! dotnet publish "$ROOT/bench/AotSearch/$project/$project.csproj" "${args[@]}" >"$OUT/publish-$name.log" 2>&1; then
    grep -E 'error|warning' "$OUT/publish-$name.log" | sort -u | tail -40
    echo "aot.sh: publishing $name failed (full log: $OUT/publish-$name.log)" >&2
    exit 1
  fi
  local warnings
  warnings=$(grep -E 'warning [A-Z]+[0-9]+:' "$OUT/publish-$name.log" | sed 's/ \[.*\]$//' | sort -u | wc -l || true)
  log "$name: $warnings distinct warnings"
  echo "$warnings" >"$PUB/$name.warnings"
}
if [[ $PUBLISH -eq 1 ]]; then
  publish protohttp-aot ProtoHttpSearch
  publish protohttp-aot-no-xml ProtoHttpSearch -p:ProtoHttpXml=false
  publish protohttp-jit ProtoHttpSearch -p:PublishAot=false --self-contained false
  publish grpc-aot GrpcSearch
  publish minimal-aot MinimalSearch
fi

# --- request bodies: W3's SearchRequest{query: "Chai", result_per_page: 1} -----------------------------------------
BODIES="$OUT/bodies"
mkdir -p "$BODIES"
printf '\x0a\x04Chai\x18\x01' >"$BODIES/search.pb"
printf '\x00\x00\x00\x00\x08\x0a\x04Chai\x18\x01' >"$BODIES/search.grpc"
printf '{"query":"Chai","resultPerPage":1}' >"$BODIES/search.stj.json"

# target|server folder|executable|protocol|path|content type|body
TARGETS=(
  "protohttp-aot|protohttp-aot|ProtoHttpSearch|h1|/ProtoService.proto/Search|application/x-protobuf|search.pb"
  "protohttp-aot-no-xml|protohttp-aot-no-xml|ProtoHttpSearch|h1|/ProtoService.proto/Search|application/x-protobuf|search.pb"
  "protohttp-jit|protohttp-jit|ProtoHttpSearch|h1|/ProtoService.proto/Search|application/x-protobuf|search.pb"
  "grpc-aot|grpc-aot|GrpcSearch|h2c|/ProtoService.SearchService/Search|application/grpc|search.grpc"
  "minimal-aot|minimal-aot|MinimalSearch|h1|/minimal/search|application/json|search.stj.json"
)
# ProtoHttp over h2c too, against the same processes, for a like-for-like row beside gRPC.
H2C_EXTRA="protohttp-aot protohttp-aot-no-xml protohttp-jit"

HTTP_PORT=$BASE_PORT
H2C_PORT=$((BASE_PORT + 1))
if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$HTTP_PORT/"; then
  echo "aot.sh: something already answers on port $HTTP_PORT; set AOT_PORT" >&2
  exit 1
fi

SERVER_PID=""
SAMPLER_PID=""
stop_server() {
  if [[ -n "$SAMPLER_PID" ]]; then kill "$SAMPLER_PID" 2>/dev/null || true; wait "$SAMPLER_PID" 2>/dev/null || true; SAMPLER_PID=""; fi
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT

url_of() { [[ $1 == h2c ]] && echo "http://127.0.0.1:$H2C_PORT$2" || echo "http://127.0.0.1:$HTTP_PORT$2"; }

# One call through curl; succeeds on 200 (and gRPC status 0).
call_once() {
  local protocol=$1 url=$2 type=$3 body=$4
  local args=(-s -o /dev/null -D "$OUT/call.headers" -w '%{http_code}' --max-time 5 -X POST -H "content-type: $type" --data-binary "@$body")
  if [[ $protocol == h2c ]]; then args+=(--http2-prior-knowledge -H "te: trailers"); fi
  [[ $(curl "${args[@]}" "$url" 2>/dev/null || echo 000) == 200 ]] || return 1
  [[ $type != application/grpc ]] || grep -qi '^grpc-status: 0' "$OUT/call.headers"
}

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# The anonymous (private: GC heap, stacks, the runtime's own) part of the RSS; the rest is the binary's file pages,
# clean and shared, which track the binary's size (the kernel maps a cached file's neighbouring pages on each fault).
anon_kb() { awk '/^RssAnon:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# Prints the calls/s, p50/p99 (µs) and failures of one timed load as JSON.
load() {
  local protocol=$1 url=$2 type=$3 body=$4 seconds=$5
  local limit=$((seconds + 30))
  if [[ $protocol == h1 ]]; then
    local line
    line=$(METHOD=POST BODY_FILE=$body CONTENT_TYPE=$type timeout "$limit" taskset -c "$LOAD_CPU" \
      wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s -s "$ROOT/bench/load/request.lua" "$url" | grep '^WRK_RESULT ' || true)
    [[ -n "$line" ]] && echo "${line#WRK_RESULT }" || echo '{"error":"wrk printed no result"}'
  else
    local args=(-c "$CONNECTIONS" -m 1 -t 1 -D "$seconds" --log-file="$OUT/h2load.log" -H "content-type: $type" -d "$body")
    [[ $type == application/grpc ]] && args+=(-H "te: trailers")
    local text
    text=$(timeout "$limit" taskset -c "$LOAD_CPU" h2load "${args[@]}" "$url" 2>&1 || true)
    cut -f3 "$OUT/h2load.log" | sort -n >"$OUT/h2load.sorted"
    awk -v text="$text" '
      { d[NR] = $1 }
      END {
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

# Waits for the port with a TCP connect every millisecond, then calls until the answer is 200; prints the ms from start.
first_call_ms() {
  local start_ns=$1 protocol=$2 url=$3 type=$4 body=$5 port=$6
  python3 - "$port" "$SERVER_PID" <<'PY' || return 1
import os, socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    if not os.path.exists(f"/proc/{pid}"):
        sys.exit(1)
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.001)
sys.exit(1)
PY
  for _ in $(seq 1 500); do
    if call_once "$protocol" "$url" "$type" "$body"; then
      echo $(( ($(date +%s%N) - start_ns) / 1000000 ))
      return 0
    fi
    sleep 0.01
  done
  return 1
}

RESULTS="$OUT/aot.jsonl"
: >"$RESULTS"
FAILED=0
COUNT=${#TARGETS[@]}
for run in $(seq 1 "$RUNS"); do
  for k in $(seq 0 $((COUNT - 1))); do
    config=${TARGETS[$(( (k + run - 1) % COUNT ))]}
    IFS='|' read -r id folder exe protocol path type bodyname <<<"$config"
    body="$BODIES/$bodyname"
    binary="$PUB/$folder/$exe"
    [[ -x "$binary" ]] || { echo "aot.sh: $binary is missing: publish first" >&2; exit 1; }
    port=$HTTP_PORT; [[ $protocol == h2c ]] && port=$H2C_PORT
    url=$(url_of "$protocol" "$path")

    start_ns=$(date +%s%N)
    taskset -c "$SERVER_CPU" "$binary" --port "$HTTP_PORT" --h2c-port "$H2C_PORT" >"$OUT/server-$id.log" 2>&1 &
    SERVER_PID=$!
    if ! startup_ms=$(first_call_ms "$start_ns" "$protocol" "$url" "$type" "$body" "$port"); then
      cat "$OUT/server-$id.log" >&2
      echo "aot.sh: $id did not answer W3 within 60 s" >&2
      exit 1
    fi
    sleep 1
    idle_kb=$(rss_kb "$SERVER_PID")
    idle_anon_kb=$(anon_kb "$SERVER_PID")

    load "$protocol" "$url" "$type" "$body" "$WARMUP_SECONDS" >/dev/null
    echo 0 >"$OUT/peak.kb"
    ( peak=0; while kill -0 "$SERVER_PID" 2>/dev/null; do r=$(rss_kb "$SERVER_PID"); if [[ $r -gt $peak ]]; then peak=$r; echo "$peak" >"$OUT/peak.kb"; fi; sleep 0.1; done ) &
    SAMPLER_PID=$!
    result=$(load "$protocol" "$url" "$type" "$body" "$SECONDS_PER_RUN")
    loaded_kb=$(cat "$OUT/peak.kb")
    h2c_result=null
    if [[ " $H2C_EXTRA " == *" $id "* ]]; then
      h2c_result=$(load h2c "$(url_of h2c "$path")" "$type" "$body" "$SECONDS_PER_RUN")
    fi
    stop_server

    printf '{"id":"%s","run":%d,"startup_ms":%d,"idle_rss_kb":%d,"idle_anon_kb":%d,"load_rss_kb":%d,"w3":%s,"w3_h2c":%s}\n' \
      "$id" "$run" "$startup_ms" "$idle_kb" "$idle_anon_kb" "$loaded_kb" "$result" "$h2c_result" >>"$RESULTS"
    log "run $run $id: first call after $startup_ms ms, idle $((idle_kb / 1024)) MB, under load $((loaded_kb / 1024)) MB, $result"
    for r in "$result" "$h2c_result"; do
      [[ $r == null ]] && continue
      if ! grep -q '"requests":[1-9]' <<<"$r" || ! grep -q '"non_2xx":0,"socket_errors":0,' <<<"$r" || grep -q '"error"' <<<"$r"; then
        log "FAILED $id run $run: $r"
        FAILED=$((FAILED + 1))
      fi
    done
  done
done

# --- sizes and summary ---------------------------------------------------------------------------------------------
for t in "${TARGETS[@]}"; do
  IFS='|' read -r id folder exe _ <<<"$t"
  binary_bytes=$(stat -c %s "$PUB/$folder/$exe")
  folder_bytes=$(find "$PUB/$folder" -type f ! -path '*/Data/*' ! -name '*.pdb' ! -name '*.dbg' ! -name '*.xml' -printf '%s\n' | awk '{ s += $1 } END { print s }')
  warnings=$(cat "$PUB/$folder.warnings" 2>/dev/null || echo null)
  printf '{"size":"%s","binary_bytes":%d,"folder_bytes":%d,"publish_warnings":%s}\n' "$id" "$binary_bytes" "$folder_bytes" "$warnings" >>"$RESULTS"
done
{
  echo "{\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"runs\":$RUNS,\"seconds\":$SECONDS_PER_RUN,\"connections\":$CONNECTIONS,"
  echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //;s/"//g')\",\"cores\":$(nproc),\"dotnet\":\"$(dotnet --version)\",\"load_average\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
} >"$OUT/aot-env.json"
python3 "$ROOT/bench/report/aot_report.py" "$RESULTS" >"$OUT/aot.md"
cat "$OUT/aot.md"
echo "aot: $((RUNS * COUNT)) measurements, $FAILED failed"
[[ $FAILED -eq 0 ]]
