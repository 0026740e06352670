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

// A form control's name as FormBinder binds it (docs/protocol.md section 4): proto field names joined by ".", "[]"
// after a repeated field's rows, "[i].key" and "[i].value" for a map's rows; the path in JSON names.
function formPath(name) {
  const map = /^(.*)\[(\d+)\]\.(key|value)$/.exec(name);
  const list = !map && name.endsWith("[]");
  const fields = (map ? map[1] : list ? name.slice(0, -2) : name).split(".").map(jsonName);
  return { fields, list, map: map && { row: map[2], part: map[3] } };
}

// protoc's JSON name: underscores dropped, the letter after one in capitals.
function jsonName(name) {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") {
      upper = true;
    } else {
      out += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return out;
}

const at = (node, fields) => fields.reduce((value, key) => (value !== null && typeof value === "object" ? value[key] : undefined), node);

// A form's text as JSON, typed as the editor's prefilled message has the field: numbers and bools as themselves.
function typed(text, example) {
  if (typeof example === "number" && text.trim() !== "" && !Number.isNaN(Number(text))) {
    return Number(text);
  }
  return typeof example === "boolean" ? text === "true" : text;
}

// The message the form would send, as the JSON editor holds it: the form's pairs under their JSON names, typed after
// `sample` (the editor's prefilled message, every field present). Fields the form has no control for stay as
// `current` has them (a form that leaves out a repeated message keeps the editor's).
export function formMessage(form, sample, current) {
  const message = { ...current };
  for (const control of form.elements) {
    if (control.name) {
      delete message[formPath(control.name).fields[0]];
    }
  }
  const entries = new Map();
  for (const [name, text] of formPairs(form)) {
    const { fields, list, map } = formPath(name);
    const parent = fields.slice(0, -1).reduce((node, key) => (node[key] ??= {}), message);
    const last = fields.at(-1);
    const example = at(sample, fields);
    if (map) {
      const id = fields.join(".") + "[" + map.row + "]";
      const entry = entries.get(id) ?? { parent, last, example: Object.values(example ?? {})[0] };
      entry[map.part] = text;
      entries.set(id, entry);
    } else if (list) {
      (parent[last] ??= []).push(typed(text, Array.isArray(example) ? example[0] : example));
    } else {
      parent[last] = typed(text, example);
    }
  }
  for (const { parent, last, example, key, value } of entries.values()) {
    if (key !== undefined) {
      (parent[last] ??= {})[key] = typed(value ?? "", example);
    }
  }
  return message;
}

// The other way, where it fits: each single control (not a row of a repeated field or map) takes the message's value,
// and a multiple select its list; a field the message leaves out empties its control.
export function fillForm(form, message) {
  for (const control of form.elements) {
    if (!control.name || control.closest(".px-rows")) {
      continue;
    }
    const { fields, list, map } = formPath(control.name);
    const value = at(message, fields);
    if (map || (value !== null && typeof value === "object" && !Array.isArray(value))) {
      continue;
    }
    if (list && control.multiple) {
      const values = (Array.isArray(value) ? value : []).map(String);
      [...control.options].forEach((option) => (option.selected = values.includes(option.value)));
    } else if (control.type === "checkbox") {
      control.checked = value === true;
    } else if (!Array.isArray(value)) {
      control.value = value === undefined || value === null ? "" : String(value);
    }
  }
}
