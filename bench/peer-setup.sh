# What the benchmarks that run a bench/ peer server beside bench/StreamLoad share: sourced by bench/stream-peers.sh
# (StreamPeers, for stream-load.sh and duplex-load.sh) and bench/scale-out.sh (ScaleOutPeers), after they set ROOT,
# OUT, BUILD, SCRIPT (the script's name, for errors), log, PEER (the server's project under bench/) and TOOLS (what
# they need beyond curl, taskset and timeout). Checks the tools, pins the servers to core 0 and the load to core 1
# (SERVER_CPU, LOAD_CPU), lifts the file limit (each held call or subscriber is a socket in each process), builds PEER
# and StreamLoad in Release (unless BUILD=0) and sets SERVER_DLL and LOAD_DLL.

for tool in curl taskset timeout ${TOOLS:-}; do
  command -v "$tool" >/dev/null || { echo "$SCRIPT needs $tool" >&2; exit 1; }
done
SERVER_CPU=0
LOAD_CPU=1
if [[ $(nproc) -lt 2 ]]; then LOAD_CPU=0; log "only one core: servers and load share it"; fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p "$OUT"
if [[ $BUILD -eq 1 ]]; then
  log "building Release"
  for project in "$PEER" StreamLoad; do
    dotnet build "$ROOT/bench/$project/$project.csproj" -c Release -nologo -v q >"$OUT/build-$project.log" 2>&1 || { cat "$OUT/build-$project.log"; exit 1; }
  done
fi
SERVER_DLL="$ROOT/bench/$PEER/bin/Release/net10.0/$PEER.dll"
LOAD_DLL="$ROOT/bench/StreamLoad/bin/Release/net10.0/StreamLoad.dll"
