-- wrk script for one load configuration, set through the environment by bench/load.sh:
--   METHOD, BODY_FILE (may be empty), CONTENT_TYPE (may be empty).
-- Prints one line "WRK_RESULT {json}" with the counts and latency percentiles the report needs.
wrk.method = os.getenv("METHOD") or "GET"

local body_file = os.getenv("BODY_FILE")
if body_file ~= nil and body_file ~= "" then
  local f = assert(io.open(body_file, "rb"))
  wrk.body = f:read("*a")
  f:close()
end

local content_type = os.getenv("CONTENT_TYPE")
if content_type ~= nil and content_type ~= "" then
  wrk.headers["Content-Type"] = content_type
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"non_2xx":%d,"socket_errors":%d,"timeouts":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
