// ProtoHttp explorer: the answer to a call. A unary answer shows its HTTP status, the ErrorResult's code and text on a
// failure (docs/protocol.md section 5), the response headers, the time it took and the body pretty-printed (protobuf as
// hex). A server stream is read as NDJSON lines (section 10) with fetch, so its headers and a failing status are
// readable too, and each message is shown as it arrives.
import { el } from "./explorer-dom.js";
import { fetchInit } from "./explorer-request.js";

const protobuf = "application/x-protobuf";

export function answerView() {
  const element = el("div", { class: "px-result" });
  const view = { element };
  view.status = element.appendChild(el("p", { class: "px-status" }));
  view.code = element.appendChild(el("p", { class: "px-code", hidden: "" }));
  view.time = element.appendChild(el("p", { class: "px-time" }));
  const details = element.appendChild(el("details", { class: "px-response-headers" }));
  details.appendChild(el("summary", {}, "Response headers"));
  view.headers = details.appendChild(el("pre", {}));
  view.answer = element.appendChild(el("pre", { class: "px-answer" }));
  view.decodeButton = element.appendChild(el("button", { type: "button", hidden: "" }, "Decode (calls again as JSON)"));
  view.decoded = element.appendChild(el("pre", { class: "px-decoded", hidden: "" }));
  view.decodeButton.onclick = () => view.decode?.();
  return view;
}

export function reset(view, text) {
  view.status.textContent = text;
  delete view.status.dataset.status;
  view.code.hidden = true;
  view.time.textContent = "";
  view.headers.textContent = "";
  view.answer.textContent = "";
  view.decoded.hidden = true;
  view.decodeButton.hidden = true;
}

const milliseconds = (start) => Math.round(performance.now() - start);

function showHead(view, response) {
  const type = response.headers.get("Content-Type") || "";
  view.status.textContent = `${response.status} ${response.statusText} · ${type}`;
  view.status.dataset.status = String(response.status);
  view.headers.textContent = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  return type;
}

// The ErrorResult of a failed call (JSON {"code", "errorText"}), beside the status.
function showError(view, text) {
  try {
    const error = JSON.parse(text);
    if (error && typeof error.code === "string") {
      view.code.textContent = error.code + (error.errorText ? ": " + error.errorText : "");
      view.code.hidden = false;
    }
  } catch {
    // Not JSON (an XML or protobuf ErrorResult): the body below shows it.
  }
}

function pretty(text, type) {
  if (type.includes("json")) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  return text;
}

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");

// Makes a unary call and shows its answer; decode repeats it as JSON for a protobuf answer.
export async function showUnary(view, call, { safe, decode }) {
  reset(view, "Calling…");
  const start = performance.now();
  const response = await fetch(call.url, fetchInit(call)).catch((error) => ({ error }));
  if (response.error) {
    view.status.textContent = "The call failed: " + response.error.message;
    return;
  }
  const type = showHead(view, response);
  if (type.startsWith(protobuf)) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    view.time.textContent = `Answered in ${milliseconds(start)} ms`;
    view.answer.textContent = `${bytes.length} bytes: ${hex(bytes)}`;
    view.decode = decode;
    view.decodeButton.hidden = safe;
    if (safe) {
      decode();
    }
    return;
  }
  const text = await response.text();
  view.time.textContent = `Answered in ${milliseconds(start)} ms`;
  if (!response.ok) {
    showError(view, text);
  }
  view.answer.textContent = pretty(text, type);
}

export async function showDecoded(view, call) {
  const response = await fetch(call.url, fetchInit(call));
  view.decoded.textContent = "Decoded (the same call again, with Accept: application/json):\n" + pretty(await response.text(), "json");
  view.decoded.hidden = false;
}

// The outcome line of a stream: the end record's code and text, after how many messages.
export const outcome = (count, error) =>
  `Ended after ${count} messages: ${error ? error.code + (error.errorText ? " · " + error.errorText : "") : "OK"}`;

// Makes a server-streaming call and shows each message, one line each, as its NDJSON line arrives.
export async function showStream(view, call, signal) {
  reset(view, "Streaming…");
  const start = performance.now();
  let count = 0;
  let first = null;
  const timing = () => (view.time.textContent =
    (first === null ? "" : `First message after ${first} ms; `) + `${count} messages in ${milliseconds(start)} ms`);
  try {
    const response = await fetch(call.url, fetchInit(call, signal));
    const type = showHead(view, response);
    if (!response.ok) {
      const text = await response.text();
      timing();
      showError(view, text);
      view.answer.textContent = pretty(text, type);
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let end = null;
    for (;;) {
      const { value, done } = await reader.read();
      buffer += value || "";
      const lines = done ? [buffer] : buffer.split("\n");
      buffer = done ? "" : lines.pop();
      for (const line of lines.filter((l) => l.trim() !== "")) {
        const record = JSON.parse(line);
        if ("result" in record) {
          count++;
          first ??= milliseconds(start);
          view.answer.textContent += JSON.stringify(record.result) + "\n";
        } else {
          end = record;
        }
      }
      timing();
      if (done) {
        break;
      }
    }
    view.status.textContent = outcome(count, end?.error);
    if (end?.metadata) {
      view.headers.textContent += "\n\nTrailers:\n" + JSON.stringify(end.metadata, null, 2);
    }
  } catch (failure) {
    timing();
    view.status.textContent = signal?.aborted ? `Stopped after ${count} messages.` : `Closed after ${count} messages: ${failure.message}`;
  }
}
