#!/usr/bin/env bash
# The sample's OpenAPI document (/openapi/v1.json) against the official OpenAPI 3.1 schema, and the sample's real JSON
# answers against the document's message schemas (validate.mjs says what is checked); npm serves the validators.
set -euo pipefail
cd "$(dirname "$0")"
source ../serve.sh
npm ci --no-audit --no-fund --loglevel=error

URL=http://127.0.0.1:5391
start_server "$URL/openapi/v1.json" dotnet run --project ../../samples/SearchService -c Release --no-build -- --urls "$URL" --Grpc:Url=
node validate.mjs "$URL" || { cat "$server_log"; exit 1; }
