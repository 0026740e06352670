#!/usr/bin/env bash
# The ProtoHttp.Xml.IsSupported feature switch (README, "Native AOT"): bench/AotSearch's ProtoHttp server published
# native with the switch off (0 warnings; warnings are errors) leaves the XML codec out of the binary, answers
# protobuf and JSON as before, and refuses XML like any type no codec reads (415) or writes (406), with an ErrorResult.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/serve.sh

out=${TMPDIR:-/tmp}/protohttp-native-no-xml
publish_native bench/AotSearch/ProtoHttpSearch "$out" ProtoHttpSearch -p:ProtoHttpXml=false

PORT=5097
URL=http://127.0.0.1:$PORT/ProtoService.proto/Search
body=$(mktemp -d)
trap 'stop_server; rm -rf "$body"' EXIT
start_server http://127.0.0.1:$PORT/ProtoService.proto "$out/ProtoHttpSearch" --port $PORT --h2c-port $((PORT + 1))

passed=0
fail() { echo "native without XML: $1"; cat "$server_log"; exit 1; }
ok() { passed=$((passed + 1)); }

# Protobuf and JSON answer as with the codec in.
printf '\x0a\x04Chai\x18\x01' >"$body/search.pb"
curl -s -H 'Content-Type: application/x-protobuf' --data-binary @"$body/search.pb" -D "$body/pb.headers" -o "$body/pb" $URL
grep -qi '^content-type: application/x-protobuf' "$body/pb.headers" && grep -q 'Chai' "$body/pb" || fail "protobuf did not answer the search"; ok
curl -s -H 'Content-Type: application/json' -d '{"query":"Chai","resultPerPage":1}' $URL \
  | jq -e '.result | length == 1 and (.[0].title | test("Chai"))' >/dev/null || fail "JSON did not answer the search"; ok
curl -s -H 'Content-Type: application/json' -H 'Accept: application/xml, application/json;q=0.5' -d '{"query":"Chai"}' -D "$body/fallback.headers" -o /dev/null $URL
grep -qi '^content-type: application/json' "$body/fallback.headers" || fail "an Accept that also takes JSON was not answered in JSON"; ok

# XML is refused as an unknown type: 415 for a body, 406 for an Accept that takes nothing else, each an ErrorResult in
# JSON, and Accept-Post no longer offers it.
status=$(curl -s -o "$body/415" -D "$body/415.headers" -w '%{http_code}' -H 'Content-Type: application/xml' -d '<root><query>Chai</query></root>' $URL)
[ "$status" = 415 ] || fail "an XML body answered $status, not 415"; ok
jq -e '.code == "INVALID_ARGUMENT" and (.errorText | contains("application/xml"))' "$body/415" >/dev/null || fail "the 415 is no ErrorResult naming the type: $(cat "$body/415")"; ok
! grep -qi '^accept-post:.*xml' "$body/415.headers" || fail "Accept-Post still offers XML"; ok
status=$(curl -s -o "$body/406" -w '%{http_code}' -H 'Content-Type: application/json' -H 'Accept: application/xml' -d '{"query":"Chai"}' $URL)
[ "$status" = 406 ] || fail "an Accept of XML only answered $status, not 406"; ok
jq -e '.code == "INVALID_ARGUMENT" and (.errorText | contains("application/json")) and (.errorText | contains("xml") | not)' "$body/406" >/dev/null \
  || fail "the 406 is no ErrorResult listing the types written, XML not among them: $(cat "$body/406")"; ok

# Nothing of the XML codec is compiled in: its types' names are absent from the binary.
! grep -q 'XmlMessageReader' "$out/ProtoHttpSearch" || fail "the binary still holds the XML reader"; ok

! grep -q '^fail:\|Unhandled' "$server_log" || fail "the app logged a failure"
echo "native without XML: $passed checks passed, 0 failed"
