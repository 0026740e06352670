#!/usr/bin/env bash
# Runs the README's examples exactly as printed against the sample server, and fails on any surprise.
# With --binary PATH it starts that build of the sample instead of `dotnet run` (.ci/native-sample.sh passes the
# Native AOT one); the typed client at the end runs under the JIT either way.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=""
if [ "${1:-}" = "--binary" ]; then
  binary=${2:?--binary needs the path of the sample executable}
fi

URL=http://localhost:5080
log=$(mktemp)
server=
stop_sample() { [ -z "$server" ] || { kill $server 2>/dev/null; wait $server 2>/dev/null || true; server=; }; }
trap 'stop_sample; rm -f "$log"' EXIT
# Starts the sample as the README prints it (built already: Release, --no-build), with the arguments given after --,
# and waits until it answers.
start_sample() {
  if [ -n "$binary" ]; then
    # The binary takes the app's arguments without dotnet run's -- before them.
    [ "${1:-}" != "--" ] || shift
    "$binary" "$@" >"$log" 2>&1 &
  else
    dotnet run --project samples/SearchService -c Release --no-build "$@" >"$log" 2>&1 &
  fi
  server=$!
  for _ in $(seq 1 60); do
    curl -sf -o /dev/null "$URL/ProtoService.proto" && break
    sleep 1
  done
  grep -q "Now listening on: $URL" "$log" || { cat "$log"; echo "the sample did not print $URL"; exit 1; }
}

fail() { echo "README smoke: $1"; exit 1; }
start_sample
grep -q "Hosting environment: Production" "$log" || fail "the sample run without arguments is not in Production"
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

# The descriptors, for tools: a FileDescriptorSet protoc decodes, imports first.
curl -s -H 'Accept: application/x-protobuf' $URL/Northwind.proto \
  | protoc --decode=google.protobuf.FileDescriptorSet -I /usr/include google/protobuf/descriptor.proto 2>/dev/null \
  | grep -q 'name: "NorthwindService"' || fail "the FileDescriptorSet did not decode to NorthwindService"

# The OpenAPI document: Order's orderDate is a Timestamp in its JSON form.
curl -s $URL/openapi/v1.json | jq -e '.components.schemas["Northwind.Order"].properties.orderDate.format == "date-time"' >/dev/null \
  || fail "the OpenAPI document does not describe orderDate as a date-time string"

# The error answers.
[ "$(status -X POST $URL/ProtoService.proto/Nope)" = 404 ] || fail "unknown method is not 404"
[ "$(status -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.proto/Search)" = 500 ] || fail "empty query is not 500"
[ "$(status -X POST -H 'Content-Type: image/png' -d x $URL/ProtoService.proto/Search)" = 415 ] || fail "unknown Content-Type is not 415"
[ "$(status -X POST -H 'Accept: image/png' -H 'Content-Type: application/json' -d '{"query":"chai"}' $URL/ProtoService.proto/Search)" = 406 ] || fail "Accept: image/png is not 406"
[ "$(status -X PUT $URL/ProtoService.proto/Search)" = 405 ] || fail "PUT is not 405"
curl -s -X PUT $URL/ProtoService.proto/Search | jq -e '.code == "UNIMPLEMENTED"' >/dev/null || fail "405 has no ErrorResult"
# Outside Development a service exception's message stays on the server.
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.proto/Search \
  | jq -e '.errorText == "The service failed to handle the call."' >/dev/null || fail "the 500 in Production is not the fixed sentence"

# GET: JSON for curl, XML when asked for or with the .xml suffix, and for a browser's Accept.
curl -s "$URL/ProtoService.proto/Search?query=chai" | jq -e '.result[0].title == "Chai"' >/dev/null || fail "GET did not answer JSON hits"
curl -s -H 'Accept: application/xml' "$URL/ProtoService.proto/Search?query=chai" | grep -q '^<root><result><url>[^<]*</url><title>Chai</title>' || fail "Accept: application/xml did not answer XML"
curl -s "$URL/ProtoService.proto/Search.xml?query=chai" | grep -q '^<root><result><url>[^<]*</url><title>Chai</title>' || fail "the .xml suffix did not answer XML"
[ "$(curl -s -o /dev/null -w '%{content_type}' -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' "$URL/ProtoService.proto/Search?query=chai")" = 'application/xml; charset=utf-8' ] || fail "a browser's Accept did not get XML"
# A form post, as the search page's POST form sends it.
curl -s -d 'query=chai&result_per_page=2' $URL/ProtoService.proto/Search | jq -e '.result | length == 2' >/dev/null || fail "the form post did not give two hits"
# An XML body, any root name; answered in XML.
curl -s -X POST -H 'Content-Type: application/xml' -d '<SearchRequest><query>chai</query></SearchRequest>' $URL/ProtoService.proto/Search \
  | grep -q '<title>Chai</title>' || fail "the XML body did not find Chai"
# Bad input is a 400 naming the problem.
curl -s "$URL/ProtoService.proto/Search?query=chai&page_number=abc" | jq -e '.errorText | contains("page_number")' >/dev/null || fail "page_number=abc is not a 400 naming the key"
[ "$(status -X POST -H 'Content-Type: application/xml' -d '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r><query>&x;</query></r>' $URL/ProtoService.proto/Search)" = 400 ] || fail "an XML DTD is not 400"

# Streams: the price feed as events and as NDJSON lines (cut off after a few ticks, as Ctrl-C would), the bounded
# replay as lines and as events ending with the end event.
{ curl -s -N --max-time 3 $URL/NorthwindStreams.proto/WatchPrices.sse || true; } | grep -q '^data: { "sequence"' || fail "the price feed sent no events"
{ curl -s -N --max-time 3 -H 'Accept: application/x-ndjson' $URL/NorthwindStreams.proto/WatchPrices || true; } | head -1 | jq -e '.result.unitPrice > 0' >/dev/null || fail "the price feed sent no NDJSON lines"
{ curl -s -N --max-time 3 -H 'Last-Event-ID: 40-0' $URL/NorthwindStreams.proto/WatchPrices.sse || true; } | grep -q '^id: ' || fail "the resumed price feed sent no events with ids"
[ "$(curl -s -N "$URL/NorthwindStreams.proto/ReplayOrders?limit=3" | jq -s 'map(.result.orderId)' -c)" = '[10248,10249,10250]' ] || fail "the replay did not send three orders as lines"
curl -s -N -H 'Accept: text/event-stream' "$URL/NorthwindStreams.proto/ReplayOrders?limit=3" | tail -3 | grep -qx 'data: {"code":"OK"}' || fail "the replay's events did not end with end: OK"

# The typed client sample.
dotnet run --project samples/SearchClient -c Release --no-build -- chai | grep -q Chai || fail "SearchClient did not print Chai"

# The Development line, after -- as the README prints it (before --, the .NET 10 SDK takes --environment for itself):
# detailed errors are on, so the 500 carries the exception's message.
stop_sample
start_sample -- --environment Development
grep -q "Hosting environment: Development" "$log" || fail "-- --environment Development did not run the sample in Development"
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.proto/Search \
  | jq -e '.errorText == "The service failed to handle the call. The query is empty."' >/dev/null || fail "Development did not turn on detailed errors"

echo "README smoke: 27 passed, 0 failed"
