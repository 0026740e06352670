// ProtoHttp explorer: the call as command lines to paste into a shell. curl repeats the very request the page made;
// buf curl makes it at the method's Connect procedure path (/{package.Service}/{Method}, docs/connect.md), with the
// schema piped from the server's own descriptor set (GET /{file}.proto with a protobuf Accept, docs/protocol.md
// section 9), so it needs neither the .proto files nor server reflection (which needs HTTP/2).
const quote = (text) => "'" + text.replace(/'/g, "'\\''") + "'";

const protobuf = "application/x-protobuf";

export function curl(call, { stream } = {}) {
  const parts = ["curl", stream ? "-sSN" : "-sS"];
  // curl sends GET, or POST with --data-raw: any other verb (a REST route's PUT, PATCH, DELETE...) is named.
  if (call.verb !== (call.body === null ? "GET" : "POST")) {
    parts.push("-X", call.verb);
  }
  call.headers.forEach(([name, value]) => parts.push("-H", quote(`${name}: ${value}`)));
  if (call.body !== null) {
    parts.push("--data-raw", quote(call.body));
  }
  parts.push(quote(call.url));
  if (call.headers[0][1] === protobuf) {
    parts.push("-o", "answer.pb");
  }
  return parts.join(" ");
}

// buf curl sends JSON it checks against the schema; a form's pairs are not JSON, so a form call has no buf curl line.
// Connect-Timeout-Ms is reserved to buf curl, which sends its own deadline: --timeout, buf's overall time limit.
export function bufCurl(call, { connectRoute, schemaRoute, messages }) {
  if (!connectRoute) {
    return "The method has no Connect route (Connect is off for it), which buf curl calls.";
  }
  if (messages === undefined) {
    return "buf curl sends the request as JSON: use the JSON tab for its command line.";
  }
  const schema = ["curl", "-sS", "-H", quote("Accept: " + protobuf), quote(new URL(schemaRoute, location.href).href)];
  const parts = ["buf", "curl", "--schema", "-", "--protocol", "connect"];
  call.headers
    .filter(([name]) => !/^(accept|content-type|connect-timeout-ms)$/i.test(name))
    .forEach(([name, value]) => parts.push("-H", quote(`${name}: ${value}`)));
  const deadline = call.headers.find(([name]) => /^connect-timeout-ms$/i.test(name));
  if (deadline) {
    parts.push("--timeout", deadline[1] + "ms");
  }
  parts.push("-d", quote(messages.map((message) => JSON.stringify(message)).join("\n")));
  parts.push(quote(new URL(connectRoute, location.href).href));
  return schema.join(" ") + " | " + parts.join(" ");
}

// A command line with its Copy button.
export function copyable(pre, button) {
  button.onclick = async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent);
      button.textContent = "Copied";
    } catch {
      // Without clipboard access (a page not served over HTTPS or loopback): the text is selected for Ctrl+C.
      getSelection().selectAllChildren(pre);
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  };
}
