// Calls SearchService with fetch and JSON, renders the hits with paging, and shows the ErrorResult text on failure.
(() => {
  "use strict";

  const pageSize = 5;
  const form = document.getElementById("script-form");
  const queryInput = document.getElementById("script-query");
  const hits = document.getElementById("script-hits");
  const error = document.getElementById("script-error");
  const pager = document.getElementById("script-pager");
  const pageLabel = document.getElementById("script-page");
  const prev = document.getElementById("script-prev");
  const next = document.getElementById("script-next");

  let query = "";
  let page = 1;

  async function search() {
    error.hidden = true;
    let response;
    try {
      response = await fetch("/ProtoService.proto/Search", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({ query, pageNumber: page, resultPerPage: pageSize }),
      });
    } catch (failure) {
      showError(`The service could not be reached: ${failure.message}`);
      return;
    }

    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      showError(body.errorText || `The service answered ${response.status}.`);
      return;
    }

    render(body.result || []);
  }

  function render(results) {
    hits.replaceChildren(...results.map(result => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = result.url;
      link.textContent = result.title || result.url;
      item.append(link);
      for (const text of result.snippets || []) {
        const snippet = document.createElement("p");
        snippet.className = "snippet";
        snippet.textContent = text;
        item.append(snippet);
      }
      return item;
    }));

    // Numbered across pages: page 2 starts where page 1 ended.
    hits.start = (page - 1) * pageSize + 1;
    pager.hidden = false;
    pageLabel.textContent = `Page ${page}`;
    prev.disabled = page === 1;
    // A full page means there may be more; a short one is the last.
    next.disabled = results.length < pageSize;
  }

  function showError(text) {
    hits.replaceChildren();
    pager.hidden = true;
    error.textContent = text;
    error.hidden = false;
  }

  form.addEventListener("submit", event => {
    event.preventDefault();
    query = queryInput.value;
    page = 1;
    search();
  });
  prev.addEventListener("click", () => { page -= 1; search(); });
  next.addEventListener("click", () => { page += 1; search(); });
})();
