#!/usr/bin/env bash
# An app of its own published with Native AOT (tests/ProtoHttp.NativeMiddleware): ProtoHttp inside ASP.NET Core's
# request timeouts, output cache and response compression. The publish fails on any trim or AOT warning (warnings are
# errors); then the native binary is checked as docs/aspnetcore.md says each middleware behaves around ProtoHttp.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/serve.sh

out=${TMPDIR:-/tmp}/protohttp-native-middleware
publish_native tests/ProtoHttp.NativeMiddleware "$out" ProtoHttp.NativeMiddleware

URL=http://127.0.0.1:5095
P=$URL/middleware_service.proto
start_server "$P" "$out/ProtoHttp.NativeMiddleware" --urls $URL

passed=0
fail() { echo "native middleware: $1"; cat "$server_log"; exit 1; }
ok() { passed=$((passed + 1)); }
json() { curl -s -H 'Content-Type: application/json' "$@"; }
serial() { curl -s -H "Accept: ${2:-application/json}" "$P/Lookup?key=$1" | tr -d '\n' | grep -o '"serial": *"[0-9]*"\|<serial>[0-9]*</serial>' | tr -dc '0-9'; }

# Request timeouts: the 1 s default policy is each unary call's deadline, and a call past it answers 504
# DEADLINE_EXCEEDED in its own format (docs/protocol.md section 11).
json -d '{"key":"quick"}' $P/Lookup | jq -e '.hasDeadline == true' >/dev/null || fail "a unary call did not see the host's timeout as its deadline"; ok
[ "$(json -o /dev/null -w '%{http_code}' -d '{"delayMs":3000}' $P/Lookup)" = 504 ] || fail "a call past the timeout did not answer 504"; ok
json -d '{"delayMs":3000}' $P/Lookup | jq -e '.code == "DEADLINE_EXCEEDED"' >/dev/null || fail "the JSON 504 is no DEADLINE_EXCEEDED ErrorResult"; ok
json -H 'Accept: application/xml' -d '{"delayMs":3000}' $P/Lookup | grep -q '<code>DEADLINE_EXCEEDED</code>' || fail "the XML 504 is no DEADLINE_EXCEEDED"; ok
json -d '{"delayMs":3000}' $URL/protohttp.tests.middleware.MiddlewareService/Lookup | jq -e '.code == "deadline_exceeded"' >/dev/null \
  || fail "the Connect 504 is no deadline_exceeded error"; ok
# Streams are left out of the default policy (as under grpc-dotnet): a 1.2 s feed ends with OK.
events=$(json -N -H 'Accept: text/event-stream' -d '{"count":3,"intervalMs":600}' $P/Feed)
[ "$(grep -c '"sequence"\|"serial"' <<<"$events")" -ge 3 ] && grep -q '"OK"' <<<"$events" || fail "a stream longer than the timeout did not end with OK: $events"; ok

# Output cache (.CacheOutput() on the service): a side-effect-free GET is stored per Accept, a POST never is.
key=$RANDOM$RANDOM
first=$(serial $key); again=$(serial $key); xml=$(serial $key application/xml); xml_again=$(serial $key application/xml)
[ -n "$first" ] && [ "$first" = "$again" ] || fail "a second GET was not answered from the store ($first, $again)"; ok
[ -n "$xml" ] && [ "$xml" != "$first" ] && [ "$xml" = "$xml_again" ] || fail "XML was not stored apart from JSON ($first, $xml, $xml_again)"; ok
one=$(json -d "{\"key\":\"$key\"}" $P/Update | jq -r .serial); two=$(json -d "{\"key\":\"$key\"}" $P/Update | jq -r .serial)
[ "$one" != "$two" ] || fail "a POST was answered from the store"; ok
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept: text/event-stream' "$P/Feed?count=1")" = 200 ] || fail "a GET stream failed under the output cache"; ok

# Response compression: unary answers in gzip and Brotli decode to the same message; a stream stays prompt (its first
# record arrives while the stream is still open).
plain=$(curl -s "$P/Lookup?key=big&size=5000&stable=true")
curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' "$P/Lookup?key=big&size=5000&stable=true" \
  | tr -d '\r' | grep -qi '^content-encoding: gzip$' \
  || fail "a large JSON answer was not gzipped"; ok
[ "$(curl -s -H 'Accept-Encoding: gzip' "$P/Lookup?key=big&size=5000&stable=true" | gzip -dc)" = "$plain" ] || fail "the gzipped answer does not decode to the plain one"; ok
curl -s -D - -o /dev/null -H 'Accept: application/x-protobuf' -H 'Accept-Encoding: br' "$P/Lookup?key=big&size=5000&stable=true" \
  | tr -d '\r' | grep -qi '^content-encoding: br$' || fail "a protobuf answer was not Brotli-compressed"; ok
first_event=$(curl -s -N --compressed --max-time 2 -H 'Accept: text/event-stream' -H 'Accept-Encoding: gzip' -X POST \
  -H 'Content-Type: application/json' -d '{"count":1,"wait":true}' $P/Watch || true)
grep -q '"sequence"\|"serial"' <<<"$first_event" || fail "a gzipped stream held its first record back: '$first_event'"; ok

# The explorer and the .proto through all three.
curl -s --compressed -H 'Accept: text/html' $URL/protohttp | grep -q MiddlewareService || fail "the explorer does not list MiddlewareService"; ok
curl -s --compressed "$P?format=text" | grep -q 'service MiddlewareService' || fail "the .proto source is not served"; ok

# No error logged: a deadline is the caller's outcome, not the server's failure.
! grep -q '^fail:\|Unhandled' "$server_log" || fail "the app logged a failure"
echo "native middleware: $passed checks passed, 0 failed"
