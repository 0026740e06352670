# The StreamPeers server and StreamLoad tool as bench/stream-load.sh and bench/duplex-load.sh run them: sourced by both,
# after they set ROOT, OUT, BUILD, BASE_PORT, SCRIPT (the script's name and its port variable, for errors) and log.
# bench/peer-setup.sh checks the tools, pins, lifts the file limit and builds StreamPeers and StreamLoad; start_server SLOT TICK_MS starts a fresh StreamPeers, pinned to SERVER_CPU, on
# the ports of SLOT (slots alternate, so a new run's connections never meet the last run's sockets in TIME_WAIT), sets
# HTTP_PORT and H2C_PORT, and waits for it; stop_server stops it (also on exit).

PEER=StreamPeers
# shellcheck source=bench/peer-setup.sh
source "$ROOT/bench/peer-setup.sh"

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
