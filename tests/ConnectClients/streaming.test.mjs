// connect-es calling the ProtoHttp sample's streaming methods (NorthwindStreams.proto) in the Connect protocol:
// server streaming over HTTP/1.1 and h2c, client and bidirectional streaming over h2c, gzip both ways, a deadline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { createClient, ConnectError, Code } from "@connectrpc/connect";
import { createConnectTransport, compressionGzip } from "@connectrpc/connect-node";
import { NorthwindStreams } from "./gen/NorthwindStreams_pb.js";

const http1 = createConnectTransport({ httpVersion: "1.1", baseUrl: process.env.PROTOHTTP_URL, useBinaryFormat: true });
const h2c = (options = {}) =>
  createConnectTransport({ httpVersion: "2", baseUrl: process.env.PROTOHTTP_H2C_URL, useBinaryFormat: true, ...options });

test("server streaming: a bounded replay of the orders ends on its own, over HTTP/1.1 and h2c, JSON too", async () => {
  for (const transport of [http1, h2c(), h2c({ useBinaryFormat: false })]) {
    const ids = [];
    for await (const order of createClient(NorthwindStreams, transport).replayOrders({ limit: 5 })) {
      ids.push(order.orderId);
    }
    assert.equal(ids.length, 5);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
  }
});

test("server streaming: price ticks arrive until the deadline, which ends the call with deadline_exceeded", async () => {
  const ticks = [];
  const error = await (async () => {
    // No product named: every tick of the ticker, one a second.
    for await (const tick of createClient(NorthwindStreams, http1).watchPrices({}, { timeoutMs: 2500 })) {
      ticks.push(tick);
    }
  })().then(
    () => assert.fail("the feed never ends by itself"),
    (e) => ConnectError.from(e),
  );
  assert.equal(error.code, Code.DeadlineExceeded);
  assert.ok(ticks.length >= 1, "at least one tick arrives within 2.5 s");
  assert.ok(ticks.every((t) => t.productName.length > 0 && t.unitPrice > 0));
});

test("client streaming over h2c, gzipped: the upload's summary counts every order", async () => {
  const client = createClient(NorthwindStreams, h2c({ sendCompression: compressionGzip, compressMinBytes: 0 }));
  const orders = [];
  for await (const order of client.replayOrders({ limit: 20 })) {
    orders.push(order);
  }
  async function* upload() {
    yield* orders;
  }
  const summary = await client.uploadOrders(upload());
  assert.equal(summary.orders, 20);
  assert.equal(summary.lines, orders.reduce((n, o) => n + o.lines.length, 0));
});

test("bidirectional over h2c: a quote for each order line sent", async () => {
  const client = createClient(NorthwindStreams, h2c());
  async function* lines() {
    yield { productId: 1, quantity: 2 };
    yield { productId: 2, quantity: 3 };
  }
  const quotes = [];
  for await (const quote of client.quoteLines(lines())) {
    quotes.push(quote);
  }
  assert.deepEqual(quotes.map((q) => [q.productId, q.quantity]), [[1, 2], [2, 3]]);
  assert.ok(quotes.every((q) => q.total > 0));
});

test("server streaming, gzip: orders of at least 1 KiB come in gzipped envelopes, smaller ones not, and connect-es reads both", async () => {
  // What the server really sends, read raw: each envelope's flags, gunzipped where flag 0x01 says so.
  const request = new TextEncoder().encode(JSON.stringify({ limit: 830 }));
  const envelope = new Uint8Array(5 + request.length);
  new DataView(envelope.buffer).setUint32(1, request.length);
  envelope.set(request, 5);
  const raw = await fetch(`${process.env.PROTOHTTP_URL}/Northwind.NorthwindStreams/ReplayOrders`, {
    method: "POST",
    headers: { "Content-Type": "application/connect+json", "Connect-Protocol-Version": "1", "Connect-Accept-Encoding": "gzip" },
    body: envelope,
  });
  assert.equal(raw.status, 200);
  assert.equal(raw.headers.get("connect-content-encoding"), "gzip");
  const body = Buffer.from(await raw.arrayBuffer());
  const flags = [];
  const rawIds = [];
  let end;
  for (let at = 0; at < body.length; ) {
    const length = body.readUInt32BE(at + 1);
    let payload = body.subarray(at + 5, at + 5 + length);
    flags.push(body[at]);
    if (body[at] & 0x01) {
      payload = gunzipSync(payload);
      assert.ok(payload.length >= 1024, "only messages of at least 1 KiB are gzipped");
    } else if (!(body[at] & 0x02)) {
      assert.ok(payload.length < 1024, "messages under 1 KiB go out as they are");
    }
    if (body[at] & 0x02) {
      end = JSON.parse(payload.toString("utf8"));
    } else {
      rawIds.push(JSON.parse(payload.toString("utf8")).orderId);
    }
    at += 5 + length;
  }
  assert.deepEqual(end, {});
  assert.equal(rawIds.length, 830);
  assert.ok(flags.filter((f) => f === 0x01).length > 0, "some orders are gzipped");
  assert.ok(flags.filter((f) => f === 0x00).length > 0, "some orders are not");

  // connect-es, sending gzip and accepting it, decodes the same stream.
  const transport = createConnectTransport({
    httpVersion: "1.1",
    baseUrl: process.env.PROTOHTTP_URL,
    useBinaryFormat: false,
    sendCompression: compressionGzip,
    acceptCompression: [compressionGzip],
    compressMinBytes: 0,
  });
  const ids = [];
  for await (const order of createClient(NorthwindStreams, transport).replayOrders({ limit: 830 })) {
    ids.push(order.orderId);
  }
  assert.deepEqual(ids, rawIds);
});
