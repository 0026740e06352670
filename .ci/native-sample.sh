#!/usr/bin/env bash
# The sample published with Native AOT, as the README says (clang and zlib1g-dev from Debian; the SDK fetches the
# ILCompiler package itself): the publish fails on any trim or AOT warning (warnings are errors), and the native
# binary answers the README's examples, every format, stream framing and protocol, and the typed client under the JIT.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/serve.sh

out=${TMPDIR:-/tmp}/protohttp-native
publish_native samples/SearchService "$out" SearchService -p:PublishAot=true

# The README's examples, exactly as printed, against the native binary.
bash .ci/readme-smoke.sh --binary "$out/SearchService"

# What the README does not show, on ports of its own.
URL=http://127.0.0.1:5090
start_server "$URL/healthz/ready" "$out/SearchService" --urls $URL --Grpc:Url=http://127.0.0.1:5091

passed=0
fail() { echo "native sample: $1"; cat "$server_log"; exit 1; }
ok() { passed=$((passed + 1)); }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
proto() { protoc "$@" --proto_path=protos --proto_path=src/ProtoHttp/Protos 2>/dev/null; }

# W1 in each format, byte for byte the sizes the JIT build writes (docs/benchmarks.md), and read back by Roundtrip.
orders=$(mktemp -d)
curl -s -X POST -H 'Accept: application/x-protobuf' -o "$orders/pb" $URL/Northwind.proto/GetOrders
curl -s -X POST -H 'Accept: application/json' -o "$orders/json" $URL/Northwind.proto/GetOrders
curl -s -X POST -H 'Accept: application/xml' -o "$orders/xml" $URL/Northwind.proto/GetOrders
[ "$(wc -c <"$orders/pb")" = 122327 ] || fail "GetOrders in protobuf is not 122,327 bytes"; ok
[ "$(wc -c <"$orders/json")" = 446520 ] || fail "GetOrders in JSON is not 446,520 bytes"; ok
jq -e '.orders | length == 830' "$orders/json" >/dev/null || fail "GetOrders in JSON does not hold 830 orders"; ok
[ "$(grep -o '<orders>' "$orders/xml" | wc -l)" = 830 ] || fail "GetOrders in XML does not hold 830 orders"; ok
for format in pb:application/x-protobuf json:application/json xml:application/xml; do
  name=${format%%:*} type=${format#*:}
  curl -s -X POST -H "Content-Type: $type" -H "Accept: $type" --data-binary @"$orders/$name" -o "$orders/$name.back" $URL/Northwind.proto/Roundtrip
  cmp -s "$orders/$name" "$orders/$name.back" || fail "Roundtrip in $type did not answer what it was sent"; ok
done
rm -rf "$orders"

# Errors in each format: the ErrorResult as protobuf, XML and JSON, and Connect's error object.
curl -s -X POST -H 'Content-Type: application/json' -H 'Accept: application/x-protobuf' -d '{"query":""}' $URL/ProtoService.proto/Search \
  | proto --decode=protohttp.ErrorResult error_result.proto | grep -q 'code: "' || fail "the protobuf error is no ErrorResult"; ok
curl -s -X POST -H 'Content-Type: application/json' -H 'Accept: application/xml' -d '{"query":""}' $URL/ProtoService.proto/Search \
  | grep -q '<code>[A-Z_]*</code>' || fail "the XML error has no code"; ok
curl -s -X POST -H 'Content-Type: application/xml' -d '<r><result_per_page>x</result_per_page></r>' $URL/ProtoService.proto/Search \
  | grep -q '<code>INVALID_ARGUMENT</code>' || fail "a bad XML body is not an XML INVALID_ARGUMENT"; ok
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":1' $URL/ProtoService.proto/Search \
  | jq -e '.code == "INVALID_ARGUMENT"' >/dev/null || fail "broken JSON is not a JSON INVALID_ARGUMENT"; ok
[ "$(status -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.SearchService/Search)" = 500 ] \
  || fail "a Connect call that throws is not 500"; ok
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":""}' $URL/ProtoService.SearchService/Search \
  | jq -e '.code == "unknown"' >/dev/null || fail "a Connect error is not Connect's error object"; ok

# Connect unary in JSON and in protobuf, and a GET with the message in the query.
curl -s -X POST -H 'Content-Type: application/json' -d '{"query":"chai"}' $URL/ProtoService.SearchService/Search \
  | jq -e '.result[0].title == "Chai"' >/dev/null || fail "Connect unary JSON did not find Chai"; ok
echo 'query: "chai"' | proto --encode=ProtoService.SearchRequest ProtoService.proto \
  | curl -s -X POST -H 'Content-Type: application/proto' --data-binary @- $URL/ProtoService.SearchService/Search \
  | proto --decode=ProtoService.SearchResponse ProtoService.proto | grep -q 'title: "Chai"' || fail "Connect unary protobuf did not find Chai"; ok
curl -s "$URL/Northwind.NorthwindService/GetOrders?encoding=json&message=%7B%7D" \
  | jq -e '.orders | length == 830' >/dev/null || fail "Connect GET of GetOrders did not answer 830 orders"; ok
# GET binding repeated, nested and Timestamp fields from the query, answered in JSON and, with .xml, in XML.
[ "$(curl -s "$URL/Northwind.proto/FindOrders?customer_ids=VINET&customer_ids=TOMSP&ordered.from=1996-01-01T00:00:00Z&limit=3" \
  | jq -c '[.orders[].orderId]')" = '[10248,10249,10274]' ] || fail "GET FindOrders did not bind its query"; ok
curl -s "$URL/Northwind.proto/FindOrders.xml?customer_ids=VINET&limit=1" \
  | grep -q '^<root><orders><order_id>10248</order_id><customer_id>VINET</customer_id>' || fail "GET FindOrders.xml did not answer XML"; ok

# Streams in Connect envelopes: ProtoHttp's route by Accept, and Connect's own route with an enveloped request.
curl -s -N -H 'Accept: application/connect+json' "$URL/NorthwindStreams.proto/ReplayOrders?limit=3" \
  | tr -c '[:print:]' '\n' | grep -c '"orderId"' | grep -qx 3 || fail "the replay sent no three Connect envelopes"; ok
printf '\0\0\0\0\13{"limit":2}' \
  | curl -s -N -X POST -H 'Content-Type: application/connect+json' --data-binary @- $URL/Northwind.NorthwindStreams/ReplayOrders \
  | tr -c '[:print:]' '\n' | grep -c '"orderId"' | grep -qx 2 || fail "Connect's server stream did not send two orders"; ok
# A client stream in one envelope per order: the summary counts them.
printf '\0\0\0\0\21{"orderId":10248}\0\0\0\0\21{"orderId":10249}' \
  | curl -s -X POST -H 'Content-Type: application/connect+json' --data-binary @- $URL/Northwind.NorthwindStreams/UploadOrders \
  | tr -c '[:print:]' '\n' | grep -q '"orders": *2\|"orders":2' || fail "the upload did not count two orders"; ok

# gRPC-Web as a browser's client sends it (framing by .ci/grpcweb.py, from docs/protocol.md section 12): binary frames
# of JSON, base64 text frames of protobuf, and a server stream; each answer is its messages and then status 0.
grpcweb() { python3 .ci/grpcweb.py "$@"; }
answer=$(printf '{"query":"chai"}' | grpcweb frame \
  | curl -s -X POST -H 'Content-Type: application/grpc-web+json' --data-binary @- $URL/ProtoService.SearchService/Search | grpcweb read) \
  || fail "gRPC-Web JSON was not answered in gRPC-Web frames"
jq -e '.result[0].title == "Chai"' <<<"$(head -1 <<<"$answer")" >/dev/null || fail "gRPC-Web JSON did not find Chai: $answer"; ok
grep -q '^grpc-status: *0' <<<"$answer" || fail "gRPC-Web JSON did not end with grpc-status 0: $answer"; ok
text=$(echo 'query: "chai"' | proto --encode=ProtoService.SearchRequest ProtoService.proto | grpcweb frame --text \
  | curl -s -X POST -H 'Content-Type: application/grpc-web-text' --data-binary @- $URL/ProtoService.SearchService/Search) \
  || fail "gRPC-Web text could not be sent"
grpcweb first --text <<<"$text" | proto --decode=ProtoService.SearchResponse ProtoService.proto | grep -q 'title: "Chai"' \
  || fail "gRPC-Web text did not find Chai: $text"; ok
grpcweb read --text <<<"$text" | grep -aq '^grpc-status: *0' || fail "gRPC-Web text did not end with grpc-status 0: $text"; ok
answer=$(printf '{"limit":2}' | grpcweb frame \
  | curl -s -N -X POST -H 'Content-Type: application/grpc-web+json' --data-binary @- $URL/Northwind.NorthwindStreams/ReplayOrders | grpcweb read) \
  || fail "gRPC-Web's server stream was not answered in gRPC-Web frames"
[ "$(grep -c '"orderId"' <<<"$answer")" = 2 ] && grep -q '^grpc-status: *0' <<<"$answer" \
  || fail "gRPC-Web's server stream did not send two orders and status 0: $answer"; ok

# The explorer page and its script, and readiness.
curl -s $URL/protohttp | grep -q 'SearchService' || fail "the explorer page does not list SearchService"; ok
[ "$(status $URL/healthz/ready)" = 200 ] || fail "the native sample is not ready"; ok

# The typed client under the JIT against the native server: each format, Connect, and both stream directions.
client() { dotnet run --project samples/SearchClient -c Release --no-build -- --address $URL "$@"; }
for format in protobuf json xml; do
  client --format $format chai | grep -q Chai || fail "SearchClient --format $format did not print Chai"; ok
done
client --protocol connect chai | grep -q Chai || fail "SearchClient --protocol connect did not print Chai"; ok
client --replay 3 | grep -c 10248 | grep -q 1 || fail "SearchClient --replay 3 did not print order 10248"; ok
client --upload 3 | grep -q "uploaded 3 orders" || fail "SearchClient --upload 3 did not upload three orders"; ok

# Errors logged: only the service's own exception on an empty query, which the error checks above provoke.
unexpected=$(grep -A1 '^fail:' "$server_log" | grep -v '^fail: ProtoHttp.ProtoService.SearchService\|^--$\|Search: the service threw an exception.' || true)
[ -z "$unexpected" ] && ! grep -q 'Unhandled' "$server_log" || fail "the native sample logged an unexpected failure: $unexpected"
echo "native sample: README smoke passed, $passed more checks passed, 0 failed"
