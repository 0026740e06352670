// connect-es's gRPC-Web transport, a gRPC-Web client nobody on this project wrote, calling the ProtoHttp sample at the
// same paths Connect and gRPC use: unary in both codecs, a server stream, an error with its details, a deadline; and
// the text mode (base64) read raw with fetch, as browsers without binary XHR send it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient, ConnectError, Code } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { fromBinary, toBinary, create } from "@bufbuild/protobuf";
import { SearchService, SearchRequestSchema, SearchResponseSchema } from "./gen/ProtoService_pb.js";
import { NorthwindStreams } from "./gen/NorthwindStreams_pb.js";

const http1 = process.env.PROTOHTTP_URL;
const h2c = process.env.PROTOHTTP_H2C_URL;

function transport(options) {
  const seen = [];
  const record = (next) => async (req) => {
    const res = await next(req);
    seen.push({ contentType: res.header.get("content-type") });
    return res;
  };
  return { seen, transport: createGrpcWebTransport({ httpVersion: "1.1", baseUrl: http1, interceptors: [record], ...options }) };
}

for (const [name, options, contentType] of [
  ["protobuf over HTTP/1.1", { useBinaryFormat: true }, "application/grpc-web+proto"],
  ["JSON over HTTP/1.1", { useBinaryFormat: false }, "application/grpc-web+json"],
  ["protobuf over h2c", { useBinaryFormat: true, httpVersion: "2", baseUrl: h2c }, "application/grpc-web+proto"],
  ["JSON over h2c", { useBinaryFormat: false, httpVersion: "2", baseUrl: h2c }, "application/grpc-web+json"],
]) {
  test(`gRPC-Web: Search finds Chai, ${name}`, async () => {
    const { transport: t, seen } = transport(options);
    const answer = await createClient(SearchService, t).search({ query: "chai" });
    assert.equal(answer.result[0].title, "Chai");
    // ProtoHttp answered, not grpc-dotnet (mapped on the same path, without its gRPC-Web middleware).
    assert.equal(seen[0].contentType, contentType);
  });
}

test("gRPC-Web server streaming: a bounded replay of the orders ends on its own, in both codecs", async () => {
  for (const useBinaryFormat of [true, false]) {
    const { transport: t } = transport({ useBinaryFormat });
    const ids = [];
    for await (const order of createClient(NorthwindStreams, t).replayOrders({ limit: 5 })) {
      ids.push(order.orderId);
    }
    assert.deepEqual(ids, [10248, 10249, 10250, 10251, 10252]);
  }
});

test("gRPC-Web: an error's code, message and google.rpc.BadRequest detail, from the trailers frame", async () => {
  for (const useBinaryFormat of [true, false]) {
    const { transport: t } = transport({ useBinaryFormat });
    const error = await createClient(SearchService, t).search({ query: "chai", pageNumber: 0 }).then(
      () => assert.fail("page_number 0 must fail"),
      (e) => ConnectError.from(e),
    );
    assert.equal(error.code, Code.InvalidArgument);
    assert.equal(error.rawMessage, "page_number starts at 1, not 0.");
    assert.equal(error.details.length, 1);
    assert.equal(error.details[0].type, "google.rpc.BadRequest");
    assert.ok(new TextDecoder().decode(error.details[0].value).includes("page_number"));
  }
});

test("gRPC-Web: price ticks arrive until the deadline (grpc-timeout), which ends the stream with deadline_exceeded", async () => {
  const { transport: t } = transport({ useBinaryFormat: true });
  const ticks = [];
  const started = Date.now();
  const error = await (async () => {
    for await (const tick of createClient(NorthwindStreams, t).watchPrices({}, { timeoutMs: 2500 })) {
      ticks.push(tick);
    }
  })().then(
    () => assert.fail("the feed never ends by itself"),
    (e) => ConnectError.from(e),
  );
  assert.equal(error.code, Code.DeadlineExceeded);
  assert.ok(Date.now() - started < 20000, "the deadline ended the call, not a test timeout");
  assert.ok(ticks.length >= 1, "at least one tick arrives within 2.5 s");
  assert.ok(ticks.every((t) => t.productName.length > 0 && t.unitPrice > 0));
});

test("gRPC-Web text: a base64 request in two padded chunks is read, and the answer is base64 with the trailers frame last", async () => {
  const message = toBinary(SearchRequestSchema, create(SearchRequestSchema, { query: "chai", resultPerPage: 2 }));
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  // Split where base64 needs padding, as a sender that flushes mid-body may do.
  const body = frame.subarray(0, 4).toString("base64") + frame.subarray(4).toString("base64");
  assert.ok(body.indexOf("=") < body.length - 1, "the first chunk is padded");
  const response = await fetch(`${http1}/ProtoService.SearchService/Search`, {
    method: "POST",
    headers: { "Content-Type": "application/grpc-web-text", Accept: "application/grpc-web-text", "X-Grpc-Web": "1" },
    body,
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/grpc-web-text");
  const frames = decodeTextFrames(await response.text());
  assert.deepEqual(frames.map((f) => f.flags), [0x00, 0x80]);
  const answer = fromBinary(SearchResponseSchema, frames[0].payload);
  assert.deepEqual(answer.result.map((r) => r.title), ["Chai", "Chang"]);
  assert.equal(frames[1].payload.toString("ascii"), "grpc-status: 0\r\n");
});

// Frames of a text body: padded base64 chunks back to back, each decoded on its own, then the frames read.
function decodeTextFrames(text) {
  const chunks = text.match(/[^=]*=*/g).filter((c) => c.length > 0);
  const bytes = Buffer.concat(chunks.map((c) => Buffer.from(c, "base64")));
  const frames = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at + 1);
    frames.push({ flags: bytes[at], payload: bytes.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return frames;
}
