# Sourced by the CI scripts that publish or start a server and then talk to it over HTTP (.ci/native-sample.sh,
# .ci/native-middleware.sh, .ci/openapi/validate.sh): the publish, the start, the wait and the stop, written once.

# publish_native PROJECT OUT EXECUTABLE [ARGS...]: publishes PROJECT for linux-x64 in Release into OUT (emptied first),
# with any further dotnet publish ARGS, and fails unless OUT then holds EXECUTABLE. Native AOT is the project's own
# setting or an ARG (-p:PublishAot=true); its trim and AOT warnings fail the publish, as warnings are errors.
publish_native() {
  local project=$1 out=$2 executable=$3
  shift 3
  rm -rf "$out"
  dotnet publish "$project" -c Release -r linux-x64 -o "$out" "$@"
  [ -x "$out/$executable" ] || { echo "$project: no $executable executable in $out" >&2; exit 1; }
}

# start_server PROBE_URL COMMAND [ARGS...]: runs COMMAND in the background with its output in $server_log, and waits
# until PROBE_URL answers with a success (60 s at most, for a dotnet run on a loaded machine). Fails with the server's
# output if it stops first or never answers, rather than letting every check after it fail for an unclear reason.
# The server is stopped and its log removed when the script exits, however it exits.
server=
server_log=$(mktemp)
stop_server() {
  [ -z "$server" ] || { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=; }
  rm -f "$server_log"
}
trap stop_server EXIT

start_server() {
  local probe=$1
  shift
  "$@" >"$server_log" 2>&1 &
  server=$!
  for _ in $(seq 1 120); do
    curl -sf -o /dev/null "$probe" && return 0
    kill -0 "$server" 2>/dev/null || { cat "$server_log"; echo "$1 stopped before $probe answered" >&2; exit 1; }
    sleep 0.5
  done
  cat "$server_log"
  echo "$1 did not answer $probe within 60 s" >&2
  exit 1
}
