// ProtoHttp explorer: the request a method's panel sends. Its message comes from the form (the pairs a browser would
// post) or from the JSON editor (checked before anything is sent); its headers from the editable rows, and its
// deadline as Connect-Timeout-Ms (docs/protocol.md section 6).
import { el } from "./explorer-dom.js";

export const formType = "application/x-www-form-urlencoded";
export const jsonType = "application/json";

// The pairs a browser would post, less the empty rows and empty non-text inputs (which bind nothing anyway).
export function formPairs(form) {
  const data = new URLSearchParams();
  for (const control of form.elements) {
    if (!control.name || control.disabled || (control.type === "checkbox" && !control.checked)) {
      continue;
    }
    const values = control.multiple ? [...control.selectedOptions].map((o) => o.value) : [control.value];
    const isRow = /\[\]$|\]\.(key|value)$/.test(control.name);
    values.forEach((value) => {
      if (value !== "" || (control.hasAttribute("data-text") && !isRow)) {
        data.append(control.name, value);
      }
    });
  }
  return data;
}

// The editor's message, or null after showing why it is not one: the call is not made with JSON the server would refuse.
export function editorMessage(editor) {
  const error = editor.querySelector(".px-json-error");
  try {
    const message = JSON.parse(editor.querySelector(".px-json").value);
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      throw new Error("a request message is a JSON object, { … }");
    }
    error.hidden = true;
    return message;
  } catch (failure) {
    error.textContent = "Not sent, the JSON is not valid: " + failure.message;
    error.hidden = false;
    return null;
  }
}

const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

// The request headers rows and the deadline: what the user adds to every call of this method.
export function headersEditor() {
  const element = el("fieldset", { class: "px-headers" });
  element.appendChild(el("legend", {}, "Request headers and metadata"));
  const rows = element.appendChild(el("div", { class: "px-rows" }));
  const addRow = () => {
    const row = rows.appendChild(el("div", { class: "px-row" }));
    row.appendChild(el("input", { type: "text", class: "px-header-name", placeholder: "Name", "aria-label": "Header name" }));
    row.appendChild(el("input", { type: "text", class: "px-header-value", placeholder: "Value", "aria-label": "Header value" }));
  };
  addRow();
  const add = element.appendChild(el("button", { type: "button", class: "px-add-header" }, "Add header"));
  add.onclick = addRow;
  const deadlineLabel = element.appendChild(el("label", { class: "px-deadline" }, "Deadline "));
  const deadline = deadlineLabel.appendChild(el("input", { type: "number", min: "1", step: "1", placeholder: "none", "aria-label": "Deadline in milliseconds" }));
  deadlineLabel.append(" ms");
  const error = element.appendChild(el("p", { class: "px-json-error", role: "alert", hidden: "" }));

  // The rows filled in, with the deadline last; null after showing the first name that is not a header name.
  const read = () => {
    const headers = [];
    for (const row of rows.children) {
      const name = row.querySelector(".px-header-name").value.trim();
      const value = row.querySelector(".px-header-value").value;
      if (name === "" && value === "") {
        continue;
      }
      if (!tokenPattern.test(name)) {
        error.textContent = `Not sent: "${name}" is not a header name.`;
        error.hidden = false;
        return null;
      }
      headers.push([name, value]);
    }
    error.hidden = true;
    return headers;
  };
  return { element, read, deadlineMs: () => (deadline.value ? Number(deadline.value) : null) };
}

// The call as fetch makes it and the command lines repeat it: URL, verb, headers in order, body.
export function buildCall({ route, verb, accept, headers, deadlineMs, form, message }) {
  const url = new URL(route, location.href);
  const all = [["Accept", accept]];
  let body = null;
  if (message !== undefined) {
    verb = "POST";
    all.push(["Content-Type", jsonType]);
    body = JSON.stringify(message);
  } else if (verb === "GET") {
    url.search = formPairs(form).toString();
  } else {
    all.push(["Content-Type", formType]);
    body = formPairs(form).toString();
  }
  all.push(...headers);
  if (deadlineMs) {
    all.push(["Connect-Timeout-Ms", String(deadlineMs)]);
  }
  return { url: url.href, verb, headers: all, body, message };
}

export const fetchInit = (call, signal) => ({ method: call.verb, headers: call.headers, body: call.body, signal });
