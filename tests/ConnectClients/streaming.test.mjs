// connect-es calling the ProtoHttp sample's streaming methods (NorthwindStreams.proto) in the Connect protocol:
// server streaming over HTTP/1.1 and h2c, client and bidirectional streaming over h2c, gzip, a deadline.
import { test } from "node:test";
import assert from "node:assert/strict";
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
