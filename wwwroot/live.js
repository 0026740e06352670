// Streams of NorthwindStreams.proto through EventSource (Server-Sent Events): the price feed until Stop, and a bounded
// replay that ends with its `end` event. A failure before the stream starts is an HTTP error EventSource cannot read,
// so its ErrorResult is fetched again as JSON to show its text.
(() => {
  "use strict";

  const watch = document.getElementById("watch-prices");
  const stop = document.getElementById("stop-prices");
  const ticks = document.getElementById("price-ticks");
  const replayForm = document.getElementById("replay-form");
  const limit = document.getElementById("replay-limit");
  const orders = document.getElementById("replay-orders");
  const status = document.getElementById("live-status");
  const error = document.getElementById("live-error");

  let feed = null;

  function showError(text) {
    error.textContent = text;
    error.hidden = false;
  }

  function item(list, text) {
    const li = document.createElement("li");
    li.textContent = text;
    list.appendChild(li);
  }

  // Opens a stream; `end` closes it (an error outcome shows its errorText), and a failure before any message is
  // fetched again to read its ErrorResult. A topic's stream (its events carry ids) that ends UNAVAILABLE is an instance
  // stopping (docs/protocol.md section 15): it is left open, so EventSource reconnects with Last-Event-ID and goes on
  // from whichever instance answers, with nothing missed.
  function open(url, onMessage, onEnd) {
    error.hidden = true;
    const source = new EventSource(url);
    let received = false;
    let resumable = false;
    source.onmessage = (event) => {
      received = true;
      resumable = event.lastEventId !== "";
      onMessage(JSON.parse(event.data));
    };
    source.addEventListener("end", (event) => {
      const outcome = JSON.parse(event.data);
      if (outcome.code === "UNAVAILABLE" && resumable) {
        const before = status.textContent;
        status.textContent = "Reconnecting…";
        source.addEventListener("message", () => (status.textContent = before), { once: true });
        return;
      }

      source.close();
      if (outcome.code !== "OK") {
        showError(outcome.errorText || outcome.code);
      }

      onEnd(outcome);
    });
    source.onerror = async () => {
      if (source.readyState === EventSource.CLOSED || !received) {
        source.close();
        if (!received) {
          const answer = await fetch(url, { headers: { Accept: "application/json" } }).catch(() => null);
          const body = answer ? await answer.json().catch(() => ({})) : {};
          showError(body.errorText || "The stream could not be opened.");
        }

        onEnd(null);
      }
    };
    return source;
  }

  watch.addEventListener("click", () => {
    ticks.replaceChildren();
    watch.disabled = true;
    stop.disabled = false;
    status.textContent = "Watching prices…";
    feed = open("/NorthwindStreams.proto/WatchPrices.sse",
      (tick) => item(ticks, `${tick.productName}: ${Number(tick.unitPrice).toFixed(2)}`),
      () => { watch.disabled = false; stop.disabled = true; });
  });

  stop.addEventListener("click", () => {
    feed?.close();
    watch.disabled = false;
    stop.disabled = true;
    status.textContent = `Stopped after ${ticks.children.length} ticks.`;
  });

  replayForm.addEventListener("submit", (event) => {
    event.preventDefault();
    orders.replaceChildren();
    status.textContent = "Replaying…";
    open(`/NorthwindStreams.proto/ReplayOrders.sse?limit=${encodeURIComponent(limit.value)}`,
      (order) => item(orders, `Order ${order.orderId} for ${order.customerId}`),
      (outcome) => { status.textContent = outcome ? `Replay ended: ${outcome.code}, ${orders.children.length} orders.` : "Replay failed."; });
  });
})();
