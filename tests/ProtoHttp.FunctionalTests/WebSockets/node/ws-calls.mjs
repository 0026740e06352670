// Calls the sample over WebSocket with Node's ws (docs/protocol.md section 13), as any HTTP/1.1 client would, and
// prints what it saw as one JSON object; NodeWsClientTests.cs starts the server, runs this, and checks every field.
// Usage: node ws-calls.mjs ws://127.0.0.1:PORT
import WebSocket from "ws";

const base = process.argv[2];
const json = "protohttp+json";

function envelope(flags, payload) {
  const bytes = Buffer.from(payload === undefined ? "" : JSON.stringify(payload));
  const header = Buffer.alloc(5);
  header[0] = flags;
  header.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([header, bytes]);
}

// One call: sends each request as it is answered (send(n) gives the n-th request, or undefined to half-close), and
// collects the messages, the end envelope, the close code and the keep-alive frames.
function call(path, { protocols = [json], headers = {}, requests = [], interleave = false } = {}) {
  console.error("calling " + path); // What the test shows if a call never ends.
  return new Promise(resolve => {
    const seen = { messages: [], end: null, close: null, keepAlives: 0, refused: null };
    const socket = new WebSocket(base + path, protocols, { headers });
    // A call that never ends is reported as such rather than holding up the run.
    const timer = setTimeout(() => {
      console.error(`timed out: ${path} after ${seen.messages.length} messages, end ${JSON.stringify(seen.end)}`);
      resolve({ ...seen, timedOut: true });
      socket.terminate();
    }, 20000);
    let sent = 0;
    const sendNext = () => {
      if (sent < requests.length) {
        socket.send(envelope(0, requests[sent++]));
        return true;
      }
      socket.send(envelope(2));
      return false;
    };
    socket.on("unexpected-response", (request, response) => {
      let body = "";
      response.on("data", chunk => (body += chunk));
      response.on("end", () => {
        clearTimeout(timer);
        request.destroy(); // ws leaves a refused upgrade's connection to its listener
        resolve({ ...seen, refused: { status: response.statusCode, body } });
      });
    });
    socket.on("error", error => {
      clearTimeout(timer);
      resolve({ ...seen, error: String(error) });
    });
    socket.on("pong", () => seen.keepAlives++);
    socket.on("ping", () => seen.keepAlives++);
    socket.on("open", () => {
      seen.subprotocol = socket.protocol;
      if (interleave) {
        sendNext();
      } else {
        while (sendNext());
      }
    });
    socket.on("message", (data, isBinary) => {
      const flags = data[0];
      const length = data.readUInt32BE(1);
      const payload = JSON.parse(data.subarray(5, 5 + length).toString() || "{}");
      if (!isBinary || length !== data.length - 5) {
        seen.malformed = true;
      }
      if (flags === 2) {
        seen.end = payload;
        return;
      }
      seen.messages.push(payload);
      if (interleave) {
        sendNext();
      }
    });
    socket.on("close", code => {
      clearTimeout(timer);
      resolve({ ...seen, close: code });
    });
  });
}

const line = (productId, quantity) => ({ productId, quantity });
const results = {};
results.search = await call("/ProtoService.proto/Search", { requests: [{ query: "chai" }] });
results.searchProto = await call("/ProtoService.proto/Search", { protocols: ["protohttp+proto"], requests: [] });
results.upload = await call("/NorthwindStreams.proto/UploadOrders", {
  requests: [{ orderId: 1, lines: [{ productId: 1, quantity: 2, unitPrice: 10 }] }, { orderId: 2, lines: [{ productId: 2, quantity: 1, unitPrice: 5 }] }],
});
results.quotes = await call("/NorthwindStreams.proto/QuoteLines", { requests: [line(1, 1), line(2, 2), line(3, 3)], interleave: true });
results.unknownProduct = await call("/NorthwindStreams.proto/QuoteLines", { requests: [line(1, 1), line(999999, 1)], interleave: true });
results.watch = await call("/NorthwindStreams.proto/WatchPrices?timeout_ms=400", { requests: [{}] });
results.badSubprotocol = await call("/ProtoService.proto/Search", { protocols: ["graphql-ws"] });
results.crossSite = await call("/ProtoService.proto/Search", { headers: { Origin: "http://evil.example" } });
results.unauthorized = await call("/secure/test_service.proto/Context", { requests: [{}] });
results.authorized = await call("/secure/test_service.proto/Context", { headers: { "X-Test-User": "ada" }, requests: [{}] });
results.tooBig = await call("/test_service.proto/Echo", { requests: [{ data: Buffer.alloc(100 * 1024).toString("base64") }] });
results.idle = await call("/test_service.proto/Slow", { requests: [{ delayMs: 1200 }] });
const fifty = await Promise.all(Array.from({ length: 50 }, (_, i) =>
  call("/NorthwindStreams.proto/QuoteLines", { requests: [line(1 + (i % 10), i + 1), line(1, 1000 + i)], interleave: true })));
results.fifty = fifty.map(r => ({ quantities: r.messages.map(m => m.quantity), end: r.end, close: r.close, timedOut: r.timedOut }));
console.log(JSON.stringify(results));
process.exit(0);
