#!/usr/bin/env bash
# The sample's OpenAPI document (/openapi/v1.json) against the official OpenAPI 3.1 schema, and the sample's real JSON
# answers against the document's message schemas (validate.mjs says what is checked); npm serves the validators.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error

URL=http://127.0.0.1:5391
log=$(mktemp)
dotnet run --project ../../samples/SearchService -c Release --no-build -- --urls "$URL" --Grpc:Url= >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 60); do
  curl -sf -o /dev/null "$URL/openapi/v1.json" && break
  sleep 1
done
node validate.mjs "$URL" || { cat "$log"; exit 1; }
