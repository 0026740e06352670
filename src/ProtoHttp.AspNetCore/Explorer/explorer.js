// ProtoHttp explorer: turns each method on the page into a live call. Without this script the forms still post (or
// GET) and the answer opens as a page. With it, each method gets a Form / JSON switch (the JSON editor is prefilled
// from the descriptors), request headers and a deadline, the answer's status, ErrorResult, headers and time, the call
// as curl and buf curl, server streams read live, and client-streaming and bidirectional calls over a WebSocket.
import { el } from "./explorer-dom.js";
import { buildCall, editorMessage, fillForm, formMessage, headersEditor } from "./explorer-request.js";
import { answerView, outcome, reset, showDecoded, showStream, showUnary } from "./explorer-answer.js";
import { bufCurl, copyable, curl } from "./explorer-commands.js";
import { openSocketCall } from "./explorer-socket.js";
import { setUpRestForm } from "./explorer-rest.js";

const json = "application/json";
const ndjson = "application/x-ndjson";

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

function commandsView() {
  const element = el("div", { class: "px-commands" });
  const line = (label, className) => {
    element.appendChild(el("p", { class: "px-hint" }, label));
    const row = element.appendChild(el("div", { class: "px-command" }));
    const pre = row.appendChild(el("pre", { class: className }));
    copyable(pre, row.appendChild(el("button", { type: "button", class: "px-copy" }, "Copy")));
    return pre;
  };
  return { element, curl: line("The same call with curl:", "px-curl"), bufCurl: line("With buf curl (Connect):", "px-buf-curl") };
}

// Form / JSON: the form where the request fits one, the JSON editor for any message. Switching carries what was
// entered: the form's values into the editor, and the editor's back into the form where its controls fit.
function modeSwitch(article, form, editor, onChange) {
  const tabs = el("div", { class: "px-tabs", role: "group", "aria-label": "Request as" });
  const textarea = editor.querySelector(".px-json");
  const parse = (text) => {
    try {
      const message = JSON.parse(text);
      return message !== null && typeof message === "object" && !Array.isArray(message) ? message : null;
    } catch {
      return null;
    }
  };
  const sample = parse(textarea.value) ?? {};
  let current = null;
  const carry = (mode) => {
    if (!form || mode === current) {
      return;
    }
    const message = parse(textarea.value);
    if (mode === "json") {
      textarea.value = JSON.stringify(formMessage(form, sample, message ?? {}), null, 2);
    } else if (message) {
      fillForm(form, message);
    }
  };
  const show = (mode) => {
    current = mode;
    form?.toggleAttribute("hidden", mode !== "form");
    editor.hidden = mode !== "json";
    tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
    onChange(mode);
  };
  for (const [mode, label] of [["form", "Form"], ["json", "JSON"]]) {
    if (mode === "json" || form) {
      const button = tabs.appendChild(el("button", { type: "button", "data-mode": mode, class: "px-tab" }, label));
      button.onclick = () => {
        carry(mode);
        show(mode);
      };
    }
  }
  (form || editor).before(tabs);
  // The form first where it carries every field of the request; else the editor, which does.
  show(form && !form.querySelector("[data-leaves-out]") ? "form" : "json");
}

