// ProtoHttp explorer: the forms of a method's REST routes (google.api.http rules, docs/rest.md). Each variable goes
// into the path encoded as the rule's template reads it (a one-segment variable encodes everything, "/" too; a
// variable over several segments encodes each segment, docs/protocol.md section 14), the query carries the fields
// neither the path nor the body binds, and the body goes as JSON (a google.api.HttpBody's as typed, in its own
// content type), with the rule's verb.
import { el } from "./explorer-dom.js";
import { formPairs, jsonType } from "./explorer-request.js";
import { answerView, showDecoded, showStream, showUnary } from "./explorer-answer.js";
import { copyable, curl } from "./explorer-commands.js";

const ndjson = "application/x-ndjson";
const variable = /\{([^}=]+)(?:=([^}]*))?\}/g;

// The route's path with each variable's value in its place.
export function restPath(template, form) {
  return template.replace(variable, (_, field, segments) => {
    const value = form.querySelector(`[data-path-variable="${CSS.escape(field)}"]`).value;
    return segments === undefined || segments === "*"
      ? encodeURIComponent(value)
      : value.split("/").map(encodeURIComponent).join("/");
  });
}

// The call as fetch makes it and curl repeats it; null after showing why the body is not JSON.
function restCall(section, form, accept) {
  const url = new URL(restPath(section.dataset.template, form), location.href);
  const query = form.querySelector(".px-rest-query");
  if (query) {
    url.search = formPairs(query).toString();
  }
  const headers = [["Accept", accept]];
  let body = null;
  const text = form.querySelector(".px-rest-body");
  if (text?.hasAttribute("data-raw")) {
    headers.push(["Content-Type", form.querySelector(".px-rest-content-type").value || "application/octet-stream"]);
    body = text.value;
  } else if (text) {
    const error = form.querySelector(".px-json-error");
    try {
      body = JSON.stringify(JSON.parse(text.value));
      error.hidden = true;
    } catch (failure) {
      error.textContent = "Not sent, the JSON is not valid: " + failure.message;
      error.hidden = false;
      return null;
    }
    headers.push(["Content-Type", jsonType]);
  }
  return { url: url.href, verb: section.dataset.verb, headers, body };
}

export function setUpRestForm(section) {
  const form = section.querySelector("form.px-rest-form");
  const formats = JSON.parse(section.dataset.formats || "{}");
  const stream = section.dataset.kind === "server";
  const view = answerView();
  const commandRow = el("div", { class: "px-command" });
  const curlLine = commandRow.appendChild(el("pre", { class: "px-curl" }));
  copyable(curlLine, commandRow.appendChild(el("button", { type: "button", class: "px-copy" }, "Copy")));
  const commands = el("div", { class: "px-commands" });
  commands.append(el("p", { class: "px-hint" }, "The same call with curl:"), commandRow);
  form.after(view.element, commands);
  section.querySelector(".px-noscript-hint")?.remove();
  form.querySelector("[data-needs-script]")?.removeAttribute("disabled");

  const format = el("select", { "aria-label": "Answer format", class: "px-format" });
  Object.keys(formats).forEach((name) => format.appendChild(el("option", {}, name)));
  if (format.options.length > 1) {
    const label = el("label", { class: "px-answer-format" }, "Answer in ");
    label.appendChild(format);
    form.querySelector(".px-actions").prepend(label);
  }

  let running = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const call = restCall(section, form, stream ? ndjson : formats[format.value] || jsonType);
    if (!call) {
      return;
    }
    curlLine.textContent = curl(call, { stream });
    if (stream) {
      running?.abort();
      running = new AbortController();
      await showStream(view, call, running.signal);
    } else {
      const decode = () => showDecoded(view, { ...call, headers: [["Accept", jsonType], ...call.headers.slice(1)] });
      await showUnary(view, call, { safe: section.dataset.safe === "true", decode });
    }
  });
}
