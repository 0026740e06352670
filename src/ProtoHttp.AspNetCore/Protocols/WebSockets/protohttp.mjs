// ProtoHttp's browser module (docs/protocol.md section 13): calls any method of a ProtoHttp service over WebSocket, in
// JSON, at its path /{file}.proto/{Method}. No build step, no dependency: import it from where the server serves it,
//   import { unary, serverStream, clientStream, open, ProtoHttpError } from "/_protohttp/protohttp.mjs";
// Each WebSocket message is one envelope (flags byte, 4-byte big-endian length, JSON payload); the client half-closes
// with an empty envelope flagged 0x02, and the server ends with a 0x02 envelope holding {"error"?, "metadata"?}.

const END = 0x02;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A failed call: `code` is the status name as Connect spells it ("not_found", "deadline_exceeded"...). */
export class ProtoHttpError extends Error {
  constructor(code, message, details = [], metadata = {}) {
    super(message || code);
    this.name = "ProtoHttpError";
    this.code = code;
    this.details = details;
    this.metadata = metadata;
  }
}

function envelope(flags, text) {
  const payload = encoder.encode(text);
  const bytes = new Uint8Array(5 + payload.length);
  bytes[0] = flags;
  new DataView(bytes.buffer).setUint32(1, payload.length);
  bytes.set(payload, 5);
  return bytes;
}

function socketUrl(path, { baseUrl, timeoutMs }) {
  const url = new URL(path, baseUrl ?? globalThis.location?.href);
  url.protocol = url.protocol === "https:" ? "wss:" : url.protocol === "http:" ? "ws:" : url.protocol;
  if (timeoutMs != null) {
    url.searchParams.set("timeout_ms", String(Math.max(1, Math.ceil(timeoutMs))));
  }
  return url;
}

/**
 * Opens a call of any kind. Options: `timeoutMs` (the deadline, sent as `timeout_ms`), `signal` (an AbortSignal that
 * cancels), `baseUrl` (default: the page's). The call: `send(message)` a request, `end()` the requests (half-close),
 * `read()` the next answer ({value, done}, as an iterator; also `for await`), `cancel()`, and `result`, a promise of
 * `{metadata}` that rejects with a ProtoHttpError when the call fails (read() rejects with it too).
 */
export function open(path, options = {}) {
  const socket = new WebSocket(socketUrl(path, options), "protohttp+json");
  socket.binaryType = "arraybuffer";
  const answers = [];
  const readers = [];
  const unsent = [];
  let outcome = null; // {metadata} or a ProtoHttpError, once known
  let settle;
  const result = new Promise((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => {}); // read() reports the failure too; nobody must be made to await this

  const finish = (end) => {
    if (outcome) {
      return;
    }
    outcome = end;
    clearTimeout(timer);
    for (const reader of readers.splice(0)) {
      end instanceof Error ? reader.reject(end) : reader.resolve({ value: undefined, done: true });
    }
    end instanceof Error ? settle.reject(end) : settle.resolve(end);
  };

  // The server ends the call at its deadline; this is for a server that cannot be reached or never answers.
  const timer = options.timeoutMs != null
    ? setTimeout(() => {
      finish(new ProtoHttpError("deadline_exceeded", `The deadline of ${options.timeoutMs} ms passed before ${path} ended.`));
      socket.close();
    }, options.timeoutMs + 1000)
    : undefined;

  socket.onopen = () => unsent.splice(0).forEach(bytes => socket.send(bytes));
  socket.onmessage = (event) => {
    const bytes = new Uint8Array(event.data);
    const length = new DataView(event.data).getUint32(1);
    const json = JSON.parse(decoder.decode(bytes.subarray(5, 5 + length)) || "{}");
    if (bytes[0] & END) {
      finish(json.error
        ? new ProtoHttpError(json.error.code, json.error.message, json.error.details ?? [], json.metadata ?? {})
        : { metadata: json.metadata ?? {} });
      return;
    }
    const reader = readers.shift();
    reader ? reader.resolve({ value: json, done: false }) : answers.push(json);
  };
  socket.onclose = (event) => finish(new ProtoHttpError(
    event.code === 1009 ? "resource_exhausted" : "unavailable",
    `The WebSocket of ${path} closed (${event.code}) before the call ended; a refused upgrade shows no status to a page.`));

  const send = (bytes) => {
    if (outcome) {
      throw outcome instanceof Error ? outcome : new Error(`${path} has ended.`);
    }
    socket.readyState === WebSocket.CONNECTING ? unsent.push(bytes) : socket.send(bytes);
  };
  const call = {
    send: (message) => send(envelope(0, JSON.stringify(message))),
    end: () => send(envelope(END, "")),
    read: () => {
      if (answers.length) {
        return Promise.resolve({ value: answers.shift(), done: false });
      }
      if (outcome) {
        return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve, reject) => readers.push({ resolve, reject }));
    },
    cancel: () => {
      finish(new ProtoHttpError("canceled", `${path} was cancelled.`));
      socket.close(1000);
    },
    result,
    [Symbol.asyncIterator]() {
      return { next: call.read, return: async () => { call.cancel(); return { value: undefined, done: true }; } };
    },
  };
  options.signal?.addEventListener("abort", call.cancel, { once: true });
  return call;
}

// The one answer of a unary or client-streaming call, then its end.
async function single(call) {
  const { value, done } = await call.read();
  await call.result;
  if (done) {
    throw new ProtoHttpError("internal", "The call ended without its answer.");
  }
  return value;
}

/** A unary call: one request, one answer (rejects with a ProtoHttpError). */
export function unary(path, request, options) {
  const call = open(path, options);
  call.send(request);
  call.end();
  return single(call);
}

/** A server-streaming call: one request, the answers as an async iterable (`for await`); leaving the loop cancels. */
export function serverStream(path, request, options) {
  const call = open(path, options);
  call.send(request);
  call.end();
  return call;
}

/** A client-streaming call: the requests from an array or (async) iterable, one answer. */
export async function clientStream(path, requests, options) {
  const call = open(path, options);
  for await (const request of requests) {
    call.send(request);
  }
  call.end();
  return single(call);
}

/** A bidirectional call: `send` and `end` requests while reading answers as they come; the call of open(). */
export const bidiStream = open;
