-- wrk script for bench/soak.sh: a fixed mix of ProtoHttp calls (protobuf, JSON, XML, form and GET; Search and
-- Northwind's GetOrders and Roundtrip), taken in turn, with every answer's status counted.
-- SOAK_BODIES names the folder where soak.sh put the protobuf bodies protoc encoded.

local folder = os.getenv("SOAK_BODIES")

local function file(name)
  local f = assert(io.open(folder .. "/" .. name, "rb"))
  local data = f:read("*a")
  f:close()
  return data
end

local function post(path, contentType, body)
  return wrk.format("POST", path, { ["Content-Type"] = contentType }, body)
end

local requests = {}
-- Globals, so done() can collect them from each thread with thread:get().
statuses = {}
local counter = 0

function init(args)
  requests = {
    post("/ProtoService.proto/Search", "application/x-protobuf", file("search.pb")),
    post("/ProtoService.proto/Search", "application/json", '{"query":"cheese","resultPerPage":5}'),
    post("/ProtoService.proto/Search", "application/xml", "<root><query>sauce</query><page_number>1</page_number></root>"),
    post("/ProtoService.proto/Search", "application/x-www-form-urlencoded", "query=chocolate&result_per_page=3"),
    wrk.format("GET", "/ProtoService.proto/Search?query=tea&page_number=1"),
    wrk.format("GET", "/ProtoService.proto/Search.xml?query=chai"),
    post("/Northwind.proto/GetOrders", "application/x-protobuf", ""),
    wrk.format("GET", "/Northwind.proto/GetOrders.pb"),
    post("/Northwind.proto/Roundtrip", "application/x-protobuf", file("orders.pb")),
    post("/Northwind.proto/Roundtrip", "application/json", file("orders.json")),
  }
end

function request()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, n in pairs(counts) do
      total[status] = (total[status] or 0) + n
    end
  end

  local non2xx = 0
  local line = ""
  for status, n in pairs(total) do
    line = line .. " " .. status .. "=" .. n
    if status < 200 or status > 299 then
      non2xx = non2xx + n
    end
  end

  io.write(string.format("SOAK requests=%d duration_s=%.1f rps=%.0f p50_ms=%.2f p99_ms=%.2f connect=%d read=%d write=%d timeout=%d status_errors=%d non2xx=%d statuses:%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status,
    non2xx, line))
end
