# The StreamPeers server and StreamLoad tool as bench/stream-load.sh and bench/duplex-load.sh run them: sourced by both,
# after they set ROOT, OUT, BUILD, BASE_PORT, SCRIPT (the script's name and its port variable, for errors) and log.
# Checks the tools, pins the server to core 0 and the load to core 1 (SERVER_CPU, LOAD_CPU), lifts the file limit (each
# held call or subscriber is a socket in each process), builds both Release (unless BUILD=0); start_server SLOT TICK_MS starts a fresh StreamPeers, pinned to SERVER_CPU, on
# the ports of SLOT (slots alternate, so a new run's connections never meet the last run's sockets in TIME_WAIT), sets
# HTTP_PORT and H2C_PORT, and waits for it; stop_server stops it (also on exit).

for tool in curl taskset timeout; do
  command -v "$tool" >/dev/null || { echo "$SCRIPT needs $tool" >&2; exit 1; }
done
SERVER_CPU=0
LOAD_CPU=1
if [[ $(nproc) -lt 2 ]]; then LOAD_CPU=0; log "only one core: server and load share it"; fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p "$OUT"
if [[ $BUILD -eq 1 ]]; then
  log "building Release"
  for project in StreamPeers StreamLoad; do
    dotnet build "$ROOT/bench/$project/$project.csproj" -c Release -nologo -v q >"$OUT/build-$project.log" 2>&1 || { cat "$OUT/build-$project.log"; exit 1; }
  done
fi
SERVER_DLL="$ROOT/bench/StreamPeers/bin/Release/net10.0/StreamPeers.dll"
LOAD_DLL="$ROOT/bench/StreamLoad/bin/Release/net10.0/StreamLoad.dll"

SERVER_PID=""
stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT

start_server() {
  local slot=$1 tick=$2
  HTTP_PORT=$((BASE_PORT + 2 * slot))
  H2C_PORT=$((HTTP_PORT + 1))
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$HTTP_PORT/health"; then
    echo "$SCRIPT: something already answers on port $HTTP_PORT" >&2
    exit 1
  fi
  taskset -c "$SERVER_CPU" dotnet "$SERVER_DLL" --http-port "$HTTP_PORT" --h2c-port "$H2C_PORT" --tick-ms "$tick" >>"$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 120); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$HTTP_PORT/health" && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -20 "$OUT/server.log"; echo "StreamPeers exited" >&2; exit 1; }
    sleep 0.25
  done
  echo "StreamPeers did not start in 30 s" >&2
  exit 1
}
