#!/usr/bin/env bash
# Runs every benchmark of BENCHMARKS.md and writes docs/benchmarks.md with its chart docs/benchmarks.png.
#
#   bench/run-all.sh            the full suite: BenchmarkDotNet (about 10 min) + load, 5 runs x 5 s (about 25 min)
#                               + streaming (bench/stream-load.sh: W4 push, typed client, W5 fan-out; about 35 min)
#                               + duplex (bench/duplex-load.sh: W7 echo over WebSocket against SignalR and gRPC; about 7 min)
#   bench/run-all.sh --aot      also the Native AOT figures (bench/aot.sh: four publishes, three of them native, several
#                               minutes each; never part of --quick)
#   bench/run-all.sh --quick    CI: every benchmark once and a 2 s load run per peer, correctness only, no timing;
#                               streaming with 2,000 messages and 200 subscribers (about 45 s), failing on any error;
#                               duplex with 50 sockets and 1 s windows (about 50 s), failing on any error;
#                               + W6 scale-out (bench/scale-out.sh: two instances on one Redis against SignalR's Redis
#                               backplane, then a reconnect storm; under 8 min)
#   bench/run-all.sh --aot      also the Native AOT figures (bench/aot.sh: four publishes, three of them native, several
#                               minutes each; never part of --quick)
#   bench/run-all.sh --quick    CI: every benchmark once and a 2 s load run per peer, correctness only, no timing;
#                               streaming with 2,000 messages and 200 subscribers (about 45 s), W6 with 2 x 100
#                               subscribers (about 30 s), failing on any error;
#                               writes its report under the results folder, never into docs/
#
# Options: --results DIR (default bench/results, git-ignored), and for the load script --runs N --seconds S
# --connections C. Needs the .NET SDK, python3, curl, and from Debian wrk, nghttp2-client and gnuplot-nox (the
# chart), which are installed when missing and running as root.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
QUICK=0
AOT=0
LOAD_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --aot) AOT=1 ;;
    --results) RESULTS=$2; shift ;;
    --runs|--seconds|--connections) LOAD_ARGS+=("$1" "$2"); shift ;;
    *) echo "run-all.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
log() { printf '[run-all %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
START=$(date +%s)

if [[ $QUICK -eq 0 ]] && ! command -v gnuplot >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  log "installing gnuplot-nox for the chart"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox fonts-dejavu-core >/dev/null
fi

log "building the benchmarks (Release)"
dotnet build "$ROOT/bench/ProtoHttp.Benchmarks/ProtoHttp.Benchmarks.csproj" -c Release -nologo -v q >"$RESULTS/build.log" 2>&1 || { cat "$RESULTS/build.log"; exit 1; }

log "BenchmarkDotNet suite"
rm -rf "$RESULTS/bdn"
BDN_ARGS=(--artifacts "$RESULTS/bdn")
[[ $QUICK -eq 1 ]] && BDN_ARGS+=(--quick)
# BenchmarkDotNet writes its files relative to the current folder too: keep them out of the repository root.
(cd "$RESULTS" && dotnet "$ROOT/bench/ProtoHttp.Benchmarks/bin/Release/net10.0/ProtoHttp.Benchmarks.dll" "${BDN_ARGS[@]}") >"$RESULTS/bdn.log" 2>&1 \
  || { tail -50 "$RESULTS/bdn.log"; echo "run-all.sh: the BenchmarkDotNet suite failed (full log: $RESULTS/bdn.log)" >&2; exit 1; }
grep -E '^(self-check|benchmarks):' "$RESULTS/bdn.log"

log "load"
LOAD_OPTS=(--out "$RESULTS/load")
[[ $QUICK -eq 1 ]] && LOAD_OPTS+=(--quick)
"$ROOT/bench/load.sh" "${LOAD_OPTS[@]}" "${LOAD_ARGS[@]}"

log "streaming"
STREAM_OPTS=(--out "$RESULTS/stream")
[[ $QUICK -eq 1 ]] && STREAM_OPTS+=(--quick)
"$ROOT/bench/stream-load.sh" "${STREAM_OPTS[@]}"

log "duplex"
DUPLEX_OPTS=(--out "$RESULTS/duplex" --no-build)
[[ $QUICK -eq 1 ]] && DUPLEX_OPTS+=(--quick)
"$ROOT/bench/duplex-load.sh" "${DUPLEX_OPTS[@]}"
log "W6 scale-out"
SCALE_OPTS=(--out "$RESULTS/scaleout")
[[ $QUICK -eq 1 ]] && SCALE_OPTS+=(--quick)
"$ROOT/bench/scale-out.sh" "${SCALE_OPTS[@]}"

if [[ $AOT -eq 1 && $QUICK -eq 0 ]]; then
  log "Native AOT"
  "$ROOT/bench/aot.sh" --out "$RESULTS/aot"
fi

log "report"
if [[ $QUICK -eq 1 ]]; then
  python3 "$ROOT/bench/report/make_report.py" --results "$RESULTS" --out "$RESULTS/benchmarks.md"
else
  mkdir -p "$ROOT/docs"
  python3 "$ROOT/bench/report/make_report.py" --results "$RESULTS" --out "$ROOT/docs/benchmarks.md" \
    --chart "$ROOT/docs/benchmarks.png" --notes "$ROOT/bench/report/findings.md" \
    --stream-notes "$ROOT/bench/report/stream-findings.md" --duplex-notes "$ROOT/bench/report/duplex-findings.md"
fi
log "done in $(( $(date +%s) - START )) s"