function setUp(article) {
  const { kind, route, safe } = article.dataset;
  const formats = JSON.parse(article.dataset.formats || "{}");
  const form = article.querySelector("form.px-form");
  const editor = article.querySelector(".px-editor");
  const headers = headersEditor();
  const view = answerView();
  const commands = commandsView();
  let mode = "form";

  const editorActions = editor.appendChild(el("div", { class: "px-actions" }));
  const format = el("select", { "aria-label": "Answer format", class: "px-format" });
  Object.keys(formats).forEach((name) => format.appendChild(el("option", {}, name)));
  const controls = el("div", { class: "px-controls" });
  controls.appendChild(headers.element);
  if (kind === "unary") {
    const label = controls.appendChild(el("label", { class: "px-answer-format" }, "Answer in "));
    label.appendChild(format);
  }
  editor.after(view.element);
  view.element.after(commands.element);
  modeSwitch(article, form, editor, (chosen) => (mode = chosen));
  // Headers, deadline and answer format first, as a request has them, then the message and its Call button.
  article.querySelector(".px-tabs").before(controls);

  // The call as the current mode makes it; null when the JSON or a header name is not valid.
  const current = (accept) => {
    const rows = headers.read();
    const message = mode === "json" ? editorMessage(editor) : undefined;
    if (rows === null || message === null) {
      return null;
    }
    const verb = form ? form.method.toUpperCase() : "POST";
    return buildCall({ route, verb, accept, headers: rows, deadlineMs: headers.deadlineMs(), form, message });
  };
  const showCommands = (call, stream) => {
    commands.curl.textContent = curl(call, { stream });
    commands.bufCurl.textContent = bufCurl(call, {
      connectRoute: article.dataset.connect,
      schemaRoute: article.dataset.schema,
      messages: call.message === undefined ? undefined : [call.message],
    });
  };

  if (kind === "unary") {
    const run = () => {
      const call = current(formats[format.value] || json);
      if (call) {
        showCommands(call, false);
        showUnary(view, call, { safe: safe === "true", decode: () => showDecoded(view, { ...call, headers: [["Accept", json], ...call.headers.slice(1)] }) });
      }
    };
    editorActions.appendChild(el("button", { type: "button", class: "px-send" }, "Call")).onclick = run;
    form?.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  } else if (kind === "server") {
    let running = null;
    const stop = el("button", { type: "button", class: "px-stop", hidden: "" }, "Stop");
    view.status.after(stop);
    stop.onclick = () => running?.abort();
    const run = async () => {
      const call = current(ndjson);
      if (call) {
        running?.abort();
        running = new AbortController();
        showCommands(call, true);
        stop.hidden = false;
        await showStream(view, call, running.signal);
        stop.hidden = true;
      }
    };
    editorActions.appendChild(el("button", { type: "button", class: "px-send" }, "Call")).onclick = run;
    form?.addEventListener("submit", (event) => { event.preventDefault(); run(); });
  } else {
    setUpSocketCall(article, editor, editorActions, headers, view, commands);
  }
  form?.querySelectorAll(".px-noscript").forEach((button) => button.remove());
  if (form) {
    addRowButtons(form);
  }
}

// Client-streaming and bidirectional methods: each Send sends the editor's message on one open call, Finish sending
// half-closes it, and the answers show as they come (docs/protocol.md section 13, through ProtoHttp's browser module,
// by way of explorer-socket.js).
function setUpSocketCall(article, editor, actions, headers, view, commands) {
  if (!article.dataset.module) {
    actions.appendChild(el("p", { class: "px-hint" }, "This app maps no calls over WebSocket, which a page needs for a stream of requests."));
    return;
  }
  article.querySelector(".px-noscript-hint")?.remove();
  // A browser sets no headers on a WebSocket: the rows would send nothing, so only the deadline is offered.
  headers.element.querySelectorAll(".px-rows, .px-add-header").forEach((element) => (element.style.display = "none"));
  headers.element.querySelector("legend").textContent = "Deadline";
  headers.element.appendChild(el("p", { class: "px-hint" },
    "Over a WebSocket a browser sends no headers of its own: cookies go, the deadline goes as timeout_ms."));
  const send = actions.appendChild(el("button", { type: "button", class: "px-send" }, "Send message"));
  const finish = actions.appendChild(el("button", { type: "button", class: "px-finish", disabled: "" }, "Finish sending"));
  const cancel = actions.appendChild(el("button", { type: "button", class: "px-cancel", disabled: "" }, "Cancel"));
  let call = null;
  let sent = [];
  let received = 0;
  let start = 0;
  const progress = () => (view.time.textContent = `${sent.length} sent, ${received} received in ${Math.round(performance.now() - start)} ms`);
  const closed = () => {
    call = null;
    finish.disabled = true;
    cancel.disabled = true;
  };
  send.onclick = () => {
    const message = editorMessage(editor);
    if (message === null) {
      return;
    }
    if (call === null) {
      reset(view, "Open");
      sent = [];
      received = 0;
      start = performance.now();
      call = openSocketCall(article.dataset.module, article.dataset.route, { deadlineMs: headers.deadlineMs() }, {
        onMessage: (answer) => {
          received++;
          view.answer.textContent += JSON.stringify(answer) + "\n";
          progress();
        },
        onEnd: (end) => {
          view.status.textContent = outcome(received, end.code === "ok" ? null : { code: end.code, errorText: end.message });
          if (end.metadata) {
            view.headers.textContent = "Trailers:\n" + JSON.stringify(end.metadata, null, 2);
          }
          progress();
          closed();
        },
      });
      finish.disabled = false;
      cancel.disabled = false;
    }
    call.send(message);
    sent.push(message);
    progress();
    commands.curl.textContent = "curl cannot hold a stream of request messages; buf curl sends them all:";
    commands.bufCurl.textContent = bufCurl({ headers: headers.read() || [] }, {
      connectRoute: article.dataset.connect, schemaRoute: article.dataset.schema, messages: sent,
    });
  };
  finish.onclick = () => call?.closeSend();
  cancel.onclick = () => call?.cancel();
}

document.querySelectorAll("article.px-method[data-route]").forEach(setUp);
document.querySelectorAll("section.px-rest").forEach(setUpRestForm);
