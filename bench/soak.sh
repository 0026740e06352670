#!/usr/bin/env bash
# Load and soak: the sample built in Release, driven by wrk with a mix of protobuf, JSON, XML, form and GET calls of
# Search and Northwind's GetOrders/Roundtrip, 64 connections. Reports calls/s, errors, non-2xx answers and the
# server's memory (RSS) at start, after warm-up and at the end.
# Fails on any socket error or timeout, any non-2xx answer, or end memory more than 20% above after-warm-up.
#
#   bench/soak.sh          # 60 s (after a 15 s warm-up)
#   bench/soak.sh 10       # 10 s, for CI (after a 5 s warm-up)
#
# Loopback only. The server is pinned to core 0 and wrk to core 1 when taskset and two cores are there.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-60}
connections=${SOAK_CONNECTIONS:-64}
if ! [[ "$duration" =~ ^[0-9]+$ ]] || [ "$duration" -lt 1 ] || [ "$duration" -gt 3600 ]; then
  echo "usage: bench/soak.sh [seconds, 1-3600]" >&2
  exit 2
fi
warmup=$(( duration >= 60 ? 15 : 5 ))

for tool in wrk protoc curl dotnet; do
  command -v "$tool" >/dev/null || { echo "soak: '$tool' is missing (Debian: apt-get install wrk protobuf-compiler curl)" >&2; exit 2; }
done

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Request bodies: protobuf encoded by protoc from text, so the script needs no generated code.
printf 'query: "chai"\npage_number: 1\nresult_per_page: 5\n' | protoc --encode=ProtoService.SearchRequest -Iprotos protos/ProtoService.proto 2> >(grep -v "No syntax specified" >&2) > "$work/search.pb"
protoc --encode=Northwind.OrderList -Iprotos protos/Northwind.proto < bench/soak/orders.txtpb > "$work/orders.pb"
cp bench/soak/orders.json "$work/orders.json"

echo "soak: building the sample in Release"
dotnet build samples/SearchService -c Release -o "$work/app" --nologo -v quiet -clp:ErrorsOnly >/dev/null

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo $(( 20000 + RANDOM % 20000 )); }
http_port=$(port)
grpc_port=$(port)
while [ "$grpc_port" = "$http_port" ]; do grpc_port=$(port); done
base="http://127.0.0.1:$http_port"

pin_server=() pin_wrk=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c 0) pin_wrk=(taskset -c 1)
fi

echo "soak: starting the sample at $base"
"${pin_server[@]}" dotnet "$work/app/SearchService.dll" --environment Production \
  "--Kestrel:Endpoints:Http:Url=$base" --Kestrel:Endpoints:Http:Protocols=Http1 \
  "--Kestrel:Endpoints:Grpc:Url=http://127.0.0.1:$grpc_port" --Kestrel:Endpoints:Grpc:Protocols=Http2 \
  --Logging:LogLevel:Default=Warning > "$work/server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 120); do
  curl -fsS -o /dev/null "$base/ProtoService.proto/Search?query=chai" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { echo "soak: the server exited" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.5
done
curl -fsS -o /dev/null "$base/ProtoService.proto/Search?query=chai" || { echo "soak: the server did not answer" >&2; exit 1; }

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status"; }
run_wrk() { # seconds, output file
  SOAK_BODIES="$work" "${pin_wrk[@]}" wrk -t1 "-c$connections" "-d${1}s" --timeout 5s --latency -s bench/soak/mix.lua "$base" > "$2"
}

rss_start=$(rss_kib)
echo "soak: warming up for ${warmup}s"
run_wrk "$warmup" "$work/warmup.txt"
rss_warm=$(rss_kib)
echo "soak: ${duration}s at $connections connections"
run_wrk "$duration" "$work/soak.txt"
rss_end=$(rss_kib)
cat "$work/soak.txt"

summary=$(grep '^SOAK ' "$work/soak.txt")
warm_summary=$(grep '^SOAK ' "$work/warmup.txt")
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }
errors=$(( $(field connect "$summary") + $(field read "$summary") + $(field write "$summary") + $(field timeout "$summary") ))
warm_errors=$(( $(field connect "$warm_summary") + $(field read "$warm_summary") + $(field write "$warm_summary") + $(field timeout "$warm_summary") ))
non2xx=$(( $(field non2xx "$summary") + $(field non2xx "$warm_summary") ))
requests=$(field requests "$summary")
rps=$(field rps "$summary")
growth=$(awk -v w="$rss_warm" -v e="$rss_end" 'BEGIN { printf "%.1f", (e - w) * 100 / w }')

echo
echo "soak: ${duration}s, $connections connections, ${requests} calls, ${rps} calls/s"
echo "soak: errors (connect/read/write/timeout) ${errors} (warm-up ${warm_errors}), non-2xx ${non2xx}"
echo "soak: RSS start $((rss_start / 1024)) MiB, after warm-up $((rss_warm / 1024)) MiB, end $((rss_end / 1024)) MiB (${growth}% over warm-up)"
if grep -Eq 'fail|crit|Unhandled' "$work/server.log"; then
  echo "soak: the server logged failures:" >&2
  grep -E -m 20 'fail|crit|Unhandled' "$work/server.log" >&2
  status=1
fi

status=${status:-0}
[ "$requests" -gt 0 ] || { echo "soak: FAIL: no calls completed" >&2; status=1; }
[ "$errors" -eq 0 ] && [ "$warm_errors" -eq 0 ] || { echo "soak: FAIL: socket errors or timeouts" >&2; status=1; }
[ "$non2xx" -eq 0 ] || { echo "soak: FAIL: non-2xx answers" >&2; status=1; }
awk -v w="$rss_warm" -v e="$rss_end" 'BEGIN { exit !(e <= w * 1.2) }' || { echo "soak: FAIL: memory grew more than 20% after warm-up" >&2; status=1; }
[ "$status" -eq 0 ] && echo "soak: PASS"
exit "$status"
