// ProtoHttp explorer: turns each method form into a live call. Without this script the forms still post (or GET) and
// the answer opens as a page. With it: a format switch (each codec the server writes; protobuf as hex plus its decoding), the call's
// status and answer, the equivalent curl command, rows added to repeated fields and maps, and EventSource for
// server streams. The protobuf decoding is the same call made again with Accept: application/json, done by itself
// only for methods marked NO_SIDE_EFFECTS.
(() => {
  "use strict";

  // The answer formats come from the server's codecs, label to media type, on each form (data-formats).
  const json = "application/json";
  const protobuf = "application/x-protobuf";
  const formatsOf = (form) => JSON.parse(form.dataset.formats || "{}");

  function el(tag, attributes, text) {
    const node = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  // The pairs a browser would post, less the empty rows and empty non-text inputs (which bind nothing anyway).
  function pairs(form) {
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

  const quote = (text) => "'" + text.replace(/'/g, "'\\''") + "'";

  function curl(url, verb, accept, body) {
    const parts = ["curl", "-sS", "-H", quote("Accept: " + accept)];
    if (verb === "POST") {
      parts.push("-H", quote("Content-Type: application/x-www-form-urlencoded"), "--data-raw", quote(body));
    }
    parts.push(quote(url));
    if (accept === protobuf) {
      parts.push("-o", "answer.pb");
    }
    return parts.join(" ");
  }

  const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");

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

  function request(form, body, accept) {
    const verb = form.method.toUpperCase();
    const url = new URL(form.dataset.route, location.href);
    const init = { method: verb, headers: { Accept: accept } };
    if (verb === "GET") {
      url.search = body;
    } else {
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
      init.body = body;
    }
    return { url: url.href, verb, init };
  }

  async function call(form, panel) {
    const body = pairs(form).toString();
    const accept = formatsOf(form)[panel.format.value];
    const { url, verb, init } = request(form, body, accept);
    panel.curl.textContent = curl(url, verb, accept, body);
    panel.status.textContent = "Calling…";
    panel.answer.textContent = "";
    panel.decoded.hidden = true;
    panel.decodeButton.hidden = true;
    const response = await fetch(url, init).catch((error) => ({ error }));
    if (response.error) {
      panel.status.textContent = "The call failed: " + response.error.message;
      return;
    }
    const type = response.headers.get("Content-Type") || "";
    panel.status.textContent = `${response.status} ${response.statusText} · ${type}`;
    panel.status.dataset.status = String(response.status);
    if (type.startsWith(protobuf)) {
      const bytes = new Uint8Array(await response.arrayBuffer());
      panel.answer.textContent = `${bytes.length} bytes: ${hex(bytes)}`;
      panel.decode = () => decode(form, body, panel);
      panel.decodeButton.hidden = form.dataset.safe === "true";
      if (form.dataset.safe === "true") {
        panel.decode();
      }
    } else {
      panel.answer.textContent = pretty(await response.text(), type);
    }
  }

  async function decode(form, body, panel) {
    const { url, init } = request(form, body, json);
    const response = await fetch(url, init);
    panel.decoded.textContent = "Decoded (the same call again, with Accept: application/json):\n" + pretty(await response.text(), "json");
    panel.decoded.hidden = false;
  }

  function stream(form, panel) {
    panel.source?.close();
    const url = new URL(form.dataset.route, location.href);
    url.search = pairs(form).toString();
    panel.curl.textContent = curl(url.href, "GET", "text/event-stream", "").replace("curl -sS", "curl -sSN");
    panel.answer.textContent = "";
    panel.status.textContent = "Streaming…";
    panel.stop.hidden = false;
    const source = new EventSource(url.href);
    panel.source = source;
    let count = 0;
    const close = (text) => {
      source.close();
      panel.stop.hidden = true;
      panel.status.textContent = text;
    };
    source.onmessage = (event) => {
      count++;
      panel.answer.textContent += event.data + "\n";
    };
    source.addEventListener("end", (event) => {
      const outcome = JSON.parse(event.data);
      close(`Ended after ${count} messages: ${outcome.code}${outcome.errorText ? " · " + outcome.errorText : ""}`);
    });
    source.onerror = () => close(count ? `Closed after ${count} messages.` : "The stream could not be opened.");
    panel.stop.onclick = () => close(`Stopped after ${count} messages.`);
  }

  function panelFor(form) {
    const actions = form.querySelector(".px-actions");
    const panel = { format: el("select", { "aria-label": "Answer format", class: "px-format" }) };
    Object.keys(formatsOf(form)).forEach((name) => panel.format.appendChild(el("option", {}, name)));
    const result = el("div", { class: "px-result" });
    panel.status = result.appendChild(el("p", { class: "px-status" }));
    panel.answer = result.appendChild(el("pre", { class: "px-answer" }));
    panel.decodeButton = result.appendChild(el("button", { type: "button", hidden: "" }, "Decode (calls again as JSON)"));
    panel.decodeButton.onclick = () => panel.decode?.();
    panel.decoded = result.appendChild(el("pre", { class: "px-decoded", hidden: "" }));
    result.appendChild(el("p", { class: "px-hint" }, "The same call with curl:"));
    panel.curl = result.appendChild(el("pre", { class: "px-curl" }));
    if (form.dataset.kind === "server") {
      panel.stop = actions.appendChild(el("button", { type: "button", hidden: "" }, "Stop"));
    } else {
      actions.prepend(el("label", {}, "Answer in "), panel.format, " ");
    }
    form.after(result);
    return panel;
  }

  function addRowButtons(form) {
    form.querySelectorAll(".px-rows").forEach((rows) => {
      const add = el("button", { type: "button", class: "px-add" }, "Add row");
      add.onclick = () => {
        const last = rows.querySelector(".px-row:last-of-type");
        const row = last.cloneNode(true);
        const index = rows.querySelectorAll(".px-row").length;
        row.querySelectorAll("[name]").forEach((control) => {
          control.name = control.name.replace(/\[\d+\]\.(key|value)$/, `[${index}].$1`);
          control.value = "";
        });
        rows.insertBefore(row, add);
      };
      rows.appendChild(add);
    });
  }

  document.querySelectorAll("form.px-form").forEach((form) => {
    form.querySelectorAll(".px-noscript").forEach((button) => button.remove());
    addRowButtons(form);
    const panel = panelFor(form);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (form.dataset.kind === "server") {
        stream(form, panel);
      } else {
        call(form, panel);
      }
    });
  });
})();
