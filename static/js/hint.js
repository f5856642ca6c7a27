// A hint (templates/games/_hint_answer.html) marks on the page the cells and tiles of the move
// it names. A move, a push or a pick redraws the prompt, and the hint with it: the marks go.
(() => {
  "use strict";

  function clear() {
    document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
  }

  function mark(scope, attribute, keys) {
    for (const key of (keys || "").split(" ").filter(Boolean)) {
      const selector = `${scope} [${attribute}="${CSS.escape(key)}"]`;
      document.querySelectorAll(selector).forEach((el) => el.classList.add("hinted"));
    }
  }

  // A refused hint (too many asked from this address: 429) is not swapped in by htmx: say so
  // where the hint would have been, in the words the form carries (templates/games/_hint.html).
  document.body.addEventListener("htmx:responseError", (event) => {
    const form = event.detail.elt;
    const hint = document.getElementById("computer-hint");
    if (!hint || !form || !form.classList || !form.classList.contains("hint-form")) return;
    hint.textContent = event.detail.xhr.status === 429
      ? form.dataset.tooManyWords || "No more hints for now: too many were asked from your address. Try again in a few minutes."
      : form.dataset.failedWords || "The hint could not be had: try again.";
  });

  function show() {
    clear();
    const hint = document.getElementById("computer-hint");
    if (!hint) return;
    mark("#board", "data-cell", hint.dataset.cells);
    mark("#market, #hands", "data-tile", hint.dataset.tiles);
  }

  document.body.addEventListener("htmx:afterSwap", show);
  // The replay opened at a move the analysis preferred (templates/games/replay.html) marks it
  // at once: that page is drawn with it, not swapped in.
  show();
})();
