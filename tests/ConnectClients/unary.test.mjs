// connect-es, a Connect client nobody on this project wrote, calling the ProtoHttp sample's unary methods.
// run.sh starts the sample and passes its addresses: PROTOHTTP_URL (HTTP/1.1) and PROTOHTTP_H2C_URL (h2c).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient, ConnectError, Code } from "@connectrpc/connect";
import { createConnectTransport, compressionGzip } from "@connectrpc/connect-node";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { SearchService } from "./gen/ProtoService_pb.js";
import { NorthwindService } from "./gen/Northwind_pb.js";

const http1 = process.env.PROTOHTTP_URL;
const h2c = process.env.PROTOHTTP_H2C_URL;

function transport(options) {
  const seen = [];
  const record = (next) => async (req) => {
    const res = await next(req);
    seen.push({ method: req.requestMethod, encoding: res.header.get("content-encoding") });
    return res;
  };
  return { seen, transport: createConnectTransport({ httpVersion: "1.1", baseUrl: http1, interceptors: [record], ...options }) };
}

for (const [name, options] of [
  ["protobuf over HTTP/1.1", { useBinaryFormat: true }],
  ["JSON over HTTP/1.1", { useBinaryFormat: false }],
  ["protobuf over h2c", { useBinaryFormat: true, httpVersion: "2", baseUrl: h2c }],
  ["JSON over h2c", { useBinaryFormat: false, httpVersion: "2", baseUrl: h2c }],
]) {
  test(`Search finds Chai, ${name}`, async () => {
    const { transport: t, seen } = transport(options);
    const answer = await createClient(SearchService, t).search({ query: "chai" });
    assert.equal(answer.result[0].title, "Chai");
    assert.equal(seen[0].method, "POST");
  });
}

test("GetOrders, free of side effects, goes as a GET with useHttpGet", async () => {
  // connect-es turns the POST into a GET after the interceptors ran, so run.sh checks the verb in the sample's log.
  for (const useBinaryFormat of [true, false]) {
    const { transport: t } = transport({ useBinaryFormat, useHttpGet: true });
    const answer = await createClient(NorthwindService, t).getOrders({});
    assert.equal(answer.orders.length, 830);
  }
});

test("gzip both ways: a compressed request, and the 830 orders come back compressed", async () => {
  const { transport: t, seen } = transport({
    useBinaryFormat: true,
    sendCompression: compressionGzip,
    acceptCompression: [compressionGzip],
    compressMinBytes: 0,
  });
  const client = createClient(NorthwindService, t);
  const orders = await client.getOrders({});
  const echoed = await client.roundtrip(orders);
  assert.equal(echoed.orders.length, 830);
  assert.deepEqual(seen.map((s) => s.encoding), ["gzip", "gzip"]);
});

test("an error's code, message and google.rpc.BadRequest detail", async () => {
  const { transport: t } = transport({ useBinaryFormat: false });
  const error = await createClient(SearchService, t).search({ query: "chai", pageNumber: 0 }).then(
    () => assert.fail("page_number 0 must fail"),
    (e) => ConnectError.from(e),
  );
  assert.equal(error.code, Code.InvalidArgument);
  assert.equal(error.rawMessage, "page_number starts at 1, not 0.");
  assert.equal(error.details.length, 1);
  assert.equal(error.details[0].type, "google.rpc.BadRequest");
  // BadRequest { repeated FieldViolation field_violations = 1; } FieldViolation { string field = 1; ... }
  const violation = readField(error.details[0].value, 1);
  assert.equal(new TextDecoder().decode(readField(violation, 1)), "page_number");
});

// The bytes of the first length-delimited field number `wanted` in a protobuf message.
function readField(bytes, wanted) {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === wanted && wireType === 2) {
      return reader.bytes();
    }
    reader.skip(wireType);
  }
  throw new Error(`field ${wanted} not found`);
}
