// ProtoHttp explorer: the adapter between the page and calls over WebSocket (docs/protocol.md section 15), the one
// place client-streaming and bidirectional calls go through. It speaks the wire contract itself: subprotocol
// protohttp+json, one envelope per binary message (flags, 4-byte big-endian length, payload), the empty 0x02 envelope
// to half-close, the 0x02 end envelope with Connect's end-stream JSON last, the deadline as timeout_ms (a browser
// cannot set headers on a WebSocket). When ProtoHttp's browser module is served, openSocketCall is the function to
// replace with a call into it; the page needs nothing else from it.
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const endFlag = 0x02;

function envelope(flags, payload) {
  const bytes = new Uint8Array(5 + payload.length);
  bytes[0] = flags;
  new DataView(bytes.buffer).setUint32(1, payload.length);
  bytes.set(payload, 5);
  return bytes;
}

// Opens a call of any kind at a method's ProtoHttp route. handlers: onOpen(), onMessage(message),
// onEnd({ code, message, metadata }) once, with code "ok" on success. Returns send(message), closeSend(), cancel().
export function openSocketCall(route, { deadlineMs }, handlers) {
  const url = new URL(route, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (deadlineMs) {
    url.searchParams.set("timeout_ms", String(deadlineMs));
  }
  const socket = new WebSocket(url, "protohttp+json");
  socket.binaryType = "arraybuffer";
  let ended = false;
  const end = (outcome) => {
    if (!ended) {
      ended = true;
      handlers.onEnd(outcome);
    }
  };
  // Messages sent before the socket opens wait for it, in order.
  const waiting = [];
  const write = (bytes) => (socket.readyState === WebSocket.CONNECTING ? waiting.push(bytes) : socket.send(bytes));
  socket.onopen = () => {
    waiting.splice(0).forEach((bytes) => socket.send(bytes));
    handlers.onOpen?.();
  };
  socket.onmessage = (event) => {
    const bytes = new Uint8Array(event.data);
    const length = new DataView(bytes.buffer).getUint32(1);
    const payload = decoder.decode(bytes.subarray(5, 5 + length));
    if (bytes[0] & endFlag) {
      const last = payload ? JSON.parse(payload) : {};
      end({ code: last.error?.code ?? "ok", message: last.error?.message ?? "", metadata: last.metadata });
    } else {
      handlers.onMessage(JSON.parse(payload));
    }
  };
  socket.onerror = () => end({ code: "unavailable", message: `The WebSocket to ${url.pathname} failed (is it served? an upgrade answers 405 where it is not).` });
  socket.onclose = (event) => end({ code: event.code === 1000 ? "ok" : "unknown", message: `closed (${event.code}${event.reason ? " " + event.reason : ""})` });
  return {
    send: (message) => write(envelope(0, encoder.encode(JSON.stringify(message)))),
    closeSend: () => write(envelope(endFlag, new Uint8Array(0))),
    cancel: () => socket.close(1000),
  };
}
