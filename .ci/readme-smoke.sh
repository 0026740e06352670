#!/usr/bin/env bash
# Runs the README's examples exactly as printed against the sample server, and fails on any surprise.
set -euo pipefail
cd "$(dirname "$0")/.."

URL=http://localhost:5080
log=$(mktemp)
dotnet run --project samples/SearchService -c Release --no-build >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -f "$log"' EXIT

for _ in $(seq 1 60); do
  curl -sf -o /dev/null "$URL/ProtoService.proto" && break
  sleep 1
done
grep -q "Now listening on: $URL" "$log" || { cat "$log"; echo "the sample did not print $URL"; exit 1; }

fail() { echo "README smoke: $1"; exit 1; }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# JSON search finds Chai.
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":"chai"}' $URL/ProtoService.proto/Search \
  | jq -e '.result[] | select(.title == "Chai")' >/dev/null || fail "JSON search did not find Chai"

# Protobuf made by protoc, answered in protobuf that protoc decodes.
echo 'query: "chai"' | protoc --encode=ProtoService.SearchRequest --proto_path=protos protos/ProtoService.proto 2>/dev/null \
  | curl -s -X POST -H 'Content-Type: application/x-protobuf' --data-binary @- $URL/ProtoService.proto/Search \
  | protoc --decode=ProtoService.SearchResponse --proto_path=protos protos/ProtoService.proto 2>/dev/null \
  | grep -q 'title: "Chai"' || fail "protobuf search did not decode to Chai"

# The .proto itself, comments included.
curl -s $URL/ProtoService.proto | grep -q '//max field-id' || fail "the .proto was not served as written"

# The error answers.
[ "$(status -X POST $URL/ProtoService.proto/Nope)" = 404 ] || fail "unknown method is not 404"
[ "$(status -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.proto/Search)" = 500 ] || fail "empty query is not 500"
[ "$(status -X POST -H 'Content-Type: image/png' -d x $URL/ProtoService.proto/Search)" = 415 ] || fail "unknown Content-Type is not 415"
[ "$(status -X POST -H 'Accept: image/png' -H 'Content-Type: application/json' -d '{"query":"chai"}' $URL/ProtoService.proto/Search)" = 406 ] || fail "Accept: image/png is not 406"
[ "$(status -X PUT $URL/ProtoService.proto/Search)" = 405 ] || fail "PUT is not 405"
curl -s -X PUT $URL/ProtoService.proto/Search | jq -e '.code == "UNIMPLEMENTED"' >/dev/null || fail "405 has no ErrorResult"

echo "README smoke: 10 passed, 0 failed"
