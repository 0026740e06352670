// A live bidirectional call of NorthwindStreams.proto's QuoteLines over one WebSocket, through ProtoHttp's browser
// module: each line sent is quoted while the call stays open; "End the call" half-closes it, and a failure (an unknown
// product) ends it with the server's code and message.
import { open } from "/_protohttp/protohttp.mjs";

const openButton = document.getElementById("quotes-open");
const form = document.getElementById("quote-form");
const send = document.getElementById("quote-send");
const end = document.getElementById("quotes-end");
const quotes = document.getElementById("quotes");
const status = document.getElementById("quotes-status");
const error = document.getElementById("quotes-error");

let call = null;

function running(on) {
  openButton.disabled = on;
  send.disabled = !on;
  end.disabled = !on;
}

openButton.addEventListener("click", async () => {
  call = open("/NorthwindStreams.proto/QuoteLines");
  quotes.replaceChildren();
  error.hidden = true;
  status.textContent = "The call is open.";
  running(true);
  let count = 0;
  try {
    for await (const quote of call) {
      count++;
      const li = document.createElement("li");
      li.textContent = `${quote.quantity} × product ${quote.productId} at ${quote.unitPrice.toFixed(2)} = ${quote.total.toFixed(2)}`;
      quotes.appendChild(li);
    }
    status.textContent = `The call ended: OK, ${count} quotes.`;
  } catch (failure) {
    error.textContent = `${failure.code}: ${failure.message}`;
    error.hidden = false;
    status.textContent = "The call failed.";
  } finally {
    call = null;
    running(false);
  }
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  call?.send({ productId: Number(form.product.value), quantity: Number(form.quantity.value) });
});

end.addEventListener("click", () => call?.end());
