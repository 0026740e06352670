// ProtoHttp explorer: the adapter between the page and ProtoHttp's browser module (docs/protocol.md section 13), the
// one place client-streaming and bidirectional calls go through. The module is loaded when the first such call opens,
// from where the server maps it (the article's data-module); its open() call is turned into the page's three actions
// and two callbacks.
//
// Opens a call at a method's ProtoHttp route. handlers: onMessage(message) for each answer, then onEnd({ code,
// message, metadata }) once, with code "ok" on success (else the module's ProtoHttpError code, as Connect spells it).
// Returns send(message), closeSend() (half-close) and cancel(); they wait for the module to load.
export function openSocketCall(moduleUrl, route, { deadlineMs }, handlers) {
  const waiting = [];
  let call = null;
  const act = (action) => (call ? action(call) : waiting.push(action));
  import(moduleUrl).then(
    async ({ open }) => {
      call = open(route, deadlineMs ? { timeoutMs: deadlineMs } : {});
      waiting.splice(0).forEach((action) => action(call));
      try {
        for await (const answer of call) {
          handlers.onMessage(answer);
        }
        const { metadata } = await call.result;
        handlers.onEnd({ code: "ok", message: "", metadata });
      } catch (error) {
        handlers.onEnd({ code: error.code ?? "unknown", message: error.message, metadata: error.metadata });
      }
    },
    (error) => handlers.onEnd({ code: "unavailable", message: `ProtoHttp's browser module (${moduleUrl}) did not load: ${error.message}` }));
  return {
    send: (message) => act((c) => c.send(message)),
    closeSend: () => act((c) => c.end()),
    cancel: () => act((c) => c.cancel()),
  };
}
